package rules

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestPGNWrite(t *testing.T) {
	g := New(BanChess{})
	mustPlay(t, g, "b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:g1f3", "m:c1f4", "b:h7h6")
	want := `[Event "Ban Chess game"]
[Site "banchess"]
[Date "2026.11.22"]
[Round "-"]
[White "White"]
[Black "Black"]
[Result "*"]
[Variant "Ban Chess"]

1. {banning: e2e4} d4 {banning: e7e5} d5 2. {banning: g1f3} Bf4 {banning: h7h6}
*
`
	if got := g.Record().PGN(Tag{"Date", "2026.11.22"}, Tag{"Site", "banchess"}); got != want {
		t.Errorf("PGN:\n%s\nwant:\n%s", got, want)
	}

	mate := mustFEN(t, "6k1/5pp1/8/8/8/8/8/K3R3 w - - 0 1", BanChess{})
	mustPlay(t, mate, "b:a1a2", "m:e1e8", "b:g8h7")
	pgn := mate.Record().PGN()
	for _, s := range []string{`[Result "1-0"]`, `[SetUp "1"]`, `[FEN "6k1/5pp1/8/8/8/8/8/K3R3 w - - 0 1 1"]`, "1. {banning: a1a2} Re8+ {banning: g8h7#} 1-0\n"} {
		if !strings.Contains(pgn, s) {
			t.Errorf("ban-mate PGN lacks %q:\n%s", s, pgn)
		}
	}

	black := mustFEN(t, "6k1/5pp1/8/8/8/8/8/K3R3 b - - 0 1", BanChess{})
	mustPlay(t, black, "b:g8h8", "m:g8f8", "b:a1b1")
	if !strings.Contains(black.Record().PGN(), "\n1... {banning: g8h8} Kf8 2. {banning: a1b1} *\n") {
		t.Errorf("Black-first PGN:\n%s", black.Record().PGN())
	}

	classic := New(Classic{})
	mustPlay(t, classic, "m:e2e4", "m:e7e5")
	if got := classic.Record().PGN(); strings.Contains(got, "Variant") || strings.Contains(got, "banning") || !strings.Contains(got, "\n1. e4 e5 *\n") {
		t.Errorf("classic PGN:\n%s", got)
	}
}

func TestPGNReadRealWorld(t *testing.T) {
	tests := []struct {
		name      string
		pgn       string
		fen       string // FEN after reading
		chessGame bool
		outcome   Outcome
	}{
		{
			name: "ban game with spacing variants, NAGs, glyphs, comments and a variation",
			pgn: `[Event "Casual"]
[Variant "Ban Chess"]

1.{banning: e2e4} d4! {banning: e7e5} d5 $1 {a normal comment}
2. {banning:g1f3} Bf4 (2. c4 {banning: d5c4} e6) {banning: h7h6} Nf6!? ; to the end of the line
3. {banning: e2e4} e3 *`,
			fen: "rnbqkb1r/ppp1pppp/5n2/3p4/3P1B2/4P3/PPP2PPP/RN1QKBNR b KQkq - 0 3 11",
		},
		{
			name: "trailing ban restored as the ban in force",
			pgn:  "1. {banning: e2e4} d4 {banning: e7e5} *",
			fen:  "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1 4:e7e5",
		},
		{
			name:    "ban-mate with indicator and result",
			pgn:     "[SetUp \"1\"]\n[FEN \"6k1/5pp1/8/8/8/8/8/K3R3 w - - 0 1 1\"]\n\n1. {banning: a1a2} Re8+ {banning: g8h7#} 1-0",
			fen:     "4R1k1/5pp1/8/8/8/8/8/K7 b - - 1 1 4:g8h7#",
			outcome: Outcome{Status: Checkmate, Reason: ByBan, Winner: White},
		},
		{
			name:    "castling with zeros and promotion without =",
			pgn:     "[FEN \"r3k3/1P6/8/8/8/8/8/R3K2R w KQq - 0 1\"]\n1. {banning: e1c1} 0-0 {banning: e8d8} Ke7 2. {banning: b7a8} b8Q 1/2-1/2",
			fen:     "rQ6/4k3/8/8/8/8/8/R4RK1 b - - 0 2 7=",
			outcome: Outcome{Status: Draw, Reason: Agreement},
		},
		{
			name:      "plain chess game: its moves become the start position",
			pgn:       "[Event \"Ruy\"]\n[White \"A\"]\n[Black \"B\"]\n\n1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 1-0\n",
			fen:       "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6 21",
			chessGame: true,
		},
		{
			name: "several games: the first is read",
			pgn:  "[Event \"one\"]\n1. {banning: e2e4} d4 *\n\n[Event \"two\"]\n1. {banning: d2d4} e4 *\n",
			fen:  "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1 3",
		},
		{
			name:    "resignation: a decisive result on a game in progress",
			pgn:     "1. {banning: e2e4} d4 {banning: e7e5} d5 0-1",
			fen:     "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 0 2 5",
			outcome: Outcome{Status: Resigned, Reason: Resignation, Winner: Black},
		},
		{
			name: "move numbers Black-first, escape line, BOM",
			pgn:  "\uFEFF%escaped line\n[FEN \"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1\"]\n1... {banning: e7e5} Nf6 2. {banning: c2c4} Nf3 *",
			fen:  "rnbqkb1r/pppppppp/5n2/8/3P4/5N2/PPP1PPPP/RNBQKB1R b KQkq - 2 2 7",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := FromPGN(tt.pgn, PGNOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if g.FEN() != tt.fen || g.Record().FromChessGame() != tt.chessGame || g.Outcome() != tt.outcome {
				t.Errorf("got %s (chess game %v, %+v)\nwant %s (chess game %v, %+v)", g.FEN(), g.Record().FromChessGame(), g.Outcome(), tt.fen, tt.chessGame, tt.outcome)
			}
		})
	}

	second, err := FromPGN("[Event \"one\"]\n1. {banning: e2e4} d4 *\n\n[Event \"two\"]\n1. {banning: d2d4} e4 *\n", PGNOptions{Game: 1})
	if err != nil || !slices.Equal(second.Record().Log(), []string{"b:d2d4", "e4"}) || second.Record().Tags()[0].Value != "two" {
		t.Errorf("second game: %v %v", err, second)
	}
	classic, err := FromPGN("1. e4 e5 2. Nf3 *", PGNOptions{Variant: Classic{}})
	if err != nil || classic.Ply() != 4 || classic.Record().FromChessGame() {
		t.Errorf("classic PGN: %v ply %d", err, classic.Ply())
	}
}

func TestPGNReadErrors(t *testing.T) {
	tests := []struct {
		pgn       string
		want      string
		move      int
		side      Color
		variation string // where the error is: the ply a variation replaces
	}{
		{"1. {banning: e2e4} e4 *", "PGN move 1, White: e4: e4 (e2e4) is banned this turn", 1, White, ""},
		{"1. {banning: e2e4} d4 {banning: e7e5} Nf5 *", "PGN move 1, Black: Nf5: Nf5 is not legal: no knight can reach f5", 1, Black, ""},
		{"1. {banning: e2e4} d4 {banning: e7e5} d5 2. {banning: e2e5} *", "PGN move 2, White: banning: e2e5: Black cannot ban e2e5", 2, White, ""},
		{"1. {banning: e2e4} {banning: d2d4} e3 *", "a second ban before the move", 1, White, ""},
		{"1. {banning: e2e4} d4 d5 *", "no ban comment before this move", 1, Black, ""},
		{"1. {banning: e2e4} Qz9 *", "PGN move 1, White: Qz9:", 1, White, ""},
		{"[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n1. e4", "White has 0 kings", 0, 0, ""},
		{"[Event \"x]\n1. e4", "no closing quote", 0, 0, ""},
		{"1. e4 {unclosed", "comment has no closing }", 0, 0, ""},
		{"1. e4 (1. d4 *", "variation has no closing ) before the result *", 0, 0, ""},
		{"", "no game found", 0, 0, ""},
		{"1. e4 e5 2. Nf6 *", "PGN move 2, White: Nf6: Nf6 is not legal: no knight can reach f6", 2, White, ""},
		// In variations.
		{"1. e4 e5 (1... e4) *", "PGN move 1, Black, in the variation for 1... e5: e4: e4 is not legal", 1, Black, "1... e5"},
		{"1. e4 e5 2. Nf3 (2. f4 exf4 (2... d5 3. Ke3)) *", "in the variation for 2... exf4: Ke3: Ke3 is not legal", 3, White, "2... exf4"},
		{"1. {banning: e2e4} d4 (e4) *", "in the variation for 1. d4: e4: e4 (e2e4) is banned this turn", 1, White, "1. d4"},
		{"1. {banning: e2e4} d4 ({banning: d2d4} e4) *", "in the variation for 1. d4: banning: d2d4: a second ban before the move", 1, White, "1. d4"},
		{"1. {banning: e2e4} ({banning: d2d4} e4 e5) d4 *", "in the variation for 1. {banning: e2e4}: e5: no ban comment before this move", 1, Black, "1. {banning: e2e4}"},
		{"(1. d4) 1. e4 *", "a variation before any ply of its line", 0, 0, ""},
		{"1. e4 ((1. d4)) *", "a variation before any ply of its line", 0, 0, "1. e4"},
		{"1. e4 () e5 *", "a variation without a ply", 0, 0, "1. e4"},
		{"1. e4 (1. d4 1-0) e5 *", "variation has no closing ) before the result 1-0", 0, 0, ""},
		{"1. e4 (1. d4\n[Event \"next\"]\n1. e4 *", "variation has no closing ) before the next game's tags", 0, 0, ""},
		{"1. e4 (1. d4 (1. c4)", "variation has no closing )", 0, 0, ""},
		{"1. e4 e5) *", "a variation closes that was never opened", 0, 0, ""},
		{"1. e4 $256 *", `"$256" is not a NAG`, 0, 0, ""},
		{"1. e4 $ *", `"$" is not a NAG`, 0, 0, ""},
		{"1. e4!!! *", `"!!!" is not an annotation`, 0, 0, ""},
		{"1. e4 ?? ! ?!? *", `"?!?" is not an annotation`, 0, 0, ""},
	}
	for _, tt := range tests {
		_, err := FromPGN(tt.pgn, PGNOptions{})
		var pe *PGNError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.want) || pe.MoveNumber != tt.move || pe.Side != tt.side || pe.Variation != tt.variation {
			t.Errorf("FromPGN(%q):\n got %v\nwant %q (move %d, %s, variation %q)", tt.pgn, err, tt.want, tt.move, tt.side.Name(), tt.variation)
		}
	}
	if _, err := FromPGN("1. e4 *", PGNOptions{Game: 3}); err == nil {
		t.Error("asking for game 4 of 1 succeeded")
	}
}

// TestPGNRoundTrip writes every reference game as PGN, reads it back and
// compares history, FEN and outcome.
func TestPGNRoundTrip(t *testing.T) {
	for _, ref := range raceSample(loadRefGames(t)) {
		if ref.Start == illegalRefStart {
			continue
		}
		g := ref.played(t)
		pgn := g.Record().PGN()
		back, err := FromPGN(pgn, PGNOptions{})
		if err != nil {
			t.Fatalf("seed %d: PGN does not read back: %v\n%s", ref.Seed, err, pgn)
		}
		if back.FEN() != g.FEN() || back.Outcome() != g.Outcome() || back.StartFEN() != g.StartFEN() ||
			!slices.Equal(back.Record().Log(), g.Record().Log()) || !slices.EqualFunc(back.Record().History(), g.Record().History(), samePly) {
			t.Fatalf("seed %d: read back as %s (%v), want %s (%v)", ref.Seed, back.FEN(), back.Outcome(), g.FEN(), g.Outcome())
		}
		if back.Record().PGN() != pgn {
			t.Fatalf("seed %d: PGN changes on a second round trip", ref.Seed)
		}
	}
}

func samePly(a, b PlyInfo) bool {
	return a.Ply == b.Ply && a.Actor == b.Actor && a.Action == b.Action && a.SAN == b.SAN && a.FEN() == b.FEN() &&
		(a.Ban == nil) == (b.Ban == nil) && (a.Ban == nil || *a.Ban == *b.Ban)
}

func TestPGNMaxPlies(t *testing.T) {
	const ban4 = "1. {banning: e2e4} d4 {banning: e7e5} d5 *" // 4 plies
	const chess3 = "1. e4 e5 2. Nf3 *"                        // 3 moves, no bans
	tests := []struct {
		name     string
		pgn      string
		opts     PGNOptions
		tooLong  bool
		wantPly  int
		wantText string
	}{
		{"no bound", ban4, PGNOptions{}, false, 5, ""},
		{"ban game at the bound", ban4, PGNOptions{MaxPlies: 4}, false, 5, ""},
		{"ban game over the bound", ban4, PGNOptions{MaxPlies: 3}, true, 0, "more than 3 plies"},
		{"a ban over the bound", ban4, PGNOptions{MaxPlies: 2}, true, 0, "more than 2 plies"},
		{"chess game at the bound", chess3, PGNOptions{MaxPlies: 3}, false, 7, ""}, // Black to move at move 2: ply 7
		{"chess game over the bound", chess3, PGNOptions{MaxPlies: 2}, true, 0, "more than 2 plies"},
		{"classic over the bound", chess3, PGNOptions{MaxPlies: 2, Variant: Classic{}}, true, 0, "more than 2 plies"},
		// The reader stops at the bound: the illegal move after it is never read.
		{"stops at the bound", "1. e4 e5 2. Qz9 *", PGNOptions{MaxPlies: 2}, true, 0, "more than 2 plies"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := FromPGN(tt.pgn, tt.opts)
			if !tt.tooLong {
				if err != nil || g.Ply() != tt.wantPly {
					t.Fatalf("FromPGN: %v, want a game at ply %d", err, tt.wantPly)
				}
				return
			}
			var pe *PGNError
			if !errors.Is(err, ErrTooManyPlies) || !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.wantText) {
				t.Fatalf("FromPGN: %v, want a *PGNError wrapping ErrTooManyPlies saying %q", err, tt.wantText)
			}
		})
	}
}

// TestPGNTagEscapes writes tag values with quotes, backslashes and line
// breaks, and reads them back.
func TestPGNTagEscapes(t *testing.T) {
	g := New(BanChess{})
	pgn := g.Record().PGN(Tag{Name: "Event", Value: `the "big" one \ final`}, Tag{Name: "Site", Value: "two\nlines"})
	for _, want := range []string{`[Event "the \"big\" one \\ final"]`, `[Site "two lines"]`} {
		if !strings.Contains(pgn, want) {
			t.Errorf("PGN lacks %s:\n%s", want, pgn)
		}
	}
	back, err := FromPGN(pgn, PGNOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tags := back.Record().Tags(); !slices.Contains(tags, Tag{Name: "Event", Value: `the "big" one \ final`}) {
		t.Errorf("tags read back: %v", tags)
	}
}

// tagFlood is a PGN of n tags named T0001, T0002, … whose values are value
// bytes long, and a move.
func tagFlood(n, value int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[T%04d \"%s\"]\n", i+1, strings.Repeat("x", value))
	}
	b.WriteString("\n1. e4 *\n")
	return b.String()
}

func TestPGNTagBounds(t *testing.T) {
	bounds := PGNOptions{MaxTags: 3, MaxTagBytes: 8, MaxTagNameBytes: 5}
	tests := []struct {
		name string
		pgn  string
		opts PGNOptions
		kind error // nil: read
		want string
	}{
		{"no bound", tagFlood(100, 300), PGNOptions{}, nil, ""},
		{"at the bounds", tagFlood(3, 8), bounds, nil, ""},
		{"one tag too many", tagFlood(4, 8), bounds, ErrTooManyTags, "more than 3 tags"},
		{"a value too long", tagFlood(1, 9), bounds, ErrTagTooLong, "value is longer than 8 bytes"},
		{"a name too long", "[Event6 \"a\"]\n1. e4 *", bounds, ErrTagTooLong, "name is longer than 5 bytes"},
		// The reader stops at the bound: the broken tag after it is never read.
		{"stops at the bound", "[A \"1\"]\n[B \"2\"]\n[C \"3\"]\n[Bad \"x]\n", bounds, ErrTooManyTags, "more than 3 tags"},
		{"stops in the value", "[Event \"" + strings.Repeat("x", 1<<20), bounds, ErrTagTooLong, "longer than 8 bytes"},
		// Each game of a file has its own tags.
		{"two games at the bound", tagFlood(3, 1) + tagFlood(3, 1), PGNOptions{MaxTags: 3, Game: 1}, nil, ""},
		{"the other game over", tagFlood(3, 1) + tagFlood(4, 1), PGNOptions{MaxTags: 3}, ErrTooManyTags, "more than 3 tags"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := FromPGN(tt.pgn, tt.opts)
			if tt.kind == nil {
				if err != nil {
					t.Fatalf("FromPGN: %v", err)
				}
				if n := tt.opts.MaxTags; n > 0 && len(g.Record().Tags()) > n {
					t.Errorf("%d tags kept, more than %d", len(g.Record().Tags()), n)
				}
				return
			}
			var pe *PGNError
			if !errors.Is(err, tt.kind) || !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("FromPGN: %v, want a *PGNError wrapping %v saying %q", err, tt.kind, tt.want)
			}
			if len(err.Error()) > 200 {
				t.Errorf("the error quotes too much: %d bytes", len(err.Error()))
			}
		})
	}
}

// TestPGNTagFloodCheap: 1 MB of 10,000 tags costs the reader what the first
// tags past the bound cost, not the megabyte it would copy unbounded.
func TestPGNTagFloodCheap(t *testing.T) {
	flood := tagFlood(10_000, 90)
	if len(flood) < 1e6 {
		t.Fatalf("the flood is %d bytes", len(flood))
	}
	alloc := func(opts PGNOptions) (uint64, error) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := FromPGN(flood, opts)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, err
	}
	unbounded, err := alloc(PGNOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bounded, err := alloc(PGNOptions{MaxTags: 32, MaxTagBytes: 256, MaxTagNameBytes: 64})
	if !errors.Is(err, ErrTooManyTags) {
		t.Fatalf("bounded: %v", err)
	}
	t.Logf("1 MB of 10,000 tags: %d bytes allocated unbounded, %d bounded", unbounded, bounded)
	if bounded > 64<<10 {
		t.Errorf("the bounded reader allocated %d bytes for a refused flood", bounded)
	}
}

// TestPGNCommentsBounded: comments other than bans are kept, but a game
// whose comments are longer in all than MaxCommentBytes is refused.
func TestPGNCommentsBounded(t *testing.T) {
	long := strings.Repeat("blah ", 20_000)
	for _, pgn := range []string{
		"{" + long + "} 1. {banning: e2e4} d4 {" + long + "} {banning: e7e5} d5 *",
		"1. e4 {" + long + "} e5 *",
	} {
		if _, err := FromPGN(pgn, PGNOptions{MaxCommentBytes: 16 << 10, ChessAsClassic: true}); !errors.Is(err, ErrCommentsTooLong) {
			t.Errorf("long comments: %v", err)
		}
	}
	g, err := FromPGN("1. {banning: e2e4} d4 {just a comment} {banning: e7e5} d5 *", PGNOptions{MaxCommentBytes: 14})
	if err != nil || g.Record().Comment(2) != "just a comment" || g.Record().Comment(0) != "" {
		t.Errorf("a short comment: %q, %v", g.Record().Comment(2), err)
	}
}
