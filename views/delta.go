package views

import (
	"strings"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// MaxDeltaPlies is how many plies behind the game a page may be and still
// be brought up to date with a delta; further behind, it gets the whole
// #game.
const MaxDeltaPlies = 16

// Delta is what changed between a page showing a game at an earlier ply
// and the game now, with the same view options: rendered by DeltaSwaps as
// htmx out-of-band swaps, it turns the page into the one Page renders now.
// Its parts are those of the page, rendered by the same components; a
// part the ply cannot have changed is left out. It describes the page
// without what is the page's own until its next swap — the piece it
// picked, its refusal or notice, its promotion picker — which the page
// drops when an answer arrives (static/board.js); a whole #game replaces
// them too.
type Delta struct {
	Game // the game now, without its history rows (see Rows)

	// WholeBoard says the board's orientation or mode (read-only or not)
	// changed: #board is swapped whole. Else Squares are the squares whose
	// piece or marks changed (but for their placed marks, which the ply
	// field brings), and Arrow says the ban drawn changed.
	WholeBoard bool
	Squares    []Square
	Arrow      bool

	// Strips says which of the players' strips (White's, Black's) the
	// ply changed: their material or place, or, with a clock or who is
	// online on them, always.
	Strips [2]bool

	// WholeHistory says the page showed no history: the history panel is
	// swapped whole (Game.History holds its rows). Else Rows[0] is the
	// page's last row as it is now: the plies after Shown (the history
	// index of the ply the page showed last) in that row are appended to
	// their sides (rowTails), and the rows after it are appended to the
	// list. Shown's own link is left as it was, marked as the ply shown
	// (aria-current): the page's script moves the mark to the last ply
	// after every swap (static/steps.js), so the delta need not re-send
	// the link for it.
	WholeHistory bool
	Rows         []HistoryRow
	Shown        int

	// Notes says the notes show something: the page drops its own before
	// a swap (a refusal, a notice; the spectator's note stays as it was),
	// with its promotion picker.
	Notes bool

	// The other parts that changed: the controls whole, or only the resign
	// form's question (whose side is the actor's in a hot-seat game, who
	// may resign before and after: the game went on); the typed form
	// whole, or only its ply; the step links whole, or only the link back
	// (the page showed ply 1 or later, at the game's end); the "Play from
	// here" panel; the export panel's links (at the game's end, and at its
	// first ply, which brings "Request a review").
	Controls, Resign  bool
	Typed, TypedPly   bool
	WholeSteps        bool
	Branch, Exporting bool
}

// NewDelta describes what changed in g, the game info tells of, since the
// page that shows it at ply shown (a ply number, as Game.Ply) with o. ok
// is false when the page is
// not behind the game, or too far behind (MaxDeltaPlies): the page needs
// the whole #game then. Its cost depends on how far behind the page is,
// not on the game's length.
func NewDelta(g *rules.Game, shown int, info Info, o Options) (d Delta, ok bool) {
	k, n := shown-g.StartPly(), played(g) // plies the page shows, plies played
	if k < 0 || k >= n || n-k > MaxDeltaPlies {
		return Delta{}, false
	}
	// The plies from a little before the page's last row begins (a row
	// holds at most four plies), and the one before them for its number.
	first := max(0, k-6)
	tail := g.Record().HistorySince(max(0, first-1))
	fullmove := g.StartPosition().Fullmove
	if first > 0 {
		fullmove, tail = tail[0].Position.Fullmove, tail[1:]
	}
	d.Game = describeGame(g, info, o, lastMoveIn(tail))

	was, ok := shownBoard(g, tail, first, k, info.Perm.Seats, o)
	if !ok {
		return Delta{}, false
	}
	now := d.Game.Board
	if was.Flipped != now.Flipped || was.ReadOnly != now.ReadOnly || len(was.Squares) != len(now.Squares) {
		d.WholeBoard = true
	} else {
		for i, sq := range now.Squares {
			if sq.unplaced() != was.Squares[i].unplaced() { // the placed marks come with #board-ply
				d.Squares = append(d.Squares, sq)
			}
		}
		d.Arrow = !sameArrow(was.Arrow, now.Arrow)
	}
	d.parts(k, tail[k-first].Actor, g.Variant().HasPasses())
	wasPos := g.StartPosition()
	if k > 0 {
		wasPos = tail[k-1-first].Position
	}
	wasStrips := strips(o.Lang, info.Players, &wasPos, bottomSide(o, info.Perm.Seats, false, tail[k-first].Actor))
	for i, s := range d.Game.Strips {
		d.Strips[i] = s.Clock != nil || s.Presence || !sameStrip(s, wasStrips[i])
	}

	all := markNow(rows(o.Lang, o.Notation, tail, first, fullmove, -1))
	if k == 0 {
		d.WholeHistory, d.Game.History = true, all
		return d, true
	}
	for i, r := range all {
		for _, side := range [][]HistoryItem{r.White, r.Black} {
			for _, it := range side {
				if it.Index == k {
					d.Rows, d.Shown = all[i:], it.Index
					return d, true
				}
			}
		}
	}
	return Delta{}, false // not reached: ply k is in the tail
}

// rowTail is the plies of one side of the page's last row that the page
// does not show yet: appended to that side (class white or black).
type rowTail struct {
	side  string
	items []HistoryItem
}

// rowTails are the plies of the page's last row after the one it showed.
func (d Delta) rowTails() []rowTail {
	var tails []rowTail
	r := d.Rows[0]
	for _, s := range []rowTail{{"white", r.White}, {"black", r.Black}} {
		i := 0
		for i < len(s.items) && s.items[i].Index <= d.Shown {
			i++
		}
		if i < len(s.items) {
			tails = append(tails, rowTail{s.side, s.items[i:]})
		}
	}
	return tails
}

// parts works out which parts besides the board and the history changed,
// from what the page showed at history index k, where actor was to act:
// the game was not over then (it went on), and the viewer could act iff
// they hold actor's seat (as games' rule for a ply says). Where that is not enough to know a part (a game
// between two players or against the computer, EN-Chess's pass), the
// part is swapped whole.
func (d *Delta) parts(k int, actor rules.Color, passes bool) {
	m := &d.Game
	perm := m.Info.Perm
	d.Notes = m.Banner != "" || m.Opts.Error != "" || m.Opts.Notice != ""
	couldAct := perm.Seats.Has(actor)
	switch {
	case m.Info.Table != nil || m.Info.Bot != nil || m.Over:
		d.Controls = true
	case perm.Seats.Both():
		d.Controls = perm.Undo != (k > 0)
		d.Resign = !d.Controls && perm.Side != actor
	default:
		d.Controls = perm.Side != 0
	}
	switch {
	case passes && (couldAct || perm.Play): // the pass form may come or go
		d.Typed = true
	case couldAct && perm.Play:
		d.TypedPly = true
	default:
		d.Typed = couldAct != perm.Play
	}
	d.WholeSteps = k == 0
	d.Branch = m.BranchPly >= 0    // a game not over shows it only in other variants, where its ply changes
	d.Exporting = m.Over || k == 0 // the game ended, or has its first ply: "Request a review" comes
}

// sameArrow reports whether two boards draw the same ban.
func sameArrow(a, b *Arrow) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// shownBoard is the board as the page showed it at history index k (the
// game continued from there, so it was not over), without a selection;
// tail holds the plies from index first on. It is drawn from the
// history; a playable board also needs the legal actions then, which the
// game keeps for its last ply and which the position's FEN gives further
// back (a game without history, whose legal actions and marks are those
// of the position). seats are those the viewer holds.
func shownBoard(g *rules.Game, tail []rules.PlyInfo, first, k int, seats games.Seats, o Options) (Board, bool) {
	next := tail[k-first] // the ply played from it
	last := lastMoveIn(tail[:k-first])
	if last == nil && first > 0 {
		return Board{}, false // the last move is further back: not a Ban Chess game
	}
	playable := seats.Has(next.Actor)
	var legal []rules.Action
	if playable {
		var known bool
		if legal, known = g.LegalBefore(); !known || k != played(g)-1 {
			return shownBoardFromFEN(g, tail, first, k, seats, o, last)
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
	b := board(&pos, bottomSide(o, seats, false, next.Actor), ban, last, g.CheckedKings(&pos), g.Variant().Board().ExtraSquares())
	if !playable {
		b.ReadOnly = true
		return b, true
	}
	destinations(legal).mark(&b, rules.NoSquare)
	return b, true
}

// shownBoardFromFEN is shownBoard for a playable board whose legal actions
// the game no longer knows: it reads them from the position's FEN.
func shownBoardFromFEN(g *rules.Game, tail []rules.PlyInfo, first, k int, seats games.Seats, o Options, last *rules.Pair) (Board, bool) {
	fen := g.StartFEN()
	if k > 0 {
		fen = strings.TrimRight(tail[k-1-first].FEN(), "+#=")
	}
	old, err := rules.FromFEN(fen, g.Variant())
	if err != nil {
		return Board{}, false
	}
	o.Sel, o.PromoTo = rules.NoSquare, rules.NoSquare
	info := Info{Perm: games.Permissions{Seats: seats, Play: true}} // the viewer acted then
	return describeGame(old, info, o, last).Board, true
}
