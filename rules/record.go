package rules

import (
	"slices"
	"strings"
)

// PlyInfo describes one ply of a game's history.
type PlyInfo struct {
	Ply    int
	Actor  Color
	Action Action
	// SAN is a move's Standard Algebraic Notation, with + or #; for a
	// ban, the banned move's, without check or promotion piece ("e4",
	// "O-O", "e8"), as the move list writes it after ⊘.
	SAN string
	// Ban is the ban that restricted this move; nil for bans and for moves
	// played without one (Classic).
	Ban *Pair
	// Position is the position after the ply.
	Position Position
	// Comment is the PGN comment read after the ply, or "".
	Comment string
	// NAGs are the ply's NAGs, in the order read; nil for none.
	NAGs []NAG

	fenSuffix string // see Game.fenSuffix
}

// FEN returns the extended FEN after the ply, with its indicator. It is
// written when asked for: a history is often read without its FENs.
func (p PlyInfo) FEN() string { return fenOf(&p.Position, p.fenSuffix) }

// FEN returns the current position in extended FEN with its indicator
// (docs/rules.md §2). Classic games write the six standard fields.
func (g *Game) FEN() string { return g.fenAt(len(g.plies)) }

// StartFEN returns the extended FEN the game started from, without indicator.
func (g *Game) StartFEN() string {
	return strings.TrimRight(g.fenAt(0), "+#=")
}

// FENAfter returns the extended FEN, with its indicator, after the first
// n plies of the game (0: its start); ok is false when it has fewer.
func (g *Game) FENAfter(n int) (fen string, ok bool) {
	if n < 0 || n > len(g.plies) {
		return "", false
	}
	return g.fenAt(n), true
}

// fenAt writes the FEN after the first n plies.
func (g *Game) fenAt(n int) string { return g.fenWith(n, &g.positions[g.movesIn(n)]) }

// fenWith writes the FEN after the first n plies, whose position is pos.
func (g *Game) fenWith(n int, pos *Position) string { return fenOf(pos, g.fenSuffix(n, pos)) }

// fenOf writes pos's six standard fields followed by suffix.
func fenOf(pos *Position, suffix string) string {
	b := pos.appendFEN6(make([]byte, 0, 96))
	return string(append(b, suffix...))
}

// fenSuffix is what the FEN after the first n plies, whose position is
// pos, has after the six standard fields: the variant's extension with its
// indicator, after a space ("" for none).
func (g *Game) fenSuffix(n int, pos *Position) string {
	ban, banned := g.banAfter(n)
	ext, indicate := g.variant.fenTail(pos, g.startPly+n, ban, banned)
	switch {
	case ext == "":
		return ""
	case !indicate:
		return " " + ext
	}
	return " " + ext + g.indicator(n, pos)
}

// movesIn counts the moves among the first n plies.
func (g *Game) movesIn(n int) int {
	if n == len(g.plies) {
		return len(g.positions) - 1
	}
	k := 0
	for _, p := range g.plies[:n] {
		if p.action.Phase == PhaseMove {
			k++
		}
	}
	return k
}

// banAfter returns the ban in force after the first n plies.
func (g *Game) banAfter(n int) (Pair, bool) {
	if n == 0 {
		return g.startBan, g.startHasBan
	}
	a := g.plies[n-1].action
	return a.Pair(), a.Phase == PhaseBan
}

// indicator returns +, #, = or "" for the state after n plies, whose
// position is pos.
func (g *Game) indicator(n int, pos *Position) string {
	if n == len(g.plies) {
		if ind := g.outcome.Indicator(); ind != "" {
			return ind
		}
	}
	if pos.inCheck {
		return "+"
	}
	return ""
}

// Actions returns the plies played, in order.
func (g *Game) Actions() []Action {
	out := make([]Action, len(g.plies))
	for i, p := range g.plies {
		out[i] = p.action
	}
	return out
}

// BCN returns the plies played in Ban Chess Notation, without indicators.
func (g *Game) BCN() []string {
	// One text for all, cut into the actions: two allocations at any
	// length (a store saves the game after every ply).
	text := make([]byte, 0, 8*len(g.plies))
	ends := make([]int, len(g.plies))
	for i, p := range g.plies {
		text, _ = p.action.AppendText(text)
		ends[i] = len(text)
	}
	all, out := string(text), make([]string, len(g.plies))
	start := 0
	for i, end := range ends {
		out[i], start = all[start:end], end
	}
	return out
}

// Log returns the action log: bans in BCN with the indicator of the state
// they leave ("b:e2e4", "b:e8f7#"), moves in SAN ("Nf3", "Qh4#").
func (g *Game) Log() []string {
	out := make([]string, len(g.plies))
	moves := 0
	for i, p := range g.plies {
		if p.action.Phase == PhaseMove {
			moves++
			out[i] = p.san
			continue
		}
		out[i] = p.action.String() + g.indicator(i+1, &g.positions[moves])
	}
	return out
}

// History describes every ply played, in order.
func (g *Game) History() []PlyInfo { return g.HistorySince(0) }

// HistorySince describes the plies played after the first n, in order:
// History()[n:], at a cost that depends on how many there are, not on the
// game's length. n is clamped to the plies played.
func (g *Game) HistorySince(n int) []PlyInfo {
	n = max(0, min(n, len(g.plies)))
	moves := len(g.positions) - 1 // moves played in the first n plies
	for _, p := range g.plies[n:] {
		if p.action.Phase == PhaseMove {
			moves--
		}
	}
	out := make([]PlyInfo, 0, len(g.plies)-n)
	for i := n; i < len(g.plies); i++ {
		p := g.plies[i]
		info := PlyInfo{
			Ply:    g.startPly + i,
			Actor:  g.variant.turn(g.startPly + i).Actor,
			Action: p.action,
			SAN:    p.san,
		}
		if nt := g.notes[i+1]; nt != nil {
			info.Comment, info.NAGs = nt.comment, slices.Clone(nt.nags)
		}
		if p.action.Phase == PhaseMove {
			moves++
			if ban, banned := g.banAfter(i); banned {
				info.Ban = &ban
			}
		}
		info.Position = g.positions[moves]
		info.fenSuffix = g.fenSuffix(i+1, &g.positions[moves])
		out = append(out, info)
	}
	return out
}
