package views

import (
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

// boardSizes lists the board size setting's choices, largest first.
func boardSizes() []int {
	var out []int
	for n := 100; n >= SizeMin; n -= SizeStep {
		out = append(out, n)
	}
	return out
}
