package views

import (
	"fmt"
	"strconv"

	"github.com/banchess/banchess/editor"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// Game is everything the playground shows about one game.
type Game struct {
	Opts Options // the request's display choices
	Info Info    // the game's address, seats and permissions

	Variant   string // "Ban Chess"
	VariantID string // "ban"
	RulesURL  string // its rules' page
	Bans      bool   // the variant has bans: a ply may be a ban or a move
	Editable  bool   // the board editor edits the variant's positions
	Ply       int    // the ply to be played next
	Phase     string // "ban", "move" or "over"
	Actor     string // "White" or "Black": who acts now
	ActorID   string // "white" or "black"
	Status    string // "Move 2 · White to move — e2→e4 is banned"
	Title     string // the tab's title: "Black to ban · Ban Chess", "Your turn · …", "Checkmate · 1-0"
	Sound     string // the sound of the last ply: move, capture, check, ban or end ("" for none)
	Hint      string // what to do next
	Banner    string // the result once the game is over
	Announce  string // for the aria-live region
	Board     Board
	// Strips are the players' strips, White's then Black's (Strip.Top
	// says which is above the board).
	Strips    [2]Strip
	Promotion *Promotion
	History   []HistoryRow
	Over      bool
	FEN       string
	// ShownPly is how many plies of the game the board shows (0: its
	// start): the board's data-shown-ply. Played is how many the game
	// has played.
	ShownPly, Played int
	// Heading is an imported game's event and date, above the board
	// ("London · 1851.06.21"); "" for none.
	Heading string

	MustPass bool // EN-Chess's partial checkmate: the only move is the pass
	// Thinking says the computer is to act; VsComputer that the viewer
	// plays the computer (and takes back their ply and its since).
	Thinking, VsComputer bool

	// Paths are the addresses of the game's forms and download.
	Paths Paths

	// View is set on a read-only history view.
	View *HistoryView

	// Preview is the page's link preview; nil without an origin.
	Preview *Preview

	// Steps lead through the game's positions, one ply at a time.
	Steps Steps

	// StartComment is the PGN's comment before the first ply.
	StartComment string

	// Review is set on the game's review view (see WithReview).
	Review *ReviewView
	// BranchPly, when at least 0, offers new games from the position after
	// that many plies ("Play Ban Chess from here"), of the Branches; -1
	// offers none.
	BranchPly int
	Branches  []Variant
}

// HistoryView describes a read-only view of the board at a past ply.
type HistoryView struct {
	Index, Last int    // plies shown, plies in the game
	Caption     string // "Move 1 · White banned e5 (e7–e5)"
	Ply         int    // the ply to play in the position shown (what Analyse analyses)
}

// NewGame describes g, the game info tells of, as the playground shows it
// now with o.
func NewGame(g *rules.Game, info Info, o Options) Game {
	m := describeGame(g, info, o, lastMove(g))
	m.History = markNow(historyRows(o.Lang, o.Notation, g, -1))
	m.Preview = gamePreview(g, m)
	return m
}

// describeGame is NewGame without the history, whose rows grow with the
// game, and without the link preview (a full page's only); last is the
// last move played (nil for none), drawn on the board.
func describeGame(g *rules.Game, info Info, o Options, last *rules.Pair) Game {
	turn := g.Turn()
	out := g.Outcome()
	perm := info.Perm
	recent := g.Record().HistorySince(played(g) - 1) // the last ply
	m := gameOf(g, info, o)
	m.Actor = turn.Actor.Name()
	m.ActorID = turn.Actor.String()
	m.Over = out.Over()
	m.FEN = g.FEN()
	m.ShownPly = played(g)
	m.Heading = heading(g)
	m.Steps = stepsAt(info.ID, o, played(g), played(g))
	m.Announce = o.Announce
	m.StartComment = g.Record().Comment(0)
	m.BranchPly = -1
	level := 0
	if b := info.Bot; b != nil {
		m.VsComputer = perm.Seats.Has(b.Color.Other())
		m.Thinking = !out.Over() && turn.Actor == b.Color
		level = b.Level
	}
	ban, hasBan := g.Ban()
	switch {
	case out.Over():
		m.Phase = "over"
		m.Banner = GameBanner(o.Lang, g)
	case turn.Phase == rules.PhaseBan:
		m.Phase = "ban"
	default:
		m.Phase = "move"
	}
	if m.Announce == "" {
		m.Announce = announceLast(o.Lang, recent, m.Banner)
	}
	var banned *rules.Pair
	if hasBan {
		banned = &ban
	}
	pos := g.Position()
	m.Status = statusLine(o.Lang, pos.Fullmove, turn, out, g.InCheck(), banned)
	m.Title = title(o.Lang, m.Variant, turn, out, perm.Play && !perm.Seats.Both())
	m.Sound = soundOf(recent, out)

	dests := pickable(g, perm)
	m.MustPass = dests.pass
	m.Hint = hint(o.Lang, turn, out, perm, m.Thinking, level, m.MustPass)
	bottom := bottomSide(o, perm.Seats, out.Over(), turn.Actor)
	var banPtr *rules.Pair
	if last, ok := g.LastAction(); ok && last.Phase == rules.PhaseBan {
		p := last.Pair()
		banPtr = &p
	} else if hasBan {
		banPtr = &ban
	}
	m.Board = board(&pos, bottom, banPtr, last, g.CheckedKings(&pos), g.Variant().Board().ExtraSquares())
	m.Board.ReadOnly = !perm.Seats.Any() || !out.Over() && !perm.Play
	m.Strips = strips(o.Lang, info.Players, &pos, bottom)
	if _, ok := dests.of(o.Sel); !ok {
		o.Sel, o.PromoTo = rules.NoSquare, rules.NoSquare
		m.Opts = o
	}
	dests.mark(&m.Board, o.Sel)
	if sel, _ := dests.of(o.Sel); o.PromoTo != rules.NoSquare && sel.has(o.PromoTo) && turn.Phase == rules.PhaseMove {
		m.Promotion = promotion(g, o.Sel, o.PromoTo, turn.Actor)
		if o.PromoTo.IsX() { // a diamond above or below the board: the picker hangs from its middle
			m.Promotion.Col, m.Promotion.Top = -1, (o.PromoTo == rules.X9) != m.Board.Flipped
		} else {
			col, row := displayXY(o.PromoTo, m.Board.Flipped)
			m.Promotion.Col, m.Promotion.Top = col, row < 4
		}
	}
	if out.Over() || !g.Variant().HasBans() { // a game with bans is played on, not branched
		m.BranchPly, m.Branches = played(g), branches(info.Variants, g.Variant())
	}
	return m
}

// pickable is what a viewer with perm may pick on g's board: the squares
// its legal actions start from, with where they go; none when they may
// not play.
func pickable(g *rules.Game, perm games.Permissions) destMap {
	if !perm.Play {
		return destMap{}
	}
	return destinations(g.Legal())
}

// CanPick reports whether a viewer with perm may pick square sq on g's
// board: they may play, and a legal action starts there. A board shows a
// picked square only then.
func CanPick(g *rules.Game, perm games.Permissions, sq rules.Square) bool {
	_, ok := pickable(g, perm).of(sq)
	return ok
}

// bottomSide is the side shown at the bottom of the board: a player's
// own (Black's for a viewer who holds only Black's seat), at one board
// with auto-flip the side to act (in a game not over), else White's;
// turned round with Flip, which is a view of one game only.
func bottomSide(o Options, seats games.Seats, over bool, actor rules.Color) rules.Color {
	bottom := rules.White
	switch {
	case o.Auto && seats.Both() && !over:
		bottom = actor
	case seats.Black && !seats.White:
		bottom = rules.Black
	}
	if o.Flip {
		bottom = bottom.Other()
	}
	return bottom
}

// NewHistoryView describes the board after the first index plies of g
// (0: the start position), read-only, seen as the game's page sees it
// (the same side at the bottom, the same players' strips).
func NewHistoryView(g *rules.Game, index int, info Info, o Options) (Game, error) {
	hist := g.Record().History()
	if index < 0 || index > len(hist) {
		return Game{}, fmt.Errorf("no ply %d: this game has %d", index, len(hist))
	}
	m := gameOf(g, info, o)
	m.Phase = "view"
	m.History = historyRows(o.Lang, o.Notation, g, index)
	m.Steps = stepsAt(info.ID, o, index, len(hist))
	m.Over = g.Outcome().Over()
	m.ShownPly = index
	m.Heading = heading(g)
	m.StartComment = g.Record().Comment(0)
	m.BranchPly = index
	m.Branches = branches(info.Variants, g.Variant())
	pos, ban, last, shown, err := positionAfter(g, hist, index)
	if err != nil {
		return Game{}, err
	}
	if index == 0 {
		m.FEN = g.StartFEN()
	} else {
		m.FEN = shown.FEN()
	}
	caption := viewCaption(o.Lang, shown, moveNumberOf(g, hist, index))
	m.Status = caption
	m.Title = viewTitle(o.Lang, caption, index, len(hist), m.Variant)
	m.Hint = viewHint(o.Lang, m.Over)
	m.View = &HistoryView{Index: index, Last: len(hist), Caption: caption, Ply: g.StartPly() + index}
	bottom := bottomSide(o, info.Perm.Seats, m.Over, g.Turn().Actor)
	m.Board = board(&pos, bottom, ban, last, g.CheckedKings(&pos), g.Variant().Board().ExtraSquares())
	m.Board.ReadOnly = true
	m.Strips = strips(o.Lang, info.Players, &pos, bottom)
	m.Preview = newPreview(o.Lang, info.Origin, gamePath(info.ID)+"/history/"+strconv.Itoa(index), caption, previewText(o.Lang, g, info.Players), m.FEN, last, m.Board.Flipped)
	return m, nil
}

// positionAfter is the position after the first index plies of g (hist
// is its history), the ban drawn there, the last move before it, and the
// ply shown (nil at the start).
func positionAfter(g *rules.Game, hist []rules.PlyInfo, index int) (pos rules.Position, ban, last *rules.Pair, shown *rules.PlyInfo, err error) {
	if index == 0 {
		start, err := rules.FromFEN(g.StartFEN(), g.Variant())
		if err != nil {
			return pos, nil, nil, nil, fmt.Errorf("start position: %w", err)
		}
		if b, ok := start.Ban(); ok {
			ban = &b
		}
		return start.Position(), ban, nil, nil, nil
	}
	p := hist[index-1]
	if p.Action.Phase == rules.PhaseBan {
		b := p.Action.Pair()
		ban = &b
	}
	return p.Position, ban, lastMoveIn(hist[:index]), &p, nil
}

// moveNumberOf is the move number of the ply after the first index plies
// of g, as the list numbers it: the fullmove number before it.
func moveNumberOf(g *rules.Game, hist []rules.PlyInfo, index int) int {
	if index <= 1 {
		return g.StartPosition().Fullmove
	}
	return hist[index-2].Position.Fullmove
}

// heading is an imported game's event and date, from its tags: "London ·
// 1851.06.21"; "" when it has neither.
func heading(g *rules.Game) string {
	var event, date string
	for _, t := range g.Record().Tags() {
		switch v := t.Value; {
		case v == "" || v == "?" || v == "-" || v == "????.??.??":
		case t.Name == "Event":
			event = v
		case t.Name == "Date":
			date = v
		}
	}
	switch {
	case event != "" && date != "":
		return event + " · " + date
	case event != "":
		return event
	}
	return date
}

// Waiting reports whether the viewer plays this game and waits for the
// other side (to join, to act or to answer a rematch, or the computer to
// think): a page without
// JavaScript then refreshes itself.
func (g Game) Waiting() bool {
	if g.Review != nil {
		return g.Review.Waiting()
	}
	if g.VsComputer {
		return g.Thinking && g.View == nil
	}
	t, perm := g.Info.Table, g.Info.Perm
	if t == nil || !perm.Seats.Any() || g.View != nil {
		return false
	}
	if g.Over {
		return t.Offers.Rematch == perm.Side && t.RematchURL == ""
	}
	return !perm.Play
}

// played is how many plies g has played since its start position.
func played(g *rules.Game) int { return g.Ply() - g.StartPly() }

// lastMove is the from→to of the last move played, if any. A move is
// among the last few plies but for a game's first (a ban and a move
// alternate): only then is the whole history read.
func lastMove(g *rules.Game) *rules.Pair {
	n := played(g)
	if last := lastMoveIn(g.Record().HistorySince(n - 4)); last != nil || n <= 4 {
		return last
	}
	return lastMoveIn(g.Record().History())
}

// lastMoveIn is the from→to of the last move in hist, if any.
func lastMoveIn(hist []rules.PlyInfo) *rules.Pair {
	for i := len(hist) - 1; i >= 0; i-- {
		if a := hist[i].Action; a.Phase == rules.PhaseMove {
			p := a.Pair()
			return &p
		}
	}
	return nil
}

// gameOf is what every view of game g shares: its paths, the view options
// o, info, its variant and its ply.
func gameOf(g *rules.Game, info Info, o Options) Game {
	v := g.Variant()
	return Game{Paths: pathsOf(info.ID), Opts: o, Info: info, Variant: v.Name(), VariantID: v.ID(), RulesURL: RulesURL(v), Bans: v.HasBans(), Editable: editor.Edits(v), Ply: g.Ply(), Played: played(g)}
}
