package terminal

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// The session keeps its game where the web and the API keep theirs: in a
// games.Service, which creates games, applies actions and decides
// refusals. The session holds a credential with both seats of every game
// it creates and the id of the current one; it touches a game only inside
// the service's callbacks, under the game's lock.

// open stores g as a new game and makes it the session's game, in place of
// the one before. g must not be used afterwards except through the
// service. The first opens the session's player, whose credential holds
// the seats of every game it makes.
func (s *session) open(ctx context.Context, g *rules.Game) error {
	if s.cred == "" {
		cred, _, err := s.svc.NewPlayer(ctx, games.Cookie)
		if err != nil {
			return err
		}
		s.cred = cred
	}
	id, err := s.svc.Create(ctx, s.cred, g)
	if err != nil {
		return err
	}
	s.id = id
	return nil
}

// view runs fn on the current game, which it must not change, under the
// game's lock: fn must not call the service. view reports whether fn ran;
// when the service fails (a cancelled context) it says so instead.
func (s *session) view(ctx context.Context, fn func(g *rules.Game)) bool {
	if err := s.svc.View(ctx, s.id, s.cred, onGame(fn)); err != nil {
		s.out.refuse("%s", reason(err))
		return false
	}
	return true
}

// onGame adapts fn to a games.ViewFunc. The session holds both seats of its
// games, so fn needs only the game.
func onGame(fn func(g *rules.Game)) games.ViewFunc {
	return func(rec *games.Record, _ games.Seats) { fn(rec.Game) }
}

// reason words a refusal as the terminal writes refusals: lower case and
// without a full stop, so that a hint can follow. When the rules refused
// an action it is their own words, which quote the input as typed; else it
// is the service's message so reworded (never the cause of a failure,
// which is for logs).
func reason(err error) string {
	e := errs.Of(err)
	if e == nil {
		return ""
	}
	// Only a direct cause: an action refused inside a PGN is worded with
	// where it is, by the PGN's error.
	if ae, ok := e.Err.(*rules.ActionError); ok {
		return ae.Error()
	}
	return clause(e.Msg)
}

// clause turns a sentence into a clause: its first word in lower case
// unless it is a name or an abbreviation ("FEN", "PGN", "Black"), and
// without its full stop.
func clause(msg string) string {
	msg = strings.TrimSuffix(msg, ".")
	r, n := utf8.DecodeRuneInString(msg)
	word, _, _ := strings.Cut(msg, " ")
	if !unicode.IsUpper(r) || word == rules.White.Name() || word == rules.Black.Name() {
		return msg
	}
	if next, _ := utf8.DecodeRuneInString(msg[n:]); !unicode.IsLower(next) {
		return msg
	}
	return string(unicode.ToLower(r)) + msg[n:]
}

// refusal words an action the service refused without needing the game:
// one after the end, with what to do instead, or any other by its reason.
func refusal(err error) string {
	if errs.Of(err).Code == errs.GameOver {
		return reason(err) + "; type undo, new or load"
	}
	return reason(err)
}

// over reports whether the session's game has ended (or cannot be read).
func (s *session) over(ctx context.Context) bool {
	over := true
	s.view(ctx, func(g *rules.Game) { over = g.Outcome().Over() })
	return over
}
