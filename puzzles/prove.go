package puzzles

import (
	"errors"
	"fmt"
	"strings"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/rules"
)

// ErrBudget is returned when a proof needs more positions than its budget.
var ErrBudget = errors.New("puzzles: the proof needs more positions than its budget")

// Prover decides by exhaustive minimax over explicit bans — every ban the
// banner may choose, every move the ban leaves — whether a side forces
// checkmate within a number of plies. It plays on the engine's board
// (engine.Position) for speed and follows docs/rules.md: a move that leaves the
// opponent no move mates or stalemates at once; one that leaves a single
// pair mates or stalemates by the ban of it, one ply later; a capture that
// leaves insufficient material draws. Repetition and the fifty-move rule
// cannot end a game within a proof's horizon from a puzzle's start (a
// position stands a third time at the earliest eight plies on, and Mates
// refuses a position whose half-move clock could reach 100).
//
// A Prover is not safe for concurrent use.
type Prover struct {
	// Budget bounds the positions one call may visit (0: no bound); past
	// it the call returns ErrBudget.
	Budget int64
	// Total bounds the positions visited over all calls (Nodes; 0: no
	// bound); past it a call returns ErrBudget.
	Total int64
	// Nodes counts the positions visited, over all calls.
	Nodes int64

	pos      *engine.Position
	side     int // the engine's colour to move in pos
	attacker int
	used     int64
	limit    int64 // the positions this call may visit (0: no bound)
	bufs     [][]engine.Move
}

// MaxPlies is the longest proof Mates takes on.
const MaxPlies = 8

// Mates reports whether side forces checkmate within plies plies from g's
// current moment.
func (pr *Prover) Mates(g *rules.Game, side rules.Color, plies int) (bool, error) {
	if plies < 0 || plies > MaxPlies {
		return false, fmt.Errorf("puzzles: a proof of %d plies: choose 0 to %d", plies, MaxPlies)
	}
	if o := g.Outcome(); o.Over() {
		return o.Status == rules.Checkmate && o.Winner == side, nil
	}
	if g.Variant() != Variant() {
		return false, fmt.Errorf("puzzles: proofs are of Ban Chess, not %s", g.Variant().Name())
	}
	if pos := g.Position(); pos.HalfmoveClock+plies/2+1 >= 100 {
		return false, fmt.Errorf("puzzles: the half-move clock (%d) could reach the fifty-move rule within %d plies", pos.HalfmoveClock, plies)
	}
	p, err := engine.ParseFEN(g.FEN())
	if err != nil {
		return false, err
	}
	pr.pos, pr.used, pr.limit = p, 0, pr.Budget
	if pr.Total > 0 {
		left := max(pr.Total-pr.Nodes, 1) // a call may visit one position
		if pr.limit == 0 || left < pr.limit {
			pr.limit = left
		}
	}
	pr.side = colourIndex(g.ToMove())
	pr.attacker = colourIndex(side)
	if len(pr.bufs) < MaxPlies+2 {
		pr.bufs = make([][]engine.Move, MaxPlies+2)
	}
	ban, banned := g.Ban()
	var ok bool
	if g.Turn().Phase == rules.PhaseBan {
		ok = pr.banTurn(plies, 0)
	} else {
		pair := -1
		if banned {
			pair = int(ban.From) | int(ban.To)<<6
		}
		ok = pr.moveTurn(plies, 0, pair)
	}
	pr.Nodes += pr.used
	if pr.limit > 0 && pr.used > pr.limit {
		return false, ErrBudget
	}
	return ok, nil
}

// Distance returns the fewest plies, up to most, within which side forces
// checkmate from g's current moment; found is false when it does not
// within most.
func (pr *Prover) Distance(g *rules.Game, side rules.Color, most int) (plies int, found bool, err error) {
	for n := 0; n <= most; n++ {
		ok, err := pr.Mates(g, side, n)
		if err != nil || ok {
			return n, ok, err
		}
	}
	return 0, false, nil
}

func colourIndex(c rules.Color) int {
	if c == rules.Black {
		return engine.Black
	}
	return engine.White
}

// spent counts a position and reports whether the budget is spent (every
// call then unwinds with false; Mates reports ErrBudget).
func (pr *Prover) spent() bool {
	pr.used++
	return pr.limit > 0 && pr.used > pr.limit
}

// legal fills the buffer of depth d with the mover's legal moves.
func (pr *Prover) legal(d int) []engine.Move {
	pr.bufs[d] = pr.pos.Legal(pr.bufs[d][:0])
	return pr.bufs[d]
}

// banTurn decides a turn that starts with a ban: the mover's opponent bans
// one of the mover's pairs, then the mover moves. n is the plies left.
func (pr *Prover) banTurn(n, d int) bool {
	if pr.spent() {
		return false
	}
	moves := pr.legal(d)
	mated := pr.pos.InCheck() && pr.side != pr.attacker
	pairs := countPairs(moves)
	switch {
	case pairs == 0: // mated or stalemated by the last move
		return mated
	case pairs == 1: // the ban of the one pair mates or stalemates
		return n >= 1 && mated
	case n < 2:
		return false
	}
	if pr.side == pr.attacker {
		// The defender bans: the attacker needs winning moves of two
		// pairs, so that one is left whatever the ban.
		win := -1
		for _, m := range moves {
			if !pr.after(m, n-2, d) {
				continue
			}
			if win >= 0 && m.Pair() != win {
				return true
			}
			win = m.Pair()
		}
		return false
	}
	// The attacker bans: it wins if the defender's escapes are all of one
	// pair, the one it bans.
	escape := -1
	for _, m := range moves {
		if pr.after(m, n-2, d) {
			continue
		}
		if escape >= 0 && m.Pair() != escape {
			return false
		}
		escape = m.Pair()
	}
	return true
}

// moveTurn decides a move ply with the pair ban (or -1) banned: the start
// of a proof from a move ply.
func (pr *Prover) moveTurn(n, d, ban int) bool {
	if pr.spent() {
		return false
	}
	var moves []engine.Move
	for _, m := range pr.legal(d) {
		if m.Pair() != ban {
			moves = append(moves, m)
		}
	}
	if len(moves) == 0 {
		return pr.pos.InCheck() && pr.side != pr.attacker
	}
	if n < 1 {
		return false
	}
	for _, m := range moves {
		win := pr.after(m, n-1, d)
		if win == (pr.side == pr.attacker) {
			return win
		}
	}
	return pr.side != pr.attacker
}

// after reports whether the attacker wins within n plies once the mover
// plays m (the turn after it starts with the mover's ban).
func (pr *Prover) after(m engine.Move, n, d int) bool {
	// A mate needs check at its end: with two plies or fewer left after
	// its move, the attacker can only mate with a check.
	pr.pos.Make(m)
	pr.side ^= 1
	var win bool
	switch {
	case pr.side != pr.attacker && n <= 2 && !pr.pos.InCheck():
	case m.IsCapture() && pr.drawn():
		// Checkmate and stalemate come before the draw by material.
		if moves := pr.legal(d + 1); len(moves) == 0 {
			win = pr.pos.InCheck() && pr.side != pr.attacker
		}
	default:
		win = pr.banTurn(n, d+1)
	}
	pr.side ^= 1
	pr.pos.Unmake()
	return win
}

// drawn reports insufficient material as package rules decides it: no
// pawn, rook or queen, and at most one minor piece or bishops only, all
// on squares of one colour.
func (pr *Prover) drawn() bool {
	placement, _, _ := strings.Cut(pr.pos.FEN(), " ")
	minors, knights := 0, 0
	light, dark := false, false
	rank, file := 7, 0
	for _, c := range placement {
		switch {
		case c == '/':
			rank, file = rank-1, 0
			continue
		case c >= '1' && c <= '8':
			file += int(c - '0')
			continue
		}
		switch c | 0x20 {
		case 'p', 'r', 'q':
			return false
		case 'n':
			knights++
			minors++
		case 'b':
			minors++
			if (file+rank)%2 == 1 {
				light = true
			} else {
				dark = true
			}
		}
		file++
	}
	return minors <= 1 || (knights == 0 && !(light && dark))
}

// countPairs counts the distinct from→to pairs of a move list.
func countPairs(moves []engine.Move) int {
	n := 0
	for _, m := range moves {
		if !m.IsPromotion() || m.Promotion() == engine.Queen { // one of a pair's four promotions
			n++
		}
	}
	return n
}
