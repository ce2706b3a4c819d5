package api

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/notify"
	"github.com/banchess/banchess/players"
)

// Inbox is a named player's notifications (notify.Service).
type Inbox interface {
	Inbox(ctx context.Context, cred players.Credential) (notify.Inbox, error)
	MarkRead(ctx context.Context, cred players.Credential, ids []string) error
}

// notificationsAPI serves /api/notifications.
type notificationsAPI struct{ s *deps }

// notificationRoutes are the notifications' routes; none without an
// inbox.
func (a *notificationsAPI) notificationRoutes() []apiEndpoint {
	if a.s.inbox == nil {
		return nil
	}
	return []apiEndpoint{
		{http.MethodGet, "/notifications", a.list},
		{http.MethodPost, "/notifications/read", a.read},
	}
}

// bearer is the request's bearer token, which the notifications need.
func bearer(c echo.Context) (players.Credential, error) {
	cred := kit.Bearer(c)
	if cred == "" {
		return "", errs.Errorf(errs.Unauthorized, "Your notifications need your token: send it as a bearer token.")
	}
	return cred, nil
}

// list answers the bearer's notifications, newest first, and how many
// are unread.
func (a *notificationsAPI) list(c echo.Context) error {
	cred, err := bearer(c)
	if err != nil {
		return err
	}
	in, err := a.s.inbox.Inbox(c.Request().Context(), cred)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, in)
}

// ReadRequest is POST /api/notifications/read's body: the ids to mark
// read; none (or no body) marks all.
type ReadRequest struct {
	IDs []string `json:"ids"`
}

// read marks the bearer's notifications read and answers what is left.
func (a *notificationsAPI) read(c echo.Context) error {
	cred, err := bearer(c)
	if err != nil {
		return err
	}
	var req ReadRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	if len(req.IDs) == 0 {
		req.IDs = nil
	}
	ctx := c.Request().Context()
	if err := a.s.inbox.MarkRead(ctx, cred, req.IDs); err != nil {
		return err
	}
	in, err := a.s.inbox.Inbox(ctx, cred)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]int{"unread": in.Unread})
}
