package views

import (
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// Options are one request's display choices: how the viewer looks at the
// game, the square it picked, and what the request has to tell them. They
// come from the request (its form, its query, the settings cookie); what
// a page shows of the game itself comes from an Info.
type Options struct {
	// Flip turns the board round (from the player's own side, or
	// Auto's): a view of one game, carried by its links and forms, never
	// remembered for another.
	Flip bool
	Auto bool // at one board (hot seat), show the acting side at the bottom
	Mute bool // no sounds for plies (they are on by default)
	// NoPremoves turns premoves off: no queueing while the opponent acts.
	NoPremoves bool
	Size       int  // the board's size in percent of the largest that fits (SizeMin–100; 0 is 100)
	Look       Look // the board's colours and pieces
	// Lang is the viewer's language (nil: the source language, as a nil
	// *i18n.Language speaks it).
	Lang *i18n.Language
	// Notation is how the move lists write moves.
	Notation Notation

	// Sel is the square picked on the board (NoSquare for none); PromoTo,
	// with Sel, asks for the promotion picker.
	Sel, PromoTo rules.Square

	Error    string // a refused action or bad input, shown above the board
	Notice   string // an informational note, such as "loaded as a start position"
	Announce string // overrides the aria-live announcement of the last ply

	Import ImportBox // the import box after a failed import
	Export bool      // show the PGN and the share link (else a link to them)

	// JoinCode is an invite code the viewer opened the game with, which a
	// button on the page presents to take the free seat (when
	// Permissions.Join allows).
	JoinCode string
	// SeatTaken says the viewer opened an invite link whose seats were
	// both taken.
	SeatTaken bool

	// ChatError says why a line the viewer wrote was refused, and
	// ChatText what it said: the chat panel shows them.
	ChatError, ChatText string
}

// ImportBox is what the import box shows again after an import that did
// not open a game.
type ImportBox struct {
	Text, Error string
	Variant     string         // the variant chosen ("": as the text says)
	AtStart     bool           // open the imported game at its start
	Games       []ImportChoice // a PGN's games, to choose one
}

// NoSelection returns Options with no square picked.
func NoSelection() Options { return Options{Sel: rules.NoSquare, PromoTo: rules.NoSquare} }

// Site is what every page of a server shares.
type Site struct {
	Asset  string // version suffix for static URLs
	Origin string // scheme://host for absolute URLs (links to share, link previews); "": none
	// Variants are the variants the server plays, the default first
	// (VariantsOf): the new-game forms and the import box offer them.
	Variants []Variant
}

// Info is what a game's page shows of the game besides its position: its
// address and revision, what the viewer may do, who sits at it. A handler
// fills it once per request, under the game's lock (games.ViewFunc).
type Info struct {
	Site
	// ID is the game's id: its page is /g/{ID}. "" for a page of no game.
	ID string
	// Revision is the game's revision shown, which a page with JavaScript
	// follows live.
	Revision int64
	// Perm is what the viewer may do (games.Record.Permissions); its Seats
	// say which seats they hold (none: a spectator, who sees the game
	// read-only).
	Perm games.Permissions
	// Players are the game's players, White's then Black's, as the strips
	// by the board show them.
	Players [2]Player
	// Table is set for a game between two players.
	Table *Table
	// Bot is the computer's seat at a game against it; nil otherwise.
	Bot *games.Bot
	// Games lists the viewer's games, on a full page.
	Games []GameLink
	// ShareURL and PGN are the export panel's, when Options.Export shows
	// them: an absolute link reproducing the game, and its PGN with the
	// server's tags.
	ShareURL, PGN string
	// Daily is the puzzle of the day, on a full page; nil for none.
	Daily *DailyPuzzle
	// Chat is the viewer's chat room, on a full page of a game that has
	// one; nil for none.
	Chat *Chat
}

// GameLink is one of the viewer's games in their list.
type GameLink struct {
	URL     string // "/g/{id}"
	HideURL string // the form that removes it from the list
	Title   string // "Ban Chess · move 12"
	Status  string // "White to move", "1-0"
	FEN     string // the position now
	Board   string // the position's placement, as a small board (see MiniBoard)
	Current bool   // the game on this page
	// Opponent says whom the game is against: "vs Anonymous", "vs
	// Computer · level 3", "Hot seat", "Waiting for a player".
	Opponent string
	// Turn says the viewer acts next in it; Over, that it has ended (the
	// home page's last game says so).
	Turn, Over bool
	// Left is the time its side to act has left ("2 days", "4:59"), ""
	// for none (no clock, or one that does not run).
	Left string
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

// boardSizes lists the board size setting's choices, largest first.
func boardSizes() []int {
	var out []int
	for n := 100; n >= SizeMin; n -= SizeStep {
		out = append(out, n)
	}
	return out
}
