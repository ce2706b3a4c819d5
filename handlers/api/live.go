package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/stream"

	"github.com/banchess/banchess/players"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// join takes the free seat of a game with a friend: the body names the
// invite code ({"invite":"…"}, the invite link's invite value). The
// caller's bearer token holds the seat; without one a new token does, and
// the answer carries it like a created game's.
func (a *gamesAPI) join(c echo.Context) error {
	var req joinRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	code := req.Invite.val
	if code == "" {
		return &errs.Error{Code: errs.Invalid, Detail: errs.BadInvite, Msg: `Send the invite code: {"invite":"…"}, the invite link's "invite" value.`}
	}
	token, err := a.token(c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	ctx := c.Request().Context()
	if _, err := a.s.games.Join(ctx, id, token, code); err != nil {
		return err
	}
	obj := Created{Token: string(token)}
	tags := a.pgnTags(c)
	if err := a.s.games.View(ctx, id, token, func(rec *games.Record, _ games.Seats) {
		obj.Game = recordJSON(rec, a.s.now(), tags...)
	}); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, obj)
}

// offerField reads the body's "offer".
func offerField(c echo.Context) (games.Offer, error) {
	var req offerRequest
	if err := readJSON(c, &req); err != nil {
		return "", err
	}
	if !req.Offer.ok {
		return "", &errs.Error{Code: errs.Invalid, Detail: errs.BadOffer, Msg: `Name the offer: {"offer":"takeback"}, "draw" or "rematch".`}
	}
	return games.ParseOffer(req.Offer.val)
}

// offer makes an offer to the opponent: {"offer":"takeback"|"draw"|"rematch"}.
func (a *gamesAPI) offer(c echo.Context) error {
	offer, err := offerField(c)
	if err != nil {
		return err
	}
	return a.write(c, func(ctx context.Context, id string, cred players.Credential, then games.ViewFunc) error {
		then, settle, err := a.s.kit.RematchAllowance(c, offer, a.s.kit.AcceptsOffer(ctx, id, cred, offer), then)
		if err != nil {
			return err
		}
		defer settle()
		return a.s.games.MakeOffer(ctx, id, cred, offer, then)
	})
}

// answerOffer accepts or declines the opponent's offer.
func (a *gamesAPI) answerOffer(accept bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		offer, err := offerField(c)
		if err != nil {
			return err
		}
		return a.write(c, func(ctx context.Context, id string, cred players.Credential, then games.ViewFunc) error {
			then, settle, err := a.s.kit.RematchAllowance(c, offer, accept, then)
			if err != nil {
				return err
			}
			defer settle()
			return a.s.games.AnswerOffer(ctx, id, cred, offer, accept, then)
		})
	}
}

// events streams the game as server-sent events: the game object as it
// stands first, then again after every change, each event's id its
// revision; and each line of the caller's chat room as an event "chat"
// (those after ?chat=SEQ, by default every line kept, then each new one). A client that reconnects with Last-Event-ID gets the game at
// once only if it changed since. The bearer token, if any, counts its
// holder as connected to the game. The game's streams share each event's
// data (see encodings): a change is encoded once however many watch.
func (a *gamesAPI) events(c echo.Context) error {
	id := c.Param("id")
	tags := a.pgnTags(c)
	key := id
	for _, t := range tags {
		key += "\x00" + t.Value
	}
	enc := a.s.encodings.Join(key)
	build := func(ctx context.Context) (int64, []byte, error) {
		var obj Game
		err := a.s.games.View(ctx, id, "", func(rec *games.Record, _ games.Seats) {
			obj = rated(ctx, a.s.players, rec, tags, func(tags ...rules.Tag) Game { return recordJSON(rec, a.s.now(), tags...) })
		})
		if err != nil {
			return 0, nil, err
		}
		data, err := json.Marshal(obj)
		return obj.Revision, data, err
	}
	state := stream.State{Events: func(ctx context.Context, rev int64) (int64, []stream.Event, error) {
		r, data, err := enc.Get(rev, func() (int64, []byte, error) { return build(ctx) })
		if err != nil {
			return 0, nil, err
		}
		return r, []stream.Event{{ID: strconv.FormatInt(r, 10), Data: data}}, nil
	}, Done: func() { a.s.encodings.Leave(enc) }}
	var ch stream.Chat
	if a.s.chat != nil {
		ch = a.s.chat
	}
	return a.s.streams.Game(c, id, kit.Bearer(c), state, stream.FollowChat(ch, id, kit.Bearer(c), stream.ChatAfter(c.QueryParam("chat"))))
}
