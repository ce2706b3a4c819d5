package views

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// seated is the Info of game g for a viewer holding seats: a hot-seat game
// when they hold both, else one between two players.
func seated(g *rules.Game, seats games.Seats) Info {
	rec := games.Record{ID: "x", Game: g, Mode: games.HotSeat, White: "w", Black: "b"}
	switch {
	case seats.Both():
		rec.Black = "w"
	case seats.Any():
		rec.Mode = games.Invite
	}
	holder := "w"
	if seats.Black && !seats.White {
		holder = "b"
	}
	if !seats.Any() {
		holder = "nobody"
	}
	return Info{ID: rec.ID, Perm: rec.Permissions(seatsOf(&rec, holder))}
}

func seatsOf(rec *games.Record, holder string) games.Seats {
	w, b := rec.Seats(holder)
	return games.Seats{White: w, Black: b}
}

var hotSeat = games.Seats{White: true, Black: true}

func TestBoardOrientation(t *testing.T) {
	g := rules.New(rules.BanChess{})
	for _, tc := range []struct {
		seats       games.Seats
		o           Options
		first, last string
	}{
		{hotSeat, NoSelection(), "a8", "h1"},
		{hotSeat, Options{Flip: true, Sel: rules.NoSquare, PromoTo: rules.NoSquare}, "h1", "a8"},
		{hotSeat, Options{Auto: true, Sel: rules.NoSquare, PromoTo: rules.NoSquare}, "h1", "a8"}, // Black bans first
		{hotSeat, Options{Auto: true, Flip: true, Sel: rules.NoSquare, PromoTo: rules.NoSquare}, "a8", "h1"},
		// Auto-flip is for one board: a player sees their own side, a
		// spectator White's.
		{games.Seats{White: true}, Options{Auto: true, Sel: rules.NoSquare, PromoTo: rules.NoSquare}, "a8", "h1"},
		{games.Seats{Black: true}, Options{Auto: true, Sel: rules.NoSquare, PromoTo: rules.NoSquare}, "h1", "a8"},
		{games.Seats{Black: true}, Options{Flip: true, Sel: rules.NoSquare, PromoTo: rules.NoSquare}, "a8", "h1"},
		{games.Seats{}, Options{Auto: true, Sel: rules.NoSquare, PromoTo: rules.NoSquare}, "a8", "h1"},
	} {
		sq := NewGame(g, seated(g, tc.seats), tc.o).Board.Squares
		if sq[0].Name() != tc.first || sq[63].Name() != tc.last {
			t.Errorf("seats %+v, %+v: board runs %s…%s, want %s…%s", tc.seats, tc.o, sq[0].Name(), sq[63].Name(), tc.first, tc.last)
		}
	}
}

func TestSelectionAndPromotion(t *testing.T) {
	g, err := rules.FromFEN("k7/4P3/8/8/8/8/8/4K3 w - - 0 1 2:e1d1", rules.BanChess{})
	if err != nil {
		t.Fatal(err)
	}
	e7, _ := rules.ParseSquare("e7")
	e8, _ := rules.ParseSquare("e8")
	m := NewGame(g, seated(g, hotSeat), Options{Sel: e7, PromoTo: e8})
	if m.Promotion == nil || len(m.Promotion.Choices) != 4 || m.Promotion.Choices[0].Piece != "wQ" {
		t.Fatalf("promotion %+v", m.Promotion)
	}
	// A selection with no legal action is dropped.
	a8, _ := rules.ParseSquare("a8")
	if m := NewGame(g, seated(g, hotSeat), Options{Sel: a8, PromoTo: rules.NoSquare}); m.Opts.Sel != rules.NoSquare {
		t.Errorf("kept selection of a square with no move")
	}
	var buf bytes.Buffer
	if err := Page(m).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`data-promotion="q"`, `data-square="e8"`, `id="status"`, `id="history"`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("page lacks %s", want)
		}
	}
}

// TestCanPick: a square may be picked when the viewer may play and a
// legal action starts there, and a board keeps a picked square then
// only: one decision for the page and a plain form's redirect.
func TestCanPick(t *testing.T) {
	g := rules.New(rules.BanChess{}) // Black bans one of White's moves
	for _, tc := range []struct {
		seats games.Seats
		sq    string
		want  bool
	}{
		{hotSeat, "e2", true},
		{hotSeat, "g1", true},
		{hotSeat, "e1", false}, // the king has no move
		{hotSeat, "e7", false}, // Black's pawn: White's moves are banned
		{hotSeat, "e4", false}, // empty
		{games.Seats{Black: true}, "e2", true},
		{games.Seats{White: true}, "e2", false}, // not White's turn to act
		{games.Seats{}, "e2", false},            // a spectator
	} {
		sq, _ := rules.ParseSquare(tc.sq)
		info := seated(g, tc.seats)
		got := CanPick(g, info.Perm, sq)
		kept := NewGame(g, info, Options{Sel: sq, PromoTo: rules.NoSquare}).Opts.Sel == sq
		if got != tc.want || kept != tc.want {
			t.Errorf("seats %+v, %s: CanPick %v, the board keeps it %v; want %v", tc.seats, tc.sq, got, kept, tc.want)
		}
	}
}

// TestPermissionsShapeThePage checks the page renders what the viewer may
// do: a spectator gets a read-only board, no controls that act and a
// note; one seat plays only its own turn, may abort until each side has
// acted and resigns for itself after; both seats play every turn, resign
// for the side to act and may undo and agree a draw.
func TestPermissionsShapeThePage(t *testing.T) {
	start := rules.New(rules.BanChess{})                                            // ply 1: Black bans
	opened, err := rules.Replay(rules.BanChess{}, "", []string{"b:e2e4", "m:d2d4"}) // ply 3: White bans
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name              string
		g                 *rules.Game
		seats             games.Seats
		readOnly, flipped bool
		resign            string // the resign form's side
		forms             []string
		watching          bool
	}{
		{"spectator", start, games.Seats{}, true, false, "", nil, true},
		{"white only", start, games.Seats{White: true}, true, false, "", []string{"abort"}, false},
		{"black only", start, games.Seats{Black: true}, false, true, "", []string{"ply", "abort"}, false},
		{"white only, both acted", opened, games.Seats{White: true}, false, false, "white", []string{"ply", "resign"}, false},
		{"black only, both acted", opened, games.Seats{Black: true}, true, true, "black", []string{"resign"}, false},
		{"hot seat", start, hotSeat, false, false, "black", []string{"ply", "undo", "resign", "draw"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.g
			m := NewGame(g, seated(g, tc.seats), NoSelection())
			if m.Board.ReadOnly != tc.readOnly || m.Board.Flipped != tc.flipped || (m.Board.Dests != "") == tc.readOnly {
				t.Errorf("board read-only %v, flipped %v, squares to pick %q", m.Board.ReadOnly, m.Board.Flipped, m.Board.Dests)
			}
			var buf bytes.Buffer
			if err := Page(m).Render(context.Background(), &buf); err != nil {
				t.Fatal(err)
			}
			page := buf.String()
			for _, form := range []string{"ply", "undo", "resign", "draw", "abort"} {
				if got := strings.Contains(page, `action="/g/x/`+form+`"`); got != slices.Contains(tc.forms, form) {
					t.Errorf("form %s: %v", form, got)
				}
			}
			if got := strings.Contains(page, `name="side" value="`+tc.resign+`"`); got != (tc.resign != "") {
				t.Errorf("no resign form for %q", tc.resign)
			}
			if got := strings.Contains(page, `id="watching"`); got != tc.watching {
				t.Errorf("the spectator's note: %v", got)
			}
		})
	}
}

func TestPromotionPickerSitsOnTheSquare(t *testing.T) {
	g, err := rules.Replay(rules.BanChess{}, "k7/4P3/8/8/8/8/8/4K3 w - - 0 1 1", []string{"b:e1d1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		flip bool
		col  int
		top  bool
	}{{false, 4, true}, {true, 3, false}} {
		o := NoSelection()
		o.Flip, o.Sel, o.PromoTo = tc.flip, mustSquare(t, "e7"), mustSquare(t, "e8")
		m := NewGame(g, seated(g, hotSeat), o)
		if m.Promotion == nil || m.Promotion.Col != tc.col || m.Promotion.Top != tc.top {
			t.Errorf("flip %v: picker %+v, want column %d, top %v", tc.flip, m.Promotion, tc.col, tc.top)
		}
	}
}

func mustSquare(t *testing.T, name string) rules.Square {
	t.Helper()
	s, err := rules.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
