package games

import (
	"context"

	"github.com/banchess/banchess/players"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/rules"
)

// Input is one ban or move as a client sends it.
type Input struct {
	// Text is typed input in any form rules.Notation.ParseInput reads (BCN,
	// squares, SAN). When it is empty, From and To (and Promotion, for a
	// move) name the ban or the move the turn asks for, as a board gives
	// them; Promotion rules.Pawn is EN-Chess's pawn that stays a pawn.
	Text      string
	From, To  rules.Square
	Promotion rules.PieceKind
	// Ply is the ply the client saw when it chose; a game that has moved on
	// refuses the input (Conflict). 0 skips the check.
	Ply int
}

// Play applies one ban or move to game id for the holder of cred, who must
// hold the seat of the side that acts now. then, if not nil, describes the
// game after it, under the same lock.
func (s *Service) Play(ctx context.Context, id string, cred players.Credential, in Input, then ViewFunc) error {
	return s.update(ctx, id, cred, then, func(rec *Record, seats Seats) error {
		g := rec.Game
		if err := rec.mayPlay(seats, in.Ply); err != nil {
			return refuse(cred, err)
		}
		a, err := in.Action(g)
		if err != nil {
			return err
		}
		return g.Play(a)
	})
}

// Action reads in as the ban or move it names at g's turn: typed text as
// rules.Notation.ParseInput reads it, or squares as a board gives them. A
// pawn's move to its last rank that names no piece is refused
// (PromotionNeeded), so a board can ask for one. The action is read, not
// played: playing it checks it.
func (in Input) Action(g *rules.Game) (rules.Action, error) {
	stay := in.Promotion == rules.Pawn // EN-Chess: the pawn stays a pawn
	if stay {
		in.Promotion = 0
	}
	a := rules.MoveAction(in.From, in.To, in.Promotion)
	switch {
	case in.Text != "":
		var err error
		if a, err = g.Notation().ParseInput(in.Text); err != nil {
			return a, errs.Of(err)
		}
	case g.Turn().Phase == rules.PhaseBan:
		a = rules.BanAction(in.From, in.To) // a ban removes every promotion: none is named
	}
	if !stay && needsPromotion(g, a, in.Text == "") {
		return a, (&errs.Error{Code: errs.Invalid, Msg: errs.Sentence(a.Coords() + " promotes a pawn: choose the piece (q, r, b or n)")}).WithDetail(errs.PromotionNeeded)
	}
	return a, nil
}

// IsPromotionNeeded reports whether err refused a move only because it
// named no promotion piece: a board then asks for one.
func IsPromotionNeeded(err error) bool {
	return err != nil && errs.Of(err).Detail == errs.PromotionNeeded
}

// Undone is what an undo took back: a declared ending (a resignation or
// an agreed draw), or else a ply.
type Undone struct {
	Declared rules.Outcome
	Ply      rules.PlyInfo
}

// UndoneFunc is a ViewFunc that knows what an undo took back.
type UndoneFunc func(u Undone, rec *Record, seats Seats)

// Undo takes back the last ply, or a resignation or agreed draw, and says
// which; then (if not nil) describes the game after it, knowing which.
// Only the holder of both seats may: at a game with two players,
// taking back needs both. At a game against the computer, its player
// takes back their last ply and the computer's since.
func (s *Service) Undo(ctx context.Context, id string, cred players.Credential, then UndoneFunc) (Undone, error) {
	var undone Undone
	var view ViewFunc
	if then != nil {
		view = func(rec *Record, seats Seats) { then(undone, rec, seats) }
	}
	err := s.update(ctx, id, cred, view, func(rec *Record, seats Seats) error {
		if err := rec.mayUndo(seats); err != nil {
			return refuse(cred, err)
		}
		g := rec.Game
		if out := g.Outcome(); declared(out) {
			undone.Declared = out
			return g.Undo()
		}
		if rec.Bot != nil {
			var err error
			undone.Ply, err = undoBot(rec)
			return err
		}
		undone.Ply = g.Record().HistorySince(g.Ply() - g.StartPly() - 1)[0]
		return g.Undo()
	})
	return undone, err
}

// Resign ends game id: side resigns. cred must hold side's seat.
func (s *Service) Resign(ctx context.Context, id string, cred players.Credential, side rules.Color, then ViewFunc) error {
	if side != rules.White && side != rules.Black {
		return errs.Errorf(errs.Invalid, "Say which side resigns: white or black.")
	}
	return s.update(ctx, id, cred, then, func(rec *Record, seats Seats) error {
		if err := rec.mayResign(seats, side); err != nil {
			return refuse(cred, err)
		}
		return rec.Game.Resign(side)
	})
}

// Draw ends game id as a draw by agreement; cred must hold both seats.
func (s *Service) Draw(ctx context.Context, id string, cred players.Credential, then ViewFunc) error {
	return s.update(ctx, id, cred, then, func(rec *Record, seats Seats) error {
		if err := rec.mayDraw(seats); err != nil {
			return refuse(cred, err)
		}
		return rec.Game.AgreeDraw()
	})
}

// checkPly refuses input made at another ply than the game's: the client
// was out of date (another tab or player moved), so acting could play the
// wrong ply.
func checkPly(g *rules.Game, seen int) error {
	if seen == 0 || seen == g.Ply() {
		return nil
	}
	return errs.Errorf(errs.Conflict, "This board was out of date: the game is now at ply %d, so nothing was played. Here is the current position.", g.Ply())
}

// needsPromotion reports whether a is a legal promoting move named without
// its piece. Typed (not from a board), a pawn move that may stay a pawn
// (EN-Chess) needs none; from a board, it needs the picker, which offers
// staying a pawn.
func needsPromotion(g *rules.Game, a rules.Action, board bool) bool {
	if a.Phase != rules.PhaseMove || a.Promotion != 0 || g.Turn().Phase != rules.PhaseMove {
		return false
	}
	if !a.From.Valid() || g.Position().Board[a.From].Kind() != rules.Pawn {
		return false
	}
	promotes := false
	for _, l := range g.Legal() {
		if l == a && !board {
			return false
		}
		promotes = promotes || l.From == a.From && l.To == a.To && l.Promotion != 0
	}
	return promotes
}
