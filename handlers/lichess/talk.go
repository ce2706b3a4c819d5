package lichess

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/stream"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// Chat is the games' chat as lichess's game streams and chat route use
// it (chat.Service).
type Chat interface {
	Since(ctx context.Context, id string, cred players.Credential, after int64) ([]chat.Line, int64, error)
	Post(ctx context.Context, id string, cred players.Credential, room chat.Room, text string) (chat.Line, error)
}

// chatLine is lichess's line of a game's stream for a chat line.
type chatLine struct {
	Type     string `json:"type"` // "chatLine"
	Room     string `json:"room"` // "player" or "spectator"
	Username string `json:"username"`
	Text     string `json:"text"`
}

// opponentGone is lichess's line of a game's stream when the opponent
// leaves the game (every page and stream of theirs closed) or comes back.
type opponentGone struct {
	Type string `json:"type"` // "opponentGone"
	Gone bool   `json:"gone"`
}

// talk returns what a game's stream of rec (id), for who playing side,
// sends on a wake besides the game's state: a chatLine for each line of
// the chat said since the stream opened (the caller's room), and
// opponentGone when the opponent's presence changes (a game between two
// players).
func (p *playAPI) talk(ctx context.Context, who caller, id string, side rules.Color, rec *games.Record) (func(context.Context, *stream.Source) error, error) {
	var after int64 = -1 // the last chat line sent; -1 before the first look
	twoSides := rec.White != "" && rec.Black != "" && rec.White != rec.Black
	present := func() bool {
		pr := p.s.games.Presence(id)
		if side == rules.White {
			return pr.Black
		}
		return pr.White
	}
	var here bool
	if twoSides {
		here = present()
	}
	look := func(ctx context.Context) ([]stream.Event, error) {
		var out []stream.Event
		if p.s.chat != nil && twoSides {
			lines, last, err := p.s.chat.Since(ctx, id, who.cred, max(after, 0))
			if err != nil && ctx.Err() != nil {
				return nil, err
			}
			if err == nil {
				if after >= 0 { // the lines before the stream opened are not told
					for _, l := range lines {
						data, err := json.Marshal(chatLine{Type: "chatLine", Room: string(l.Room), Username: l.Name, Text: l.Text})
						if err != nil {
							return nil, fmt.Errorf("encoding a chat line of game %s: %w", id, err)
						}
						out = append(out, stream.Event{Data: data})
					}
				}
				after = last
			}
		}
		if twoSides {
			if now := present(); now != here {
				here = now
				data, _ := json.Marshal(opponentGone{Type: "opponentGone", Gone: !now})
				out = append(out, stream.Event{Data: data})
			}
		}
		return out, nil
	}
	if _, err := look(ctx); err != nil {
		return nil, err
	}
	return func(ctx context.Context, es *stream.Source) error {
		evs, err := look(ctx)
		if err != nil || len(evs) == 0 {
			return err
		}
		return es.Send(evs...)
	}, nil
}

// say posts a line in the game's chat: lichess's form (or JSON) of room
// (player or spectator) and text.
func (p *playAPI) say(c echo.Context) error {
	who, err := p.s.authorizeFor(c, p.kind)
	if err != nil {
		return err
	}
	if p.s.chat == nil {
		return errs.Errorf(errs.Invalid, "This server has no chat.").WithDetail(errs.NoChat)
	}
	f, err := params(c)
	if err != nil {
		return err
	}
	room, err := chat.ParseRoom(f.Get("room"))
	if err != nil {
		return err
	}
	if _, err := p.s.chat.Post(c.Request().Context(), c.Param("id"), who.cred, room, f.Get("text")); err != nil {
		return err
	}
	return ok(c)
}
