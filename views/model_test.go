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

func TestBanner(t *testing.T) {
	for _, tc := range []struct {
		o    rules.Outcome
		want string
	}{
		{rules.Outcome{Status: rules.Checkmate, Reason: rules.ByBan, Winner: rules.White}, "Checkmate by ban — White wins, 1-0"},
		{rules.Outcome{Status: rules.Checkmate, Reason: rules.ByMove, Winner: rules.Black}, "Checkmate — Black wins, 0-1"},
		{rules.Outcome{Status: rules.Stalemate, Reason: rules.ByBan}, "Stalemate by ban — draw, 1/2-1/2"},
		{rules.Outcome{Status: rules.Draw, Reason: rules.ThreefoldRepetition}, "Draw by threefold repetition, 1/2-1/2"},
		{rules.Outcome{Status: rules.Draw, Reason: rules.FiftyMoveRule}, "Draw by the fifty-move rule, 1/2-1/2"},
		{rules.Outcome{Status: rules.Draw, Reason: rules.InsufficientMaterial}, "Draw by insufficient material, 1/2-1/2"},
		{rules.Outcome{Status: rules.Resigned, Reason: rules.Resignation, Winner: rules.White}, "Black resigns — White wins, 1-0"},
		{rules.Outcome{Status: rules.TimeForfeit, Reason: rules.Timeout, Winner: rules.White}, "Black ran out of time — White wins, 1-0"},
		{rules.Outcome{Status: rules.Draw, Reason: rules.Timeout}, "Draw: time ran out, but the other side cannot mate, 1/2-1/2"},
		{rules.Outcome{}, ""},
	} {
		if got := Banner(tc.o); got != tc.want {
			t.Errorf("Banner(%v) = %q, want %q", tc.o, got, tc.want)
		}
	}
}

func TestHistoryRowsPutBansBeforeTheirMoves(t *testing.T) {
	g, err := rules.Replay(rules.BanChess{}, "", []string{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:g1f3"})
	if err != nil {
		t.Fatal(err)
	}
	rows := historyRows(g, -1)
	if len(rows) != 2 || rows[0].Number != 1 || rows[1].Number != 2 {
		t.Fatalf("rows %+v", rows)
	}
	var got []string
	for _, r := range rows {
		for _, it := range append(r.White, r.Black...) {
			got = append(got, it.Text)
		}
	}
	if want := "e2–e4 d4 e7–e5 d5 g1–f3"; strings.Join(got, " ") != want {
		t.Errorf("history %q, want %q", strings.Join(got, " "), want)
	}
	// A game starting with Black to move opens with "…" for White.
	g, err = rules.FromFEN("4k3/8/8/8/8/8/4P3/4K3 b - - 0 7", rules.BanChess{})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.PlayText("b:e8d8"); err != nil {
		t.Fatal(err)
	}
	rows = historyRows(g, -1)
	if len(rows) != 1 || rows[0].Number != 7 || len(rows[0].White) != 0 || len(rows[0].Black) != 1 {
		t.Errorf("rows %+v", rows)
	}
}

func TestBoardOrientation(t *testing.T) {
	g := rules.New(rules.BanChess{})
	for _, tc := range []struct {
		o           Options
		first, last string
	}{
		{NoSelection(), "a8", "h1"},
		{Options{Flip: true, Sel: rules.NoSquare, PromoTo: rules.NoSquare}, "h1", "a8"},
		{Options{Auto: true, Sel: rules.NoSquare, PromoTo: rules.NoSquare}, "h1", "a8"}, // Black bans first
		{Options{Auto: true, Flip: true, Sel: rules.NoSquare, PromoTo: rules.NoSquare}, "a8", "h1"},
	} {
		sq := NewGame(g, Info{}, tc.o).Board.Squares
		if sq[0].Name() != tc.first || sq[63].Name() != tc.last {
			t.Errorf("%+v: board runs %s…%s, want %s…%s", tc.o, sq[0].Name(), sq[63].Name(), tc.first, tc.last)
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

// TestHotEscapes checks the Go-written square and history link escape what
// they write that is not theirs (a square's name and label come from
// tables; the asset version and the ply's URL are given).
func TestHotEscapes(t *testing.T) {
	evil := `"><script>alert(1)</script>&`
	var buf bytes.Buffer
	sq := Square{at: rules.SquareAt(4, 1), piece: rules.NewPiece(rules.White, rules.Pawn), marks: rankAt | fileAt}
	for _, ro := range []bool{false, true} {
		for _, m := range []marks{0, dest} {
			sq.marks = sq.marks&^dest | m
			if err := square(sq, ro, evil, evil, m != 0).Render(context.Background(), &buf); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := historyItem(HistoryItem{Index: 3, Text: evil, Title: evil, Ban: true}, historyLinks{evil, evil}).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); strings.Contains(out, "<script>") || strings.Contains(out, `"><script`) || !strings.Contains(out, "&#34;&gt;&lt;script") {
		t.Errorf("unescaped value in\n%s", out)
	}
}

// TestPermissionsShapeThePage checks the page renders what the viewer may
// do: a spectator gets a read-only board, no controls that act and a
// note; one seat plays only its own turn and resigns for itself; both
// seats play every turn, resign for the side to act and may undo and
// agree a draw.
func TestPermissionsShapeThePage(t *testing.T) {
	g := rules.New(rules.BanChess{}) // ply 1: Black bans
	for _, tc := range []struct {
		name              string
		seats             games.Seats
		readOnly, flipped bool
		resign            string // the resign form's side
		forms             []string
		watching          bool
	}{
		{"spectator", games.Seats{}, true, false, "", nil, true},
		{"white only", games.Seats{White: true}, true, false, "white", []string{"resign"}, false},
		{"black only", games.Seats{Black: true}, false, true, "black", []string{"ply", "resign"}, false},
		{"hot seat", hotSeat, false, false, "black", []string{"ply", "undo", "resign", "draw"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := NewGame(g, seated(g, tc.seats), NoSelection())
			if m.Board.ReadOnly != tc.readOnly || m.Board.Flipped != tc.flipped || (m.Board.Dests != "") == tc.readOnly {
				t.Errorf("board read-only %v, flipped %v, squares to pick %q", m.Board.ReadOnly, m.Board.Flipped, m.Board.Dests)
			}
			var buf bytes.Buffer
			if err := Page(m).Render(context.Background(), &buf); err != nil {
				t.Fatal(err)
			}
			page := buf.String()
			for _, form := range []string{"ply", "undo", "resign", "draw"} {
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

func TestGameURL(t *testing.T) {
	for _, tc := range []struct {
		id    string
		o     Options
		extra []string
		want  string
	}{
		{"", Options{}, nil, "/"},
		{"abc", Options{}, nil, "/g/abc"},
		{"abc", Options{Flip: true}, []string{"sel", "e2"}, "/g/abc?flip=1&sel=e2"},
		{"abc", Options{Auto: true}, []string{"sel", ""}, "/g/abc?auto=1"},
	} {
		if got := tc.o.GameURL(tc.id, tc.extra...); got != tc.want {
			t.Errorf("%+v.GameURL(%q, %q) = %q, want %q", tc.o, tc.id, tc.extra, got, tc.want)
		}
	}
	if got := historyURL(3, historyQuery("abc", Options{Flip: true})); got != "/g/abc/history/3?flip=1" {
		t.Errorf("historyURL = %q", got)
	}
	if got := (Options{Auto: true}).HistoryURL("abc", 0, "notice", "chess"); got != "/g/abc/history/0?auto=1&notice=chess" {
		t.Errorf("HistoryURL = %q", got)
	}
}

func TestMiniBoardDrawsEverySquare(t *testing.T) {
	var buf bytes.Buffer
	if err := MiniBoard("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR").Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := strings.Count(out, "<i "); n != 64 {
		t.Errorf("%d squares, want 64", n)
	}
	if strings.Count(out, "♙") != 8 || strings.Count(out, "♟") != 8 || !strings.HasPrefix(out, `<span class="mini-board"`) {
		t.Errorf("unexpected board %s", out)
	}
	buf.Reset()
	if err := MiniBoard("9/x/<script>").Render(context.Background(), &buf); err != nil || strings.Contains(buf.String(), "<script") {
		t.Errorf("bad placement rendered %q (%v)", buf.String(), err)
	}
}

func TestTitleAndSound(t *testing.T) {
	mate := []string{
		"b:d2d4", "m:e2e4", "b:d7d5", "m:e7e5", "b:g1f3", "m:f1c4", "b:a7a6", "m:b8c6",
		"b:d2d4", "m:d1h5", "b:a7a6", "m:g8f6", "b:a2a3", "m:c4f7", "b:e8e7",
	}
	for _, tc := range []struct {
		line         []string
		title, sound string
	}{
		{nil, "Black to ban · Ban Chess", ""},
		{[]string{"b:e2e4"}, "White to move · Ban Chess", "ban"},
		{[]string{"b:e2e4", "m:d2d4"}, "White to ban · Ban Chess", "move"},
		{[]string{"b:a2a3", "m:e2e4", "b:a7a6", "m:d7d5", "b:a2a3", "m:e4d5"}, "White to ban · Ban Chess", "capture"},
		{[]string{"b:a2a3", "m:e2e4", "b:a7a6", "m:f7f6", "b:a2a3", "m:d1h5"}, "White to ban · Ban Chess", "check"},
		{mate, "Checkmate · 1-0", "end"},
	} {
		g, err := rules.Replay(rules.BanChess{}, "", tc.line)
		if err != nil {
			t.Fatal(err)
		}
		m := NewGame(g, Info{}, NoSelection())
		if m.Title != tc.title || m.Sound != tc.sound {
			t.Errorf("%v: title %q sound %q, want %q %q", tc.line, m.Title, m.Sound, tc.title, tc.sound)
		}
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

func TestCountGroupsDigits(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {12345, "12,345"},
		{123456, "123,456"}, {1234567, "1,234,567"}, {-123, "-123"}, {-1234, "-1,234"},
	} {
		if got := Count(tc.n); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
