package views

import (
	"strings"

	"github.com/banchess/banchess/rules"
)

// MaxDeltaPlies is how many plies behind the game a page may be and still
// be brought up to date with a delta; further behind, it gets the whole
// #game.
const MaxDeltaPlies = 16

// Delta is what changed between a page showing a game at an earlier ply
// and the game now, with the same view options: rendered by DeltaSwaps as
// htmx out-of-band swaps, it turns the page into the one Page renders now.
// Its parts are those of the page, rendered by the same components.
type Delta struct {
	Game // the game now, without its history rows (see Rows)

	// WholeBoard says the board's orientation or mode (read-only or not)
	// changed: #board is swapped whole. Else Squares are the squares whose
	// piece or marks changed.
	WholeBoard bool
	Squares    []Square

	// WholeHistory says the page showed no history: the history panel is
	// swapped whole (Game.History holds its rows). Else Rows[0] replaces
	// the page's last row, and the rows after it are appended.
	WholeHistory bool
	Rows         []HistoryRow
}

// NewDelta describes what changed in g since the page that shows it at ply
// shown (a ply number, as Game.Ply) with o, with the square from picked
// on its board (rules.NoSquare for none). ok is false when the page is not
// behind the game, or too far behind (MaxDeltaPlies): the page needs the
// whole #game then. Its cost depends on how far behind the page is, not on
// the game's length.
func NewDelta(g *rules.Game, shown int, from rules.Square, o Options) (d Delta, ok bool) {
	k, n := shown-g.StartPly(), played(g) // plies the page shows, plies played
	if k < 0 || k >= n || n-k > MaxDeltaPlies {
		return Delta{}, false
	}
	// The plies from a little before the page's last row begins (a row
	// holds at most four plies), and the one before them for its number.
	first := max(0, k-6)
	tail := g.HistorySince(max(0, first-1))
	fullmove := g.StartPosition().Fullmove
	if first > 0 {
		fullmove, tail = tail[0].Position.Fullmove, tail[1:]
	}
	d.Game = describeGame(g, o, lastMoveIn(tail))

	was, ok := shownBoard(g, tail, first, k, from, o)
	if !ok {
		return Delta{}, false
	}
	now := d.Game.Board
	if was.Flipped != now.Flipped || was.ReadOnly != now.ReadOnly || len(was.Squares) != len(now.Squares) {
		d.WholeBoard = true
	} else {
		for i, sq := range now.Squares {
			if sq != was.Squares[i] {
				d.Squares = append(d.Squares, sq)
			}
		}
	}

	all := markNow(rows(tail, first, fullmove, -1))
	if k == 0 {
		d.WholeHistory, d.Game.History = true, all
		return d, true
	}
	for i, r := range all {
		if r.has(k) {
			d.Rows = all[i:]
			return d, true
		}
	}
	return Delta{}, false // not reached: ply k is in the tail
}

// shownBoard is the board as the page showed it at history index k (the
// game continued from there, so it was not over), with the square from
// picked; tail holds the plies from index first on. It is drawn from the
// history; a playable board also needs the legal actions then, which the
// game keeps for its last ply and which the position's FEN gives further
// back (a game without history, whose legal actions and marks are those
// of the position).
func shownBoard(g *rules.Game, tail []rules.PlyInfo, first, k int, from rules.Square, o Options) (Board, bool) {
	next := tail[k-first] // the ply played from it
	last := lastMoveIn(tail[:k-first])
	if last == nil && first > 0 {
		return Board{}, false // the last move is further back: not a Ban Chess game
	}
	playable := o.Seats.Has(next.Actor)
	var legal []rules.Action
	if playable {
		var known bool
		if legal, known = g.LegalBefore(); !known || k != played(g)-1 {
			return shownBoardFromFEN(g, tail, first, k, from, o, last)
		}
	}
	pos := g.StartPosition()
	if k > 0 {
		pos = tail[k-1-first].Position
	}
	var ban *rules.Pair
	if next.Action.Phase == rules.PhaseMove {
		ban = next.Ban // the ban in force, which restricted it
	}
	b := board(&pos, bottomSide(o, false, next.Actor), ban, last, g.CheckedKings(&pos), hasXSquares(g))
	if !playable {
		b.ReadOnly = true
		return b, true
	}
	dests := destinations(legal)
	if _, ok := dests.of(from); !ok {
		from = rules.NoSquare
	}
	dests.mark(&b, from)
	return b, true
}

// shownBoardFromFEN is shownBoard for a playable board whose legal actions
// the game no longer knows: it reads them from the position's FEN.
func shownBoardFromFEN(g *rules.Game, tail []rules.PlyInfo, first, k int, from rules.Square, o Options, last *rules.Pair) (Board, bool) {
	fen := g.StartFEN()
	if k > 0 {
		fen = strings.TrimRight(tail[k-1-first].FEN(), "+#=")
	}
	old, err := rules.FromFEN(fen, g.Variant())
	if err != nil {
		return Board{}, false
	}
	oo := o
	oo.Sel, oo.PromoTo = from, rules.NoSquare
	return describeGame(old, oo, last).Board, true
}

// has reports whether the row holds history index i.
func (r HistoryRow) has(i int) bool {
	for _, side := range [][]HistoryItem{r.White, r.Black} {
		for _, it := range side {
			if it.Index == i {
				return true
			}
		}
	}
	return false
}
