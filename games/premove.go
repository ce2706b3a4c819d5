package games

import (
	"context"
	"fmt"
	"strings"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// Premove is what a player of a game between two players queued while
// the opponent acted: their next move and, perhaps, the ban to make after
// it (Ban Chess Notation; the ban "" when none). The server plays them the
// moment the player's turn comes, if they are still legal and the move
// was not banned; else the queue is dropped and Dropped says why, until
// the player queues again or plays.
type Premove struct {
	Move    string `json:"move,omitempty"`
	Ban     string `json:"ban,omitempty"`
	Dropped string `json:"dropped,omitempty"`
}

// Queued reports whether anything is queued.
func (p Premove) Queued() bool { return p.Move != "" || p.Ban != "" }

// Text says what is queued as a player reads it: "c2c4, then ban c7c5".
func (p Premove) Text() string {
	var parts []string
	for _, a := range p.Actions() {
		if act, err := rules.ParseAction(a); err == nil {
			if act.Phase == rules.PhaseBan {
				parts = append(parts, "then ban "+act.Pair().String())
			} else {
				parts = append(parts, act.Pair().String())
			}
		}
	}
	return strings.Join(parts, ", ")
}

// Actions returns what is queued, in the order it is played.
func (p Premove) Actions() []string {
	var out []string
	for _, a := range []string{p.Move, p.Ban} {
		if a != "" {
			out = append(out, a)
		}
	}
	return out
}

// PremoveQueues are both sides' premoves. Each is seen only by its side.
type PremoveQueues struct {
	White Premove `json:"white,omitzero"`
	Black Premove `json:"black,omitzero"`
	// Secret counts the changes to the record that changed only a queue
	// (or a player's forecasts):
	// Revision counts them (the store saves them), the revision shown to
	// watchers does not (see Record.ShownRevision).
	Secret int64 `json:"secret,omitempty"`
}

// ShownRevision is the record's revision as its watchers and the API see
// it: Revision without the changes only a premove's player knows of, so
// that a queued premove leaves no trace for the opponent.
func (r *Record) ShownRevision() int64 { return r.Revision - r.Premoves.Secret }

// Of returns side's premove.
func (q PremoveQueues) Of(side rules.Color) Premove { return *q.of(side) }

// of returns side's premove.
func (q *PremoveQueues) of(side rules.Color) *Premove {
	if side == rules.Black {
		return &q.Black
	}
	return &q.White
}

// Premoves queue the players' next actions at games between two players
// (see Premove).
type Premoves struct{ s *Service }

// Premoves returns the service's premove queues.
func (s *Service) Premoves() Premoves { return Premoves{s} }

// Get returns the premove queued by the holder of cred at game id.
func (p Premoves) Get(ctx context.Context, id string, cred players.Credential) (Premove, error) {
	var out Premove
	var refusal error
	err := p.s.View(ctx, id, cred, func(rec *Record, seats Seats) {
		side, err := rec.tableSide(seats, "queue a premove")
		if err != nil {
			refusal = refuse(cred, err)
			return
		}
		out = *rec.Premoves.of(side)
	})
	if err == nil {
		err = refusal
	}
	return out, err
}

// Set queues actions (BCN: a move, then perhaps a ban) for the holder of
// cred at game id in place of any queue, and returns the queue as it then
// stands: empty once played, or dropped with its reason. At the player's
// own turn it is played at once. An action that is not a move then a ban,
// or a move of no piece of theirs, is refused and changes nothing.
func (p Premoves) Set(ctx context.Context, id string, cred players.Credential, actions []string, then ViewFunc) (Premove, error) {
	var out Premove
	var side rules.Color
	after := func(rec *Record, seats Seats) {
		out = *rec.Premoves.of(side)
		if then != nil {
			then(rec, seats)
		}
	}
	err := p.s.update(ctx, id, cred, after, func(rec *Record, seats Seats) error {
		var err error
		if side, err = rec.mayPremove(seats); err != nil {
			return refuse(cred, err)
		}
		queue, err := readPremove(rec.Game, side, actions)
		if err != nil {
			return err
		}
		*rec.Premoves.of(side) = queue // played by update at once, if due
		return nil
	})
	return out, err
}

// Cancel empties the premove queued by the holder of cred at game id.
func (p Premoves) Cancel(ctx context.Context, id string, cred players.Credential, then ViewFunc) error {
	return p.s.update(ctx, id, cred, then, func(rec *Record, seats Seats) error {
		side, err := rec.mayPremove(seats)
		if err != nil {
			return refuse(cred, err)
		}
		*rec.Premoves.of(side) = Premove{}
		return nil
	})
}

// mayPremove decides queueing a premove: a player of a game between two
// players that has not ended. It returns the player's side.
func (r *Record) mayPremove(seats Seats) (rules.Color, error) {
	if r.Mode != Invite {
		return 0, (&errs.Error{Code: errs.Invalid, Msg: "Premoves are for games between two players: at this board, play the move."}).WithDetail(errs.NotInvite)
	}
	side, err := r.tableSide(seats, "queue a premove")
	if err != nil {
		return 0, err
	}
	return side, notOver(r.Game)
}

// readPremove reads actions as side's premove at g: one move, then
// perhaps one ban, the move's from square holding a piece of side's now.
func readPremove(g *rules.Game, side rules.Color, actions []string) (Premove, error) {
	bad := func(format string, a ...any) (Premove, error) {
		return Premove{}, (&errs.Error{Code: errs.Invalid, Msg: errs.Sentence(fmt.Sprintf(format, a...))}).WithDetail(errs.BadPremove)
	}
	if len(actions) == 0 || len(actions) > 2 {
		return bad("a premove is a move, then perhaps the ban to make after it (such as [\"m:e2e4\", \"b:d7d5\"]): %d actions given", len(actions))
	}
	var read [2]rules.Action
	for i, text := range actions {
		a, err := rules.ParseAction(text)
		if err != nil {
			return bad("premove %q: %v", text, err)
		}
		if want := [2]rules.Phase{rules.PhaseMove, rules.PhaseBan}[i]; a.Phase != want {
			return bad("premove %q: the %s action queued must be a %s", text, [2]string{"first", "second"}[i], want)
		}
		read[i] = a
	}
	if from := read[0].From; from.Valid() {
		pos := g.Position()
		if pc := pos.Board[from]; pc == rules.NoPiece || pc.Color() != side {
			return bad("premove %q: %s holds no piece of %s's", actions[0], from, side.Name())
		}
	}
	q := Premove{Move: read[0].String()}
	if len(actions) == 2 {
		q.Ban = read[1].String()
	}
	return q, nil
}

// playPremoves plays the premoves due at the side to act, one action at
// a time, for as long as one is due: after each, settled is told (the
// record as it was before it), so that each counts as its own change. A
// queued move is due at its side's move, its ban just after. One that is
// not legal (the move banned, say) drops the side's queue, saying why.
func playPremoves(rec *Record, settled func(before recordState)) {
	for g := rec.Game; !g.Outcome().Over(); {
		turn := g.Turn()
		q := rec.Premoves.of(turn.Actor)
		var text string
		switch {
		case turn.Phase == rules.PhaseMove && q.Move != "":
			text = q.Move
		case turn.Phase == rules.PhaseBan && q.Move == "" && q.Ban != "":
			text = q.Ban
		default:
			return // nothing due
		}
		before := rec.state()
		if reason := playQueued(g, turn, text); reason != "" {
			*q = Premove{Dropped: reason}
			return
		}
		if turn.Phase == rules.PhaseMove {
			q.Move, q.Dropped = "", ""
		} else {
			q.Ban = ""
		}
		settled(before)
	}
}

// playQueued plays text, the queued action for turn, at g, or says why it
// cannot be played.
func playQueued(g *rules.Game, turn rules.Turn, text string) (reason string) {
	a, err := rules.ParseAction(text)
	if err != nil || text == "" || a.Phase != turn.Phase {
		return "Your premove no longer fitted the turn, so it was cancelled."
	}
	if turn.Phase == rules.PhaseMove {
		if ban, ok := g.Ban(); ok && ban == a.Pair() {
			return fmt.Sprintf("Your premove %s was banned, so it was cancelled.", a.Pair())
		}
	}
	if err := g.Play(a); err != nil {
		return fmt.Sprintf("Your pre%s %s was no longer legal, so it was cancelled.", turn.Phase, a.Pair())
	}
	return ""
}

// onlyPremoved reports whether the change from before, when rec's
// premoves were premoves and its forecasts forecasts, changed only those
// (a player's secrets): no one else is told of it.
func (r *Record) onlyPremoved(before recordState, premoves PremoveQueues, forecasts *Forecasts) bool {
	if r.Premoves == premoves && r.Forecasts.equal(forecasts) {
		return false
	}
	was := *r
	was.Premoves, was.Forecasts = premoves, forecasts
	return was.state() == before
}
