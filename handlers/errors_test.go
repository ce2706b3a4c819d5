package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
)

// errorAnswer is what writeError answered.
type errorAnswer struct {
	status int
	hdr    http.Header
	body   string
}

// writeErrorAs answers err as writeError does for a request of kind: "api"
// (a path under /api), "htmx" or "page".
func writeErrorAs(t *testing.T, kind string, err error) errorAnswer {
	t.Helper()
	s := New(newService(nil), apiClock)
	target := "/g/abc"
	if kind == "api" {
		target = "/api/games/abc"
	}
	req := httptest.NewRequest(http.MethodGet, target, nil)
	if kind == "htmx" {
		req.Header.Set("HX-Request", "true")
	}
	rec := httptest.NewRecorder()
	if werr := s.kit.WriteError(echo.New().NewContext(req, rec), err); werr != nil {
		t.Fatalf("writeError(%v): %v", err, werr)
	}
	return errorAnswer{rec.Code, rec.Header(), rec.Body.String()}
}

// check checks a is the answer of kind with status: the API's error body
// with code, or an error page (whole, or its main part for htmx) that says
// msg.
func (a errorAnswer) check(t *testing.T, kind string, status int, code, msg string) {
	t.Helper()
	if a.status != status {
		t.Errorf("%s: status %d, want %d: %s", kind, a.status, status, a.body)
	}
	if kind == "api" {
		var body kit.ErrorBody
		if err := json.Unmarshal([]byte(a.body), &body); err != nil || !strings.HasPrefix(a.hdr.Get("Content-Type"), "application/json") {
			t.Fatalf("%s: %q %s, want the API's error body", kind, a.hdr.Get("Content-Type"), a.body)
		}
		if body.Code != code || !strings.Contains(body.Msg, msg) {
			t.Errorf("%s: %+v, want code %q and a message with %q", kind, body, code, msg)
		}
		return
	}
	if !strings.HasPrefix(a.hdr.Get("Content-Type"), "text/html") || !strings.Contains(a.body, `id="error"`) || !strings.Contains(a.body, msg) {
		t.Errorf("%s: %q, want an error page saying %q: %s", kind, a.hdr.Get("Content-Type"), msg, a.body)
	}
	if whole := strings.Contains(a.body, "<html"); whole != (kind == "page") {
		t.Errorf("%s: whole page %v", kind, whole)
	}
}

var errorKinds = []string{"api", "htmx", "page"}

// TestWriteErrorStatus: each code has its status, for the API, htmx and
// pages alike; the API's code is the detail when there is one.
func TestWriteErrorStatus(t *testing.T) {
	for _, tc := range []struct {
		code   errs.Code
		detail errs.Detail
		status int
	}{
		{errs.Invalid, "", 400},
		{errs.Invalid, errs.BadFEN, 400},
		{errs.Illegal, "", 422},
		{errs.Banned, "", 422},
		{errs.Conflict, errs.NothingToUndo, 409},
		{errs.GameOver, "", 409},
		{errs.NotFound, "", 404},
		{errs.Unauthorized, "", 401},
		{errs.Forbidden, errs.AnalysisLocked, 403},
		{errs.TooMany, errs.EngineBusy, 429},
		{errs.TooLarge, "", 413},
		{errs.Timeout, "", 408},
		{errs.Unavailable, errs.Busy, 503},
		{errs.Internal, "", 500},
		{errs.Internal, errs.Unreadable, 500},
		{errs.MethodNotAllowed, "", 405},
		{errs.UnsupportedMedia, errs.NotJSON, 415},
		{"no_such_code", "", 500},
	} {
		want := string(tc.code)
		if tc.detail != "" {
			want = string(tc.detail)
		}
		for _, kind := range errorKinds {
			t.Run(want+"/"+kind, func(t *testing.T) {
				msg := "Refused as " + want + "."
				a := writeErrorAs(t, kind, &errs.Error{Code: tc.code, Detail: tc.detail, Msg: msg})
				if kind != "api" && tc.code == errs.NotFound {
					msg = "no game at this address" // a page's words for a game not found
				}
				a.check(t, kind, tc.status, want, msg)
			})
		}
	}
}

// TestWriteErrorRetryAfter: Retry-After whenever the refusal says when to
// try again, in whole seconds rounded up, and on every 503.
func TestWriteErrorRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"rate limit", kit.TooMany(1500*time.Millisecond, errs.RateLimited, "Slow down."), "2"},
		{"stream limit", &errs.Error{Code: errs.TooMany, Detail: errs.TooManyStreams, RetryAfter: time.Minute, Msg: "Too many streams."}, "60"},
		{"busy", kit.Busy("Busy.", nil), "5"},
		{"unavailable, its own wait", &errs.Error{Code: errs.Unavailable, RetryAfter: 30 * time.Second, Msg: "Later."}, "30"},
		{"cancelled", context.Canceled, "5"},
		{"too many, no wait said", &errs.Error{Code: errs.TooMany, Detail: errs.EngineBusy, Msg: "Busy engine."}, ""},
		{"invalid", kit.Invalidf("No."), ""},
		{"internal", errors.New("boom"), ""},
	} {
		for _, kind := range errorKinds {
			if got := writeErrorAs(t, kind, tc.err).hdr.Get("Retry-After"); got != tc.want {
				t.Errorf("%s, %s: Retry-After %q, want %q", tc.name, kind, got, tc.want)
			}
		}
	}
}

// TestErrorOf: errors that are not refusals yet are answered by their
// kind.
func TestErrorOf(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		status int
		code   string
	}{
		{"Echo's not found", echo.ErrNotFound, 404, "not_found"},
		{"Echo's wrong method", echo.ErrMethodNotAllowed, 405, "method_not_allowed"},
		{"Echo's own message", echo.NewHTTPError(http.StatusForbidden, "keep out"), 403, "forbidden"},
		{"a body over the limit", fmt.Errorf("reading: %w", &http.MaxBytesError{Limit: kit.MaxBody}), 413, "too_large"},
		{"a cancelled request", fmt.Errorf("saving: %w", context.Canceled), 503, "cancelled"},
		{"a store too busy to save", errs.Internalf(sqliteError(5), "saving"), 503, "busy"},
		{"a refusal titled", kit.Titled("No such ply", kit.Invalidf("No ply 9.")), 400, "invalid"},
		{"anything else", errors.New("disk on fire"), 500, "internal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := writeErrorAs(t, "api", tc.err)
			var body kit.ErrorBody
			if err := json.Unmarshal([]byte(a.body), &body); err != nil || a.status != tc.status || body.Code != tc.code {
				t.Errorf("%d %s, want %d with code %s", a.status, a.body, tc.status, tc.code)
			}
			if strings.Contains(body.Msg, "fire") {
				t.Errorf("the message shows the cause: %q", body.Msg)
			}
		})
	}
}

// TestWriteErrorPages: a page's own title and view, and the server's own
// failures answered with ways on.
func TestWriteErrorPages(t *testing.T) {
	for _, kind := range []string{"htmx", "page"} {
		a := writeErrorAs(t, kind, kit.Titled("No such ply", kit.Invalidf("No ply 9.")))
		a.check(t, kind, 400, "", "No ply 9.")
		if !strings.Contains(a.body, "<h1>No such ply</h1>") {
			t.Errorf("%s: the title is not the page's own: %s", kind, a.body)
		}
		// A page's title does not hide a failure of the server's: its page
		// offers a new game.
		a = writeErrorAs(t, kind, kit.Titled("No such image", errors.New("disk on fire")))
		a.check(t, kind, 500, "", "Something went wrong")
		if !strings.Contains(a.body, `action="/new"`) || strings.Contains(a.body, "fire") {
			t.Errorf("%s: a server failure's page: %s", kind, a.body)
		}
	}
	var shownAt int
	var shownMsg string
	show := kit.Shown(&errs.Error{Code: errs.Conflict, Msg: "Out of date."}, func(status int, e *errs.Error) error {
		shownAt, shownMsg = status, e.Msg
		return nil
	})
	writeErrorAs(t, "page", show)
	if shownAt != http.StatusConflict || shownMsg != "Out of date." {
		t.Errorf("shown at %d with %q, want 409 with the message", shownAt, shownMsg)
	}
	shownAt = 0
	writeErrorAs(t, "api", show).check(t, "api", 409, "conflict", "Out of date.")
	if shownAt != 0 {
		t.Error("the API answered with a page's view")
	}
}
