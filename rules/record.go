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

	fenSuffix string // see Record.fenSuffix
}

// FEN returns the extended FEN after the ply, with its indicator. It is
// written when asked for: a history is often read without its FENs.
func (p PlyInfo) FEN() string { return fenOf(&p.Position, p.fenSuffix) }

// FEN returns the current position in extended FEN with its indicator
// (docs/rules.md §2). Classic games write the six standard fields.
func (g *Game) FEN() string { return g.Record().fenAt(len(g.plies)) }

// StartFEN returns the extended FEN the game started from, without indicator.
func (g *Game) StartFEN() string {
	return strings.TrimRight(g.Record().fenAt(0), "+#=")
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

// Record is a game's record: its main line written out — the action log,
// each ply with its SAN, the FEN after it, its NAGs and the comment after
// it — with the PGN tags the game was read with, and the whole game, its
// variations too, as PGN. Game.Record returns it; it reads the game as it
// stands.
type Record struct{ g *Game }

// Record returns the game's record.
func (g *Game) Record() Record { return Record{g} }

// Tags returns the PGN tags the game was read with (empty for a game not
// read from PGN). Result, SetUp, FEN and Variant are not kept: PGN derives
// them from the game.
func (r Record) Tags() []Tag { return append([]Tag(nil), r.g.tags...) }

// FromChessGame reports whether the game was read from a PGN without bans:
// a Classic game of all its moves (PGNOptions.ChessAsClassic), or a Ban
// Chess game starting where its moves, played as chess, end.
func (r Record) FromChessGame() bool { return r.g.fromChessGame }

// Comment returns the PGN comment after the first n plies of the main line
// (n = 0: before the first), or "".
func (r Record) Comment(n int) string { return r.g.notes.comment(n) }

// NAGs returns the NAGs of the main line's ply n (n = 0: those before the
// first ply), in the order read.
func (r Record) NAGs(n int) []NAG { return r.g.notes.nags(n) }

// FENAfter returns the extended FEN, with its indicator, after the first
// n plies of the game (0: its start); ok is false when it has fewer.
func (r Record) FENAfter(n int) (fen string, ok bool) {
	if n < 0 || n > len(r.g.plies) {
		return "", false
	}
	return r.fenAt(n), true
}

// fenAt writes the FEN after the first n plies.
func (r Record) fenAt(n int) string {
	pos := &r.g.positions[r.movesIn(n)]
	return fenOf(pos, r.fenSuffix(n, pos))
}

// fenOf writes pos's six standard fields followed by suffix.
func fenOf(pos *Position, suffix string) string {
	b := pos.appendFEN6(make([]byte, 0, 96))
	return string(append(b, suffix...))
}

// fenSuffix is what the FEN after the first n plies, whose position is
// pos, has after the six standard fields: the variant's extension with its
// indicator, after a space ("" for none).
func (r Record) fenSuffix(n int, pos *Position) string {
	g := r.g
	ban, banned := r.banAfter(n)
	ext, indicate := g.variant.fenTail(pos, g.startPly+n, ban, banned)
	switch {
	case ext == "":
		return ""
	case !indicate:
		return " " + ext
	}
	return " " + ext + r.indicator(n, pos)
}

// movesIn counts the moves among the first n plies.
func (r Record) movesIn(n int) int {
	g := r.g
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
func (r Record) banAfter(n int) (Pair, bool) {
	g := r.g
	if n == 0 {
		return g.startBan, g.startHasBan
	}
	a := g.plies[n-1].action
	return a.Pair(), a.Phase == PhaseBan
}

// indicator returns +, #, = or "" for the state after n plies, whose
// position is pos.
func (r Record) indicator(n int, pos *Position) string {
	if n == len(r.g.plies) {
		if ind := r.g.outcome.Indicator(); ind != "" {
			return ind
		}
	}
	if pos.inCheck {
		return "+"
	}
	return ""
}

// lastPly returns the last ply played as a variation keeps it.
func (r Record) lastPly() varPly {
	g := r.g
	n := len(g.plies)
	p := g.plies[n-1]
	if p.action.Phase == PhaseMove {
		return varPly{p.action, p.san}
	}
	return varPly{p.action, r.indicator(n, &g.positions[len(g.positions)-1])}
}

// Log returns the action log: bans in BCN with the indicator of the state
// they leave ("b:e2e4", "b:e8f7#"), moves in SAN ("Nf3", "Qh4#").
func (r Record) Log() []string {
	g := r.g
	out := make([]string, len(g.plies))
	moves := 0
	for i, p := range g.plies {
		if p.action.Phase == PhaseMove {
			moves++
			out[i] = p.san
			continue
		}
		out[i] = p.action.String() + r.indicator(i+1, &g.positions[moves])
	}
	return out
}

// History describes every ply played, in order.
func (r Record) History() []PlyInfo { return r.HistorySince(0) }

// HistorySince describes the plies played after the first n, in order:
// History()[n:], at a cost that depends on how many there are, not on the
// game's length. n is clamped to the plies played.
func (r Record) HistorySince(n int) []PlyInfo {
	g := r.g
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
			if ban, banned := r.banAfter(i); banned {
				info.Ban = &ban
			}
		}
		info.Position = g.positions[moves]
		info.fenSuffix = r.fenSuffix(i+1, &g.positions[moves])
		out = append(out, info)
	}
	return out
}
