// Package views renders the playground's pages and htmx fragments with templ.
// The functions here turn a rules.Game into plain view models; the .templ
// files only lay them out.
package views

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/banchess/banchess/rules"
)

// Options are the per-request choices that shape a page: orientation,
// selection, and messages for the user.
type Options struct {
	Flip bool // turn the board round (relative to Auto's choice)
	Auto bool // show the acting side at the bottom
	Mute bool // no sounds for plies (they are on by default)
	Size int  // the board's size in percent of the largest that fits (SizeMin–100; 0 is 100)

	// Variants are the variants the server plays, the default first
	// (VariantsOf): the new-game forms and the import box offer them.
	Variants []Variant

	// Sel is the square picked on the board (NoSquare for none); PromoTo,
	// with Sel, asks for the promotion picker.
	Sel, PromoTo rules.Square

	Error    string // a refused action or bad input, shown above the board
	Notice   string // an informational note, such as "loaded as a start position"
	Announce string // overrides the aria-live announcement of the last ply

	ImportText, ImportError string         // the import box after a failed import
	ImportVariant           string         // the variant chosen for it ("": as the text says)
	ImportAtStart           bool           // open the imported game at its start
	ImportGames             []ImportChoice // a PGN's games, to choose one

	Base     string // the game's path, "/g/{id}": links and forms go under it
	Origin   string // scheme://host for absolute URLs (link previews); "": none
	WatchURL string // absolute public link to the game (anyone may watch)
	ShareURL string // absolute link reproducing the game
	PGN      string // the game's PGN, written by the caller with its tags
	Export   bool   // show the PGN and the share link (else a link to them)
	Asset    string // version suffix for static URLs

	// Seats are the seats the viewer holds; none is a spectator, who sees
	// the game read-only.
	Seats Seats
	// Games lists the viewer's games, on a full page.
	Games []GameLink

	// Revision is the game's revision shown; EventsURL is its stream of
	// changes, which a page with JavaScript follows live.
	Revision  int64
	EventsURL string
	// Table is set for a game between two players.
	Table *Table
	// JoinCode is an invite code the viewer opened the game with, which a
	// button on the page presents to take the free seat.
	JoinCode string
	// SeatTaken says the viewer opened an invite link whose seats were
	// both taken.
	SeatTaken bool
	// Computer is set for a game against the computer.
	Computer *Computer
	// EngineLocked says the engine may not analyse the game now (a game
	// between two players, until it ends): no Analyse links, and the live
	// panel says why (games.Record.EngineLocked).
	EngineLocked bool
}

// Computer is the computer's seat at a game against it.
type Computer struct {
	Side  rules.Color // the side it plays
	Level int         // 1–8
}

// SizeMin and SizeStep bound the board size setting: SizeMin, SizeMin +
// SizeStep, … up to 100 percent of the largest board that fits.
const (
	SizeMin  = 50
	SizeStep = 5
)

// BoardSize returns o's board size in percent: 100 unless a valid smaller
// size was chosen.
func (o Options) BoardSize() int {
	if o.Size < SizeMin || o.Size > 100 || o.Size%SizeStep != 0 {
		return 100
	}
	return o.Size
}

// Variant is one variant a new game can be of.
type Variant struct {
	ID, Name string
	Bot      bool // the computer plays it

	rules rules.Variant
}

// VariantsOf lists vs, the variants the server plays (the default first),
// as the pages offer them; bot says which the computer plays.
func VariantsOf(vs []rules.Variant, bot func(rules.Variant) bool) []Variant {
	out := make([]Variant, len(vs))
	for i, v := range vs {
		out[i] = Variant{ID: v.ID(), Name: v.Name(), Bot: bot(v), rules: v}
	}
	return out
}

// branches lists the variants of vs a position of a game of v can start
// a game of (rules.CanBranch).
func branches(vs []Variant, v rules.Variant) []Variant {
	var out []Variant
	for _, w := range vs {
		if rules.CanBranch(v, w.rules) {
			out = append(out, w)
		}
	}
	return out
}

// Seats are the seats of the game the viewer holds.
type Seats struct{ White, Black bool }

// Has reports whether the seat of side is held.
func (s Seats) Has(side rules.Color) bool {
	return side == rules.White && s.White || side == rules.Black && s.Black
}

// GameLink is one of the viewer's games in their list.
type GameLink struct {
	URL     string // "/g/{id}"
	HideURL string // the form that removes it from the list
	Title   string // "Ban Chess · ply 12"
	Status  string // "White to move", "1-0"
	FEN     string // the position now
	Board   string // the position's placement, as a small board (see MiniBoard)
	Current bool   // the game on this page
}

// NoSelection returns Options with no square picked.
func NoSelection() Options { return Options{Sel: rules.NoSquare, PromoTo: rules.NoSquare} }

// Query returns the game's path with the orientation as URL query values,
// for links and redirects; extra pairs (key, value, …) are added.
func (o Options) Query(extra ...string) string {
	base := o.Base
	if base == "" {
		base = "/"
	}
	return base + o.query(extra...)
}

// query is the orientation and extra pairs as a query string: "" or
// "?flip=1…".
func (o Options) query(extra ...string) string {
	q := url.Values{}
	if o.Flip {
		q.Set("flip", "1")
	}
	if o.Auto {
		q.Set("auto", "1")
	}
	for i := 0; i+1 < len(extra); i += 2 {
		if extra[i+1] != "" {
			q.Set(extra[i], extra[i+1])
		}
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// Square is one square of the rendered board: where it is, its piece and
// its marks. It is small and has no strings (a page draws 64, and a delta
// compares two boards square by square); its methods say the rest.
type Square struct {
	at    rules.Square
	piece rules.Piece
	marks marks
}

// marks are what a square shows besides its piece.
type marks uint16

const (
	light    marks = 1 << iota // a light square (x squares are neither)
	rankAt                     // on the left edge: it shows its rank's digit
	fileAt                     // on the bottom edge: it shows its file's letter
	xTop                       // EN-Chess's x square above the board
	xBottom                    // and below it
	selected                   // the piece picked
	dest                       // where it may go
	capture                    // a destination with a piece on it
	promo                      // a destination where a pawn promotes
	banFrom                    // the ban drawn, from and to
	banTo
	lastFrom // the last move, from and to
	lastTo
	check // a king in check
)

// Name is the square's name: "e4".
func (sq Square) Name() string { return sq.at.String() }

// Label is the square's name and what stands on it: "e4, white pawn".
func (sq Square) Label() string { return squareLabels[sq.at][sq.piece&31] }

// Piece is the code of the piece on it ("wP"), or "" for none.
func (sq Square) Piece() string { return sq.piece.Code() }

// has reports whether the square shows all of m.
func (sq Square) has(m marks) bool { return sq.marks&m == m }

// Arrow is the ban in force drawn over the board, in board units (0–8).
type Arrow struct{ X1, Y1, X2, Y2 string }

// Board is the 8×8 board in display order (top-left first), then, in
// EN-Chess, the x squares above and below it.
type Board struct {
	Squares  []Square
	Arrow    *Arrow
	Flipped  bool // Black at the bottom
	ReadOnly bool
	// Dests are the squares that can be picked, each with where it goes:
	// "e2:e3,e4 g1:f3,h3" ("" when none can be). The page carries them
	// once, on the board's ply field, rather than on each square: a ply
	// changes them all, but only a few squares.
	Dests string
}

// ImportChoice is one game of a PGN of several, offered to import.
type ImportChoice struct {
	Index int
	Label string // "Morphy – Duke Karl, 1-0, 1858.??.??"
}

// ImportChoices describes a PGN's games for the import box.
func ImportChoices(list []rules.PGNHeader) []ImportChoice {
	out := make([]ImportChoice, len(list))
	for i, h := range list {
		name := func(tag, dflt string) string {
			if v := h.Tag(tag); v != "" && v != "?" {
				return v
			}
			return dflt
		}
		label := name("White", "?") + " – " + name("Black", "?") + ", " + name("Result", "*")
		if d := name("Date", ""); d != "" {
			label += ", " + d
		}
		if e := name("Event", ""); e != "" {
			label += " (" + e + ")"
		}
		out[i] = ImportChoice{Index: i, Label: strconv.Itoa(i+1) + ". " + label}
	}
	return out
}

// HistoryItem is one ply in the history list.
type HistoryItem struct {
	Index   int    // plies played up to and including this one: the /history/{Index} view
	Text    string // "d4", "e2–e4"
	Ban     bool
	Current bool // the ply shown in a history view
	Title   string
	Comment string // the PGN's comment after the ply
	Now     bool   // the game page's last ply: the position shown
}

// HistoryRow is one numbered move: each side's ban then move.
type HistoryRow struct {
	Number       int
	White, Black []HistoryItem
}

// Promotion is the open promotion picker.
type Promotion struct {
	From, To string
	Color    string // "w" or "b"
	Choices  []PromotionChoice
	// Col is the display column of To (0 at the left; -1 for an x square,
	// in the middle); Top says To is at the top, so the picker hangs down
	// from it (else it rises).
	Col int
	Top bool
}

// PromotionChoice is one piece the pawn may become.
type PromotionChoice struct {
	Letter string // "q"
	Piece  string // "wQ"
	Name   string // "queen"
}

// Game is everything the playground shows about one game.
type Game struct {
	Opts Options

	Variant   string // "Ban Chess"
	Bans      bool   // the variant has bans: a ply may be a ban or a move
	Ply       int
	Phase     string // "ban", "move" or "over"
	Actor     string // "White" or "Black": who acts now
	ActorID   string // "white" or "black"
	Status    string // "Ply 2 · White to move — e2→e4 is banned"
	Title     string // the tab's title: "Black to ban · Ban Chess", "Checkmate · 1-0"
	Sound     string // the sound of the last ply: move, capture, check, ban or end ("" for none)
	Hint      string // what to do next
	Banner    string // the result once the game is over
	Announce  string // for the aria-live region
	Board     Board
	Promotion *Promotion
	History   []HistoryRow
	CanUndo   bool
	Over      bool
	FEN       string

	// What the viewer may do: act at this ply (CanAct), resign for
	// ResignSide ("" for none), agree a draw. Watching is a viewer who holds
	// no seat.
	CanAct    bool
	MustPass  bool // EN-Chess's partial checkmate: the only move is the pass
	CanDraw   bool
	BothSeats bool // the viewer plays both sides (hot seat)
	// Thinking says the computer is to act; VsComputer that the viewer
	// plays the computer (and may take back their ply and its since).
	Thinking, VsComputer   bool
	ResignSide, ResignName string
	Watching               bool

	// Paths are the addresses of the game's forms and download.
	Paths Paths

	// View is set on a read-only history view.
	View *HistoryView

	// Preview is the page's link preview; nil without Opts.Origin.
	Preview *Preview

	// Steps lead through the game's positions, one ply at a time.
	Steps Steps

	// StartComment is the PGN's comment before the first ply.
	StartComment string
	// BranchPly, when at least 0, offers new games from the position after
	// that many plies ("Play Ban Chess from here"), of the Branches; -1
	// offers none.
	BranchPly int
	Branches  []Variant
}

// Paths are the addresses under a game's path that its page posts to.
type Paths struct{ Select, Ply, Undo, Resign, Draw, PGN, Analysis, Export templ.SafeURL }

// pathsOf works out the paths of the game o shows, once per page.
func pathsOf(o Options) Paths {
	p := func(action string) templ.SafeURL { return templ.SafeURL(actionURL(o, action)) }
	return Paths{Select: p("select"), Ply: p("ply"), Undo: p("undo"), Resign: p("resign"), Draw: p("draw"), PGN: p("pgn"), Analysis: p("analysis"), Export: p("export")}
}

// Steps are the addresses of the positions around the one shown: the
// start, the ply before, the ply after, and the game as it is now; "" where
// there is none (the start has no ply before it).
type Steps struct{ First, Prev, Next, Last templ.SafeURL }

// stepsAt returns the steps around the position after index of last plies
// (index = last: the game page itself).
func stepsAt(o Options, index, last int) Steps {
	h := historyQuery(o)
	var s Steps
	if index > 0 {
		s.First, s.Prev = historyURL(0, h), historyURL(index-1, h)
	}
	if index < last {
		s.Next, s.Last = historyURL(index+1, h), templ.SafeURL(o.Query())
		if index+1 == last {
			s.Next = s.Last
		}
	}
	return s
}

// HistoryView describes a read-only view of the board at a past ply.
type HistoryView struct {
	Index, Last int    // plies shown, plies in the game
	Caption     string // "After ply 3: White banned e7–e5"
	Ply         int    // the ply to play in the position shown (what Analyse analyses)
}

// NewGame describes g as the playground shows it now.
func NewGame(g *rules.Game, o Options) Game {
	m := describeGame(g, o, lastMove(g))
	m.History = markNow(historyRows(g, -1))
	title := m.Status
	if m.Over {
		title = fmt.Sprintf("Ply %d · %s", g.Ply(), m.Banner)
	}
	m.Preview = newPreview(g, m.Opts, m.Opts.Base, title, m.FEN, lastMove(g), m.Board.Flipped)
	return m
}

// describeGame is NewGame without the history, whose rows grow with the
// game, and without the link preview (a full page's only); last is the
// last move played (nil for none), drawn on the board.
func describeGame(g *rules.Game, o Options, last *rules.Pair) Game {
	turn := g.Turn()
	out := g.Outcome()
	recent := g.HistorySince(played(g) - 1) // the last ply
	m := Game{
		Paths:     pathsOf(o),
		Opts:      o,
		Variant:   g.Variant().Name(),
		Bans:      g.Variant().HasBans(),
		Ply:       g.Ply(),
		Actor:     turn.Actor.Name(),
		ActorID:   turn.Actor.String(),
		CanUndo:   o.Seats.White && o.Seats.Black && (g.Ply() > g.StartPly() || out.Reason == rules.Resignation || out.Reason == rules.Agreement),
		Over:      out.Over(),
		CanAct:    !out.Over() && o.Seats.Has(turn.Actor),
		CanDraw:   !out.Over() && o.Seats.White && o.Seats.Black,
		Watching:  !o.Seats.White && !o.Seats.Black,
		BothSeats: o.Seats.White && o.Seats.Black,
		FEN:       g.FEN(),
		Steps:     stepsAt(o, played(g), played(g)),
		Announce:  o.Announce,

		StartComment: g.Comment(0),
		BranchPly:    -1,
	}
	if m.Announce == "" {
		m.Announce = announceLast(recent, out)
	}
	if c := o.Computer; c != nil {
		m.VsComputer = o.Seats.Has(c.Side.Other())
		m.Thinking = !out.Over() && turn.Actor == c.Side
		// A side acts at most twice in a row (a move, then a ban), so the
		// last three plies hold the human's last one, if any.
		m.CanUndo = m.VsComputer && (out.Reason == rules.Resignation || playedBy(g.HistorySince(played(g)-3), c.Side.Other()))
	}
	ban, hasBan := g.Ban()
	switch {
	case out.Over():
		m.Phase = "over"
		m.Status = fmt.Sprintf("Ply %d · Game over", g.Ply())
		m.Banner = Banner(out)
		m.Hint = "Browse the history, undo, or start a new game."
	case turn.Phase == rules.PhaseBan:
		m.Phase = "ban"
		m.Status = fmt.Sprintf("Ply %d · %s bans a %s move", g.Ply(), turn.Actor.Name(), turn.ToMove.Name())
		m.Hint = fmt.Sprintf("%s: pick one of %s's pieces, then the square it may not go to.", turn.Actor.Name(), turn.ToMove.Name())
	default:
		m.Phase = "move"
		m.Status = fmt.Sprintf("Ply %d · %s to move", g.Ply(), turn.Actor.Name())
		if g.InCheck() {
			m.Status += " (in check)"
		}
		if hasBan {
			m.Status += " — " + arrowPair(ban) + " is banned"
		}
		m.Hint = fmt.Sprintf("%s: pick one of your pieces, then its destination.", turn.Actor.Name())
	}
	m.Title = title(m.Variant, turn.Actor.Name(), turn.Phase.String(), out)
	m.Sound = soundOf(recent, out)
	switch {
	case out.Over() && !m.BothSeats:
		m.Hint = "Browse the history, or start a new game."
	case m.Thinking:
		m.Hint = fmt.Sprintf("The computer (level %d) is thinking…", o.Computer.Level)
	case !out.Over() && !m.CanAct:
		m.Hint = fmt.Sprintf("Waiting for %s to %s.", turn.Actor.Name(), turn.Phase)
	}

	var dests destMap
	if m.CanAct {
		dests = destinations(g.Legal())
	}
	if m.MustPass = dests.pass; m.MustPass {
		m.Hint = fmt.Sprintf("Partial checkmate: no move frees a king of %s in check, so %s passes.", turn.Actor.Name(), turn.Actor.Name())
	}
	switch {
	case o.Seats.White && o.Seats.Black:
		m.ResignSide, m.ResignName = turn.Actor.String(), turn.Actor.Name()
	case o.Seats.White:
		m.ResignSide, m.ResignName = "white", "White"
	case o.Seats.Black:
		m.ResignSide, m.ResignName = "black", "Black"
	}
	bottom := bottomSide(o, out.Over(), turn.Actor)
	pos := g.Position()
	var banPtr *rules.Pair
	if last, ok := g.LastAction(); ok && last.Phase == rules.PhaseBan {
		p := last.Pair()
		banPtr = &p
	} else if hasBan {
		banPtr = &ban
	}
	m.Board = board(&pos, bottom, banPtr, last, g.CheckedKings(&pos), g.Variant().Board().ExtraSquares())
	m.Board.ReadOnly = m.Watching || !out.Over() && !m.CanAct
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
		m.BranchPly, m.Branches = played(g), branches(o.Variants, g.Variant())
	}
	return m
}

// bottomSide is the side shown at the bottom of the board: the actor's
// with auto-flip in a game not over, Black's for a viewer who holds only
// Black's seat, else White's; turned round with Flip.
func bottomSide(o Options, over bool, actor rules.Color) rules.Color {
	bottom := rules.White
	switch {
	case o.Auto && !over:
		bottom = actor
	case o.Seats.Black && !o.Seats.White:
		bottom = rules.Black
	}
	if o.Flip {
		bottom = bottom.Other()
	}
	return bottom
}

// NewHistoryView describes the board after the first index plies of g
// (0: the start position), read-only.
func NewHistoryView(g *rules.Game, index int, o Options) (Game, error) {
	hist := g.History()
	if index < 0 || index > len(hist) {
		return Game{}, fmt.Errorf("no ply %d: this game has %d", index, len(hist))
	}
	m := Game{
		Paths:   pathsOf(o),
		Opts:    o,
		Variant: g.Variant().Name(),
		Bans:    g.Variant().HasBans(),
		Phase:   "view",
		History: historyRows(g, index),
		Steps:   stepsAt(o, index, len(hist)),
		Over:    g.Outcome().Over(),
		CanUndo: false,

		StartComment: g.Comment(0),
		BranchPly:    index,
		Branches:     branches(o.Variants, g.Variant()),
	}
	var pos rules.Position
	var ban *rules.Pair
	var last *rules.Pair
	caption := "Start position"
	if index == 0 {
		start, err := rules.FromFEN(g.StartFEN(), g.Variant())
		if err != nil {
			return Game{}, fmt.Errorf("start position: %w", err)
		}
		pos = start.Position()
		m.FEN = start.FEN()
		if b, ok := start.Ban(); ok {
			ban = &b
		}
	} else {
		p := hist[index-1]
		pos = p.Position
		m.FEN = p.FEN()
		caption = fmt.Sprintf("After ply %d: %s", p.Ply, describe(p))
		if p.Action.Phase == rules.PhaseBan {
			b := p.Action.Pair()
			ban = &b
		}
		for i := index - 1; i >= 0; i-- {
			if hist[i].Action.Phase == rules.PhaseMove {
				b := hist[i].Action.Pair()
				last = &b
				break
			}
		}
	}
	m.Status = caption
	m.Title = fmt.Sprintf("Ply %d of %d · %s", index, len(hist), m.Variant)
	m.Hint = "A read-only view of the game. To go on from this position, start a new game from it below (Play from here); the game itself stays as it is."
	m.View = &HistoryView{Index: index, Last: len(hist), Caption: caption, Ply: g.StartPly() + index}
	bottom := rules.White
	if o.Flip {
		bottom = rules.Black
	}
	m.Board = board(&pos, bottom, ban, last, g.CheckedKings(&pos), g.Variant().Board().ExtraSquares())
	m.Board.ReadOnly = true
	m.Preview = newPreview(g, o, o.Base+"/history/"+strconv.Itoa(index), caption, m.FEN, last, m.Board.Flipped)
	return m, nil
}

// Banner describes a finished game: "Checkmate by ban — White wins, 1-0".
func Banner(o rules.Outcome) string {
	win := ""
	if o.Winner != 0 {
		win = fmt.Sprintf(" — %s wins, %s", o.Winner.Name(), o.Result())
	}
	switch o.Status {
	case rules.Checkmate:
		switch o.Reason {
		case rules.ByBan:
			return "Checkmate by ban" + win
		case rules.KingCapture:
			return "The last king captured" + win
		}
		return "Checkmate" + win
	case rules.Stalemate:
		if o.Reason == rules.ByBan {
			return "Stalemate by ban — draw, 1/2-1/2"
		}
		return "Stalemate — draw, 1/2-1/2"
	case rules.Resigned:
		return o.Winner.Other().Name() + " resigns" + win
	case rules.TimeForfeit:
		return o.Winner.Other().Name() + " ran out of time" + win
	case rules.Draw:
		switch o.Reason {
		case rules.ThreefoldRepetition:
			return "Draw by threefold repetition, 1/2-1/2"
		case rules.FiftyMoveRule:
			return "Draw by the fifty-move rule, 1/2-1/2"
		case rules.InsufficientMaterial:
			return "Draw by insufficient material, 1/2-1/2"
		case rules.Agreement:
			return "Draw by agreement, 1/2-1/2"
		case rules.Timeout:
			return "Draw: time ran out, but the other side cannot mate, 1/2-1/2"
		}
		return "Draw, 1/2-1/2"
	}
	return ""
}

// destSet is the destinations of one square at this ply, in the order of
// their names, and which of them a move promotes on.
type destSet struct {
	from     rules.Square
	to       []rules.Square
	promotes []bool
}

// has reports whether s is one of the destinations.
func (d destSet) has(s rules.Square) bool { return slices.Contains(d.to, s) }

// destMap is the legal actions grouped by their from square; pass says
// one of them is EN-Chess's pass (from no square).
type destMap struct {
	sets []destSet
	pass bool
}

// destinations groups legal actions, sorted as rules.Game.Legal sorts them
// (by from, then to), by their from square. The groups share two arrays.
func destinations(legal []rules.Action) destMap {
	d := destMap{sets: make([]destSet, 0, 16)}
	to := make([]rules.Square, 0, len(legal))
	promotes := make([]bool, 0, len(legal))
	start := make([]int, 0, 16) // where each group's destinations begin
	for _, a := range legal {
		if a.From == rules.NoSquare {
			d.pass = true
			continue
		}
		p := a.Phase == rules.PhaseMove && a.Promotion != 0
		if n := len(d.sets); n == 0 || d.sets[n-1].from != a.From {
			d.sets = append(d.sets, destSet{from: a.From})
			start = append(start, len(to))
		} else if to[len(to)-1] == a.To { // a pair's other promotions
			promotes[len(to)-1] = promotes[len(to)-1] || p
			continue
		}
		to, promotes = append(to, a.To), append(promotes, p)
	}
	for i := range d.sets {
		end := len(to)
		if i+1 < len(start) {
			end = start[i+1]
		}
		d.sets[i].to, d.sets[i].promotes = to[start[i]:end:end], promotes[start[i]:end:end]
	}
	return d
}

// of returns the destinations of square s, if it has any.
func (d destMap) of(s rules.Square) (destSet, bool) {
	for _, set := range d.sets {
		if set.from == s {
			return set, true
		}
	}
	return destSet{}, false
}

// String writes the squares that can be picked and their destinations
// as Board.Dests does: "e2:e3,e4 g1:f3,h3".
func (d destMap) String() string {
	n := 0
	for _, set := range d.sets {
		n += 4 + 3*len(set.to)
	}
	b := make([]byte, 0, n)
	for i, set := range d.sets {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, set.from.String()...)
		b = append(b, ':')
		for j, s := range set.to {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, s.String()...)
		}
	}
	return string(b)
}

// mark records on b the squares that can be picked, with their
// destinations, and marks the square sel picked (rules.NoSquare for none)
// with where it can go.
func (d destMap) mark(b *Board, sel rules.Square) {
	b.Dests = d.String()
	picked, ok := d.of(sel)
	if !ok {
		return
	}
	for i := range b.Squares {
		sq := &b.Squares[i]
		if sq.at == sel {
			sq.marks |= selected
		}
		if j := slices.Index(picked.to, sq.at); j >= 0 {
			sq.marks |= dest
			if picked.promotes[j] {
				sq.marks |= promo
			}
			if sq.piece != rules.NoPiece {
				sq.marks |= capture
			}
		}
	}
}

// board lays out pos with bottom's side nearest the viewer; the board's
// extra squares (EN-Chess's x squares, x9 above and x0 below) follow the
// 64, the top one first.
func board(pos *rules.Position, bottom rules.Color, ban, last *rules.Pair, checked []rules.Square, extra []rules.Square) Board {
	b := Board{Flipped: bottom == rules.Black, Squares: make([]Square, 0, rules.X9+1)}
	mark := func(s rules.Square) marks {
		var m marks
		if slices.Contains(checked, s) {
			m |= check
		}
		if ban != nil && s == ban.From {
			m |= banFrom
		}
		if ban != nil && s == ban.To {
			m |= banTo
		}
		if last != nil && s == last.From {
			m |= lastFrom
		}
		if last != nil && s == last.To {
			m |= lastTo
		}
		return m
	}
	for row := 0; row < 8; row++ {
		for col := 0; col < 8; col++ {
			s := displaySquare(row, col, b.Flipped)
			sq := Square{at: s, piece: pos.Board[s], marks: mark(s)}
			if s.Light() {
				sq.marks |= light
			}
			if col == 0 {
				sq.marks |= rankAt
			}
			if row == 7 {
				sq.marks |= fileAt
			}
			b.Squares = append(b.Squares, sq)
		}
	}
	top, under := rules.X9, rules.X0
	if b.Flipped {
		top, under = under, top
	}
	for _, x := range []struct {
		at    rules.Square
		place marks
	}{{top, xTop}, {under, xBottom}} {
		if slices.Contains(extra, x.at) {
			b.Squares = append(b.Squares, Square{at: x.at, piece: pos.Board[x.at], marks: x.place | mark(x.at)&^(banFrom|banTo)})
		}
	}
	if ban != nil {
		c1, r1 := displayXY(ban.From, b.Flipped)
		c2, r2 := displayXY(ban.To, b.Flipped)
		b.Arrow = &Arrow{X1: centre(c1), Y1: centre(r1), X2: centre(c2), Y2: centre(r2)}
	}
	return b
}

// squareLabels are the squares' labels, "e4, white pawn" or "e4, empty",
// by square and piece: read only (a board has 64, every page and delta).
var squareLabels = func() (t [rules.X9 + 1][32]string) {
	for s := range t {
		for p := range t[s] {
			if name := rules.Piece(p).String(); name != "" {
				t[s][p] = rules.Square(s).String() + ", " + name
			}
		}
	}
	return t
}()

func displaySquare(row, col int, flipped bool) rules.Square {
	if flipped {
		return rules.SquareAt(7-col, row)
	}
	return rules.SquareAt(col, 7-row)
}

// displayXY returns the display column and row of s (0–7 from the top
// left).
func displayXY(s rules.Square, flipped bool) (col, row int) {
	if flipped {
		return 7 - s.File(), s.Rank()
	}
	return s.File(), 7 - s.Rank()
}

// centre is the middle of display column or row v in board units.
func centre(v int) string { return strconv.FormatFloat(float64(v)+0.5, 'f', 1, 64) }

// played is how many plies g has played since its start position.
func played(g *rules.Game) int { return g.Ply() - g.StartPly() }

// lastMove is the from→to of the last move played, if any. A move is
// among the last few plies but for a game's first (a ban and a move
// alternate): only then is the whole history read.
func lastMove(g *rules.Game) *rules.Pair {
	n := played(g)
	if last := lastMoveIn(g.HistorySince(n - 4)); last != nil || n <= 4 {
		return last
	}
	return lastMoveIn(g.History())
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

// promotion is the picker for the pawn move from→to: the pieces the legal
// moves promote to and, in EN-Chess, staying a pawn (letter p).
func promotion(g *rules.Game, from, to rules.Square, c rules.Color) *Promotion {
	p := &Promotion{From: from.String(), To: to.String(), Color: c.String()[:1]}
	var kinds []rules.PieceKind
	for _, a := range g.Legal() {
		if a.From == from && a.To == to {
			kinds = append(kinds, a.Promotion)
		}
	}
	for _, k := range []rules.PieceKind{rules.Queen, rules.Rook, rules.Bishop, rules.Knight, rules.King, rules.Auror, 0} {
		if !slices.Contains(kinds, k) {
			continue
		}
		choice := PromotionChoice{Letter: strings.ToLower(string(k.Letter())), Piece: rules.NewPiece(c, k).Code(), Name: k.String()}
		if k == 0 {
			choice = PromotionChoice{Letter: "p", Piece: rules.NewPiece(c, rules.Pawn).Code(), Name: "pawn (stay)"}
		}
		p.Choices = append(p.Choices, choice)
	}
	return p
}

// historyRows numbers the plies as moves, each ban before the move it
// restricted; current marks the ply a history view shows (-1 for none).
func historyRows(g *rules.Game, current int) []HistoryRow {
	return rows(g.History(), 0, g.StartPosition().Fullmove, current)
}

// markNow marks the last ply of the game page's history as the one shown
// (aria-current), though not highlighted as a past ply's view is.
func markNow(r []HistoryRow) []HistoryRow {
	if n := len(r); n > 0 {
		last := &r[n-1]
		side := last.Black
		if len(side) == 0 || len(last.White) > 0 && last.White[len(last.White)-1].Index > side[len(side)-1].Index {
			side = last.White
		}
		side[len(side)-1].Now = true
	}
	return r
}

// rows is historyRows for the plies hist, the first of which is ply index
// first+1 of the game (history indexes count from 1), played from a
// position whose fullmove number is fullmove.
func rows(hist []rules.PlyInfo, first, fullmove, current int) []HistoryRow {
	if len(hist) == 0 {
		return nil
	}
	var rows []HistoryRow
	for i, p := range hist {
		side := p.Actor // the side whose move this ply is or restricts
		if p.Action.Phase == rules.PhaseBan {
			side = p.Actor.Other()
		}
		num := fullmove
		if i > 0 {
			num = hist[i-1].Position.Fullmove
		}
		if len(rows) == 0 || rows[len(rows)-1].Number != num {
			rows = append(rows, HistoryRow{Number: num})
		}
		index := first + i + 1
		item := HistoryItem{Index: index, Ban: p.Action.Phase == rules.PhaseBan, Current: index == current}
		item.Title = "Ply " + strconv.Itoa(p.Ply) + ": " + describe(p)
		item.Comment = p.Comment
		if item.Ban {
			item.Text = dashPair(p.Action.Pair())
		} else {
			item.Text = p.SAN
		}
		r := &rows[len(rows)-1]
		if side == rules.White {
			r.White = append(r.White, item)
		} else {
			r.Black = append(r.Black, item)
		}
	}
	return rows
}

// describe says what a ply did: "Black banned e2–e4", "White played d4".
func describe(p rules.PlyInfo) string {
	if p.Action.Phase == rules.PhaseBan {
		return p.Actor.Name() + " banned " + dashPair(p.Action.Pair())
	}
	return p.Actor.Name() + " played " + p.SAN
}

// announceLast says what the last ply of hist did, and how the game ended
// (o) if it has.
func announceLast(hist []rules.PlyInfo, o rules.Outcome) string {
	if len(hist) == 0 {
		return ""
	}
	s := describe(hist[len(hist)-1])
	if o.Over() {
		s += ". " + Banner(o)
	}
	return s
}

// title is the tab's title: whose turn and what to do, or how the game
// ended ("Black to ban · Ban Chess", "Checkmate · 1-0").
func title(variant, actor, phase string, o rules.Outcome) string {
	if !o.Over() {
		return actor + " to " + phase + " · " + variant
	}
	end := "Draw"
	switch o.Status {
	case rules.Checkmate:
		end = "Checkmate"
	case rules.Stalemate:
		end = "Stalemate"
	case rules.Resigned:
		end = o.Winner.Other().Name() + " resigns"
	}
	return end + " · " + o.Result()
}

// soundOf names the sound of the last ply of hist: the end of the game,
// a ban, a check, a capture or a plain move ("" before the first ply).
func soundOf(hist []rules.PlyInfo, o rules.Outcome) string {
	if len(hist) == 0 {
		return ""
	}
	last := hist[len(hist)-1]
	switch {
	case o.Over():
		return "end"
	case last.Action.Phase == rules.PhaseBan:
		return "ban"
	case strings.ContainsAny(last.SAN, "+#"):
		return "check"
	case strings.Contains(last.SAN, "x"):
		return "capture"
	}
	return "move"
}

// TookBack announces an undone ply.
func TookBack(p rules.PlyInfo) string { return "Took back: " + describe(p) }

func dashPair(p rules.Pair) string  { return p.From.String() + "–" + p.To.String() }
func arrowPair(p rules.Pair) string { return p.From.String() + "→" + p.To.String() }

// PieceURL is the image of a piece code such as "wP".
func PieceURL(code, asset string) string { return "/static/pieces/" + code + ".svg?v=" + asset }

// StaticURL is the versioned URL of an asset.
func StaticURL(name, asset string) string { return "/static/" + name + "?v=" + asset }

// appendSquareClass writes a square's CSS classes.
func appendSquareClass(b []byte, sq Square) []byte {
	b = append(b, "sq"...)
	switch {
	case sq.has(xTop):
		b = append(b, " xsq x-top"...)
	case sq.has(xBottom):
		b = append(b, " xsq x-bottom"...)
	case sq.has(light):
		b = append(b, " light"...)
	default:
		b = append(b, " dark"...)
	}
	for _, f := range squareClasses {
		if sq.has(f.mark) {
			b = append(b, f.class...)
		}
	}
	return b
}

// squareClasses are the classes of a square's marks, in the order they
// are written: read only.
var squareClasses = [...]struct {
	mark  marks
	class string
}{
	{selected, " selected"}, {dest, " dest"}, {capture, " capture"}, {promo, " promo"},
	{banFrom, " ban-from"}, {banTo, " ban-to"}, {lastFrom, " last-from"}, {lastTo, " last-to"},
	{check, " check"},
}

// historyClass lists a history item's CSS classes.
func historyClass(it HistoryItem) string {
	c := "move"
	if it.Ban {
		c = "ban"
	}
	if it.Current {
		c += " current"
	}
	return c
}

// historyLinks is what every history link of a page shares: the path
// before the ply index and the query after it, worked out once.
type historyLinks struct{ prefix, query string }

// historyQuery returns the history links of the game o shows.
func historyQuery(o Options) historyLinks {
	return historyLinks{prefix: o.Base + "/history/", query: o.query()}
}

// HistoryPath is the address of the read-only view of the game o shows
// after index plies, with o's orientation and extra query pairs.
func HistoryPath(o Options, index int, extra ...string) string {
	return o.Base + "/history/" + strconv.Itoa(index) + o.query(extra...)
}

// historyURL is the read-only view after index plies.
func historyURL(index int, h historyLinks) templ.SafeURL {
	return templ.SafeURL(h.prefix + strconv.Itoa(index) + h.query)
}

// selName is the square picked on the board, "" for none.
func selName(o Options) string {
	if o.Sel.Valid() {
		return o.Sel.String()
	}
	return ""
}

// gameID is the id of the game o shows.
func gameID(o Options) string { return strings.TrimPrefix(o.Base, "/g/") }

// actionURL is the path of one of the game's forms, such as "ply".
func actionURL(o Options, action string) string { return o.Base + "/" + action }

// editPath opens the position g shows in the board editor: the game's now,
// or its history view's.
func editPath(g Game) string {
	if g.View != nil {
		return g.Opts.Base + "/history/" + strconv.Itoa(g.View.Index) + "/edit"
	}
	return g.Opts.Base + "/edit"
}

// flipURL and autoURL toggle the orientation; turning one off says so
// (flip=0), as the server remembers the choice.
func flipURL(o Options) string {
	o.Flip = !o.Flip
	if !o.Flip {
		return o.Query("flip", "0")
	}
	return o.Query()
}

func autoURL(o Options) string {
	o.Auto = !o.Auto
	if !o.Auto {
		return o.Query("auto", "0")
	}
	return o.Query()
}

// Table is a game between two players around its board: the seats, the
// clock, the offers, the invite. Nil for a hot-seat game.
type Table struct {
	// InviteURL is the link that gives the free seat, shown to the creator
	// while the seat is free ("" once it is taken).
	InviteURL string
	// SeatTaken says the viewer opened the invite link of a game whose
	// seats were both taken.
	SeatTaken bool
	// Mine is the viewer's side, "white" or "black" ("" for a spectator).
	Mine    string
	Players []Player // White, then Black
	// Clocked says the game has a clock; TimeControl is its setting ("5+3").
	Clocked     bool
	TimeControl string
	// Offers pending, each "white", "black" or "" (none).
	TakebackBy, DrawBy, RematchBy string
	// RematchURL is the rematch game, once accepted.
	RematchURL string
	// Spectators counts the viewers watching live who hold no seat.
	Spectators int
	// OfferURL and AnswerURL are the forms that make and answer offers.
	OfferURL, AnswerURL templ.SafeURL
}

// Player is one seat at a table.
type Player struct {
	Side, Name string // "white", "White"
	Seated     bool   // someone holds the seat
	You        bool   // the viewer holds it
	Connected  bool   // its holder watches the game live now
	// ClockMS is the time left in milliseconds; Running says it runs now.
	ClockMS int64
	Clock   string // "4:59"
	Running bool
}

// ClockText writes a time left as m:ss, or s.t under ten seconds.
func ClockText(ms int64) string {
	if ms < 0 {
		ms = 0
	}
	if ms < 10_000 {
		return fmt.Sprintf("0:%02d.%d", ms/1000, ms%1000/100)
	}
	s := (ms + 999) / 1000
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// Waiting reports whether the viewer plays this game and waits for the
// other side (to join, to act or to answer a rematch, or the computer to
// think): a page without
// JavaScript then refreshes itself.
func (g Game) Waiting() bool {
	if g.VsComputer {
		return g.Thinking && g.View == nil
	}
	t := g.Opts.Table
	if t == nil || t.Mine == "" || g.View != nil {
		return false
	}
	if g.Over {
		return t.RematchBy == t.Mine && t.RematchURL == ""
	}
	return !g.CanAct
}

// playedBy reports whether side played any ply of hist.
func playedBy(hist []rules.PlyInfo, side rules.Color) bool {
	for _, p := range hist {
		if p.Actor == side {
			return true
		}
	}
	return false
}

// Levels lists the computer's levels, weakest first.
func Levels() []int { return []int{1, 2, 3, 4, 5, 6, 7, 8} }

// TimeControls lists the clocks a page offers a game with a friend
// (minutes+seconds of increment).
func TimeControls() []string { return []string{"3+2", "5+3", "10+5", "15+10"} }

func boolAttr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// promotionClass places the picker over its square: "col-4", or "col-x"
// for an x square.
func promotionClass(p *Promotion) string {
	if p.Col < 0 {
		return "col-x"
	}
	return "col-" + strconv.Itoa(p.Col)
}

// boardSizes lists the board size setting's choices, largest first.
func boardSizes() []int {
	var out []int
	for n := 100; n >= SizeMin; n -= SizeStep {
		out = append(out, n)
	}
	return out
}

// boardLabel names the board for screen readers, with how to play it.
func boardLabel(g Game) string {
	side := "White"
	if g.Board.Flipped {
		side = "Black"
	}
	if g.Board.ReadOnly {
		return "Chessboard, " + side + " at the bottom"
	}
	return "Chessboard, " + side + " at the bottom: arrow keys move between squares, Enter picks, Escape cancels"
}
