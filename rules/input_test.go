package rules

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseInput(t *testing.T) {
	const (
		start   = StartFEN + " 1"
		banned  = StartFEN + " 2:e2e4"                                                   // White moves; e2e4 is banned
		ply3    = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1 3"        // White bans a Black move
		capture = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2 6:a2a3" // exd5 is legal
		promoB  = "k7/4P3/1K6/8/8/8/8/8 w - - 0 1 1"                                     // Black bans; e7e8 promotes
		promoM  = "k7/4P3/1K6/8/8/8/8/8 w - - 0 1 2:b6c6"                                // White moves
		promoX  = "k7/4P3/1K6/8/8/8/8/8 w - - 0 1 2:e7e8"                                // the promotion is banned
		castleB = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 1"
		castleM = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 2:a1a2"
		knights = "4k3/4p3/8/8/8/8/4P3/1N2KN2 w - - 0 1 1"      // two knights reach d2
		knightM = "4k3/4p3/8/8/8/8/4P3/1N2KN2 w - - 0 1 2:e1d1" // the same, White to move
		over    = "4k3/8/8/8/7P/8/2q5/K7 w - - 0 1 2:h4h5"      // stalemate by the ban
	)
	tests := []struct {
		name, fen, text string
		want            string // the action in BCN, when read
		kind            error  // else the kind of error
		msg             string // and its message
	}{
		// BCN, in either case, trailing indicator ignored.
		{"BCN ban", start, "b:e2e4", "b:e2e4", nil, ""},
		{"BCN ban in capitals", start, "B:E2E4", "b:e2e4", nil, ""},
		{"BCN move", banned, "m:g1f3+", "m:g1f3", nil, ""},
		{"BCN promotion", promoM, "m:e7e8q", "m:e7e8q", nil, ""},
		{"BCN promotion in capitals", promoM, "M:E7E8Q#", "m:e7e8q", nil, ""},
		{"BCN move at a ban, as read", start, "m:e2e4", "m:e2e4", nil, ""},
		{"BCN ban at a move, as read", banned, "b:d2d4", "b:d2d4", nil, ""},
		{"BCN of no action", start, "x:e2e4", "", ErrSyntax, `"x:e2e4" is not an action: it must start with b: (ban) or m: (move)`},
		{"BCN ban with SAN", start, "b:Nf3", "", ErrSyntax, `"b:Nf3" is not an action: write the squares like e2e4 (and a promotion piece like e7e8q)`},
		{"BCN bad square", start, "b:i2i4", "", ErrSyntax, `"b:i2i4" is not an action: "i2" is not a square: use a file a–h and a rank 1–8, like e4`},

		// Squares: the pair at a ban, the move at a move.
		{"squares at a ban", start, "e2e4", "b:e2e4", nil, ""},
		{"squares at a ban in capitals", start, "E2E4", "b:e2e4", nil, ""},
		{"squares with a mark", start, "e2e4+", "b:e2e4", nil, ""},
		{"squares at a move", banned, "g1f3", "m:g1f3", nil, ""},
		{"squares at a move in capitals", banned, "G1F3", "m:g1f3", nil, ""},
		{"capital squares that are not SAN", banned, "B1A3", "m:b1a3", nil, ""},
		{"capital squares at a ban", start, "B1A3", "b:b1a3", nil, ""},
		{"squares of a promotion", promoM, "e7e8q", "m:e7e8q", nil, ""},
		{"squares of a promotion in capitals", promoM, "E7E8N", "m:e7e8n", nil, ""},
		{"squares without the promotion piece, as read", promoM, "e7e8", "m:e7e8", nil, ""},
		{"squares of no move, as read", banned, "g1g3", "m:g1g3", nil, ""},
		{"own squares at a ban, as read", start, "e7e5", "b:e7e5", nil, ""},
		{"promotion piece in a ban", promoB, "e7e8q", "", ErrSyntax, `"e7e8q" is not a ban: a ban names squares only, as in e7e8, and removes every promotion on them`},
		{"bad promotion piece", promoM, "e7e8k", "", ErrSyntax, `"e7e8k" is not a move: "k" is not a promotion piece: use q, r, b or n, as in e7e8q`},
		{"bad square", start, "e9e4", "", ErrSyntax, `"e9e4" is not a ban: "e9" is not a square: use a file a–h and a rank 1–8, like e4`},
		{"bad square in capitals", banned, "D2D0", "", ErrSyntax, `"D2D0" is not a move: "D0" is not a square: use a file a–h and a rank 1–8, like e4`},

		// SAN at a move.
		{"SAN", banned, "Nf3", "m:g1f3", nil, ""},
		{"SAN pawn", banned, "d4", "m:d2d4", nil, ""},
		{"SAN with check", banned, "Nf3+", "m:g1f3", nil, ""},
		{"SAN capture", capture, "exd5", "m:e4d5", nil, ""},
		{"SAN with a rank, not squares", banned, "B1a3", "", ErrIllegal, "B1a3 is not legal: no bishop can reach a3"},
		{"SAN promotion", promoM, "e8=Q", "m:e7e8q", nil, ""},
		{"SAN promotion with mate", promoM, "e8=R#", "m:e7e8r", nil, ""},
		{"SAN promotion without the piece", promoM, "e8", "", ErrIllegal, "e8 promotes a pawn: add the piece, as in e8=Q"},
		{"SAN bad promotion piece", promoM, "e8=K", "", ErrSyntax, `"e8=K" is not a move: K is not a promotion piece: promote to Q, R, B or N, as in e8=Q`},
		{"castling", castleM, "O-O", "m:e1g1", nil, ""},
		{"castling with zeros", castleM, "0-0", "m:e1g1", nil, ""},
		{"castling queen side", castleM, "O-O-O", "m:e1c1", nil, ""},
		{"castling queen side with zeros", castleM, "0-0-0+", "m:e1c1", nil, ""},
		{"castling that cannot be", banned, "O-O", "", ErrIllegal, "O-O is not legal: White cannot castle king side now"},
		{"SAN of no move", banned, "Nf5", "", ErrIllegal, "Nf5 is not legal: no knight can reach f5"},
		{"ambiguous SAN", knightM, "Nd2", "", ErrIllegal, "Nd2 is ambiguous: pieces on b1 and f1 can all move there"},
		{"disambiguated SAN", knightM, "Nfd2", "m:f1d2", nil, ""},

		// SAN at a ban: the move of the side to move, banned by its squares.
		{"SAN ban at ply 1", start, "Nf3", "b:g1f3", nil, ""},
		{"SAN pawn ban at ply 1", start, "e4", "b:e2e4", nil, ""},
		{"SAN ban at ply 3", ply3, "Nf6", "b:g8f6", nil, ""},
		{"SAN pawn ban at ply 3", ply3, "e5", "b:e7e5", nil, ""},
		{"SAN ban of a promotion", promoB, "e8=Q", "b:e7e8", nil, ""},
		{"SAN ban of a promotion without the piece", promoB, "e8+", "b:e7e8", nil, ""},
		{"SAN ban of castling", castleB, "O-O", "b:e1g1", nil, ""},
		{"SAN ban of castling with zeros", castleB, "0-0-0", "b:e1c1", nil, ""},
		{"SAN ban of castling that cannot be", start, "O-O", "", ErrIllegal, "Black cannot ban O-O: White cannot castle king side now"},
		{"SAN ban of the actor's own move", start, "e5", "", ErrIllegal, "Black cannot ban e5: no White pawn can reach e5"},
		{"SAN ban of the opponent's move at ply 3", ply3, "Nf3", "", ErrIllegal, "White cannot ban Nf3: no Black knight can reach f3"},
		{"ambiguous SAN ban", knights, "Nd2", "", ErrIllegal, "Nd2 is ambiguous: pieces on b1 and f1 can all move there"},
		{"disambiguated SAN ban", knights, "Nbd2", "b:b1d2", nil, ""},

		// The ban in force.
		{"banned squares", banned, "e2e4", "", ErrBanned, "e2e4 is banned this turn"},
		{"banned squares with a mark", banned, "e2e4+", "", ErrBanned, "e2e4 is banned this turn"},
		{"banned squares in capitals", banned, "E2E4", "", ErrBanned, "E2E4 (e2e4) is banned this turn"},
		{"banned BCN", banned, "m:e2e4", "", ErrBanned, "e2e4 is banned this turn"},
		{"banned BCN in capitals", banned, "M:E2E4", "", ErrBanned, "M:E2E4 (e2e4) is banned this turn"},
		{"banned SAN", banned, "e4", "", ErrBanned, "e4 (e2e4) is banned this turn"},
		{"banned SAN with a mark", banned, "e4+", "", ErrBanned, "e4+ (e2e4) is banned this turn"},
		{"banned promotion in SAN", promoX, "e8=Q", "", ErrBanned, "e8=Q (e7e8) is banned this turn"},
		{"banned promotion without the piece", promoX, "e8", "", ErrBanned, "e8 (e7e8) is banned this turn"},
		{"banned promotion in squares", promoX, "e7e8q", "", ErrBanned, "e7e8q (e7e8) is banned this turn"},

		// Not an action at all.
		{"empty at a ban", start, "", "", ErrSyntax, "nothing typed: to ban, type one of White's moves by its squares, as in g1f3, or in SAN, as in Nf3"},
		{"spaces at White's ban", ply3, "  ", "", ErrSyntax, "nothing typed: to ban, type one of Black's moves by its squares, as in g8f6, or in SAN, as in Nf6"},
		{"empty at a move", banned, "", "", ErrSyntax, "nothing typed: type White's move in SAN, as in Nf3, or by its squares, as in g1f3"},
		{"garbage", start, "x1!", "", ErrSyntax, `"x1!" is not a move: it must end with a square like f3`},
		{"garbage at a move", banned, "Nz9", "", ErrSyntax, `"Nz9" is not a move: it must end with a square like f3`},
		{"a word", banned, "hello", "", ErrSyntax, `"hello" is not a move: it must end with a square like f3`},
		{"too long", start, "  e2e4 and then some more  ", "", ErrSyntax, `"e2e4 and then so…" is too long for an action`},
		{"too long, cut between characters", start, "aéééééééé", "", ErrSyntax, `"aééééééé…" is too long for an action`},
		{"spaces trimmed", start, "  Nf3\t", "b:g1f3", nil, ""},

		// The end.
		{"game over", over, "a1b1", "", ErrGameOver, "the game is over: drawn by stalemate after a ban"},
		{"game over, SAN", over, "Kb1", "", ErrGameOver, "the game is over: drawn by stalemate after a ban"},
		{"game over, BCN", over, "b:a1b1", "", ErrGameOver, "the game is over: drawn by stalemate after a ban"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustFEN(t, tt.fen, BanChess{})
			before := g.FEN()
			a, err := g.Notation().ParseInput(tt.text)
			if g.FEN() != before {
				t.Errorf("the game changed: %s, then %s", before, g.FEN())
			}
			if tt.kind == nil {
				if err != nil {
					t.Fatalf("ParseInput(%q): %v, want %s", tt.text, err, tt.want)
				}
				if a.String() != tt.want {
					t.Errorf("ParseInput(%q) = %s, want %s", tt.text, a, tt.want)
				}
				return
			}
			var ae *ActionError
			if !errors.As(err, &ae) || !errors.Is(err, tt.kind) {
				t.Fatalf("ParseInput(%q) = %v, %v; want an *ActionError of kind %v", tt.text, a, err, tt.kind)
			}
			if ae.Kind != tt.kind {
				t.Errorf("kind %v, want %v", ae.Kind, tt.kind)
			}
			if err.Error() != tt.msg {
				t.Errorf("message\n %s\nwant\n %s", err, tt.msg)
			}
			if a != (Action{}) {
				t.Errorf("action %v with the error, want none", a)
			}
		})
	}
}

// TestParseInputThenPlay plays a game typed as people type it.
func TestParseInputThenPlay(t *testing.T) {
	g := New(BanChess{})
	for _, text := range []string{"e4", "d4", "Nf6", "e5", "Nf3", "dxe5", "B:D7D6", "Nc6", "e2e4", "m:b1c3", "f8b4", "Nxe5"} {
		a, err := g.Notation().ParseInput(text)
		if err != nil {
			t.Fatalf("ply %d, %q: %v", g.Ply(), text, err)
		}
		if err := g.Play(a); err != nil {
			t.Fatalf("ply %d, %q read as %s: %v", g.Ply(), text, a, err)
		}
	}
	want := []string{"b:e2e4", "d4", "b:g8f6", "e5", "b:g1f3", "dxe5", "b:d7d6", "Nc6", "b:e2e4", "Nc3", "b:f8b4", "Nxe5"}
	if log := g.Record().Log(); !slices.Equal(log, want) {
		t.Errorf("log %q, want %q", log, want)
	}
	// Wrong-phase BCN is read, and Play refuses it.
	a, err := g.Notation().ParseInput("m:a2a3")
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Play(a); !errors.Is(err, ErrIllegal) || err.Error() != "it is Black's turn to ban, not to move" {
		t.Errorf("Play of a move at a ban: %v", err)
	}
}

func TestBannedIsIllegal(t *testing.T) {
	g := mustFEN(t, StartFEN+" 2:e2e4", BanChess{})
	_, parseErr := g.Notation().ParseInput("e4")
	_, moveErr := g.Notation().ParseMove("e4")
	for name, err := range map[string]error{
		"ParseInput": parseErr,
		"ParseMove":  moveErr,
		"Play":       g.Play(MoveAction(SquareAt(4, 1), SquareAt(4, 3), 0)),
		"PlayText":   g.PlayText("m:e2e4"),
	} {
		if !errors.Is(err, ErrBanned) || !errors.Is(err, ErrIllegal) {
			t.Errorf("%s: %v is not both ErrBanned and ErrIllegal", name, err)
		}
		if errors.Is(err, ErrSyntax) || errors.Is(err, ErrGameOver) {
			t.Errorf("%s: %v is of another kind too", name, err)
		}
	}
	// Other refusals are not bans.
	if err := g.PlayText("m:g1g3"); !errors.Is(err, ErrIllegal) || errors.Is(err, ErrBanned) {
		t.Errorf("an illegal move: %v", err)
	}
}

// TestParseInputReadsEveryLegalAction reads back every legal action as BCN,
// squares, capitals and SAN, in positions with castling, en passant and
// promotions.
func TestParseInputReadsEveryLegalAction(t *testing.T) {
	for _, fen := range []string{
		StartFEN + " 1",
		StartFEN + " 2:e2e4",
		"r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 9 33",
		"r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 9 34:a1a2",
		"r3k2r/1P4P1/8/8/3Pp3/8/1p4p1/R3K2R b KQkq d3 0 9 35",
		"r3k2r/1P4P1/8/8/3Pp3/8/1p4p1/R3K2R b KQkq d3 0 9 36:h8h7",
		"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 1",
		"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 2:a1a2",
		"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1 3",
		"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1 4:a8a7",
	} {
		g := mustFEN(t, fen, BanChess{})
		for _, a := range g.Legal() {
			texts := []string{a.String(), strings.ToUpper(a.String()), a.Coords(), strings.ToUpper(a.Coords())}
			san, err := g.Notation().MoveSAN(MoveAction(a.From, a.To, cmp.Or(a.Promotion, promoIn(g, a))))
			if err != nil {
				t.Fatalf("%s: MoveSAN(%s): %v", fen, a, err)
			}
			texts = append(texts, san)
			for _, text := range texts {
				if got, err := g.Notation().ParseInput(text); err != nil || got != a {
					t.Errorf("%s: ParseInput(%q) = %v, %v; want %v", fen, text, got, err, a)
				}
			}
		}
	}
}

// promoIn returns a promotion piece when the ban a names a promotion.
func promoIn(g *Game, a Action) PieceKind {
	if a.Phase == PhaseBan && g.Position().Board[a.From].Kind() == Pawn && (a.To.Rank() == 0 || a.To.Rank() == 7) {
		return Queen
	}
	return 0
}

func FuzzParseInput(f *testing.F) {
	for _, s := range []string{"b:e2e4", "M:E7E8Q", "e2e4", "E2E4", "B1a3", "Nf3", "exd5", "O-O", "0-0-0", "e8=Q#", "e7e8q", "", "x1!"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, fen := range []string{StartFEN + " 1", StartFEN + " 2:e2e4", "8/4P3/7k/p7/8/8/8/4K3 w - - 0 1 2", "8/4P3/7k/p7/8/8/8/4K3 w - - 0 1 1"} {
			g := mustFEN(t, fen, BanChess{})
			a, err := g.Notation().ParseInput(s)
			if g.FEN() != fen {
				t.Fatalf("ParseInput(%q) changed the game to %s", s, g.FEN())
			}
			if err != nil {
				var ae *ActionError
				if !errors.As(err, &ae) || a != (Action{}) {
					t.Fatalf("ParseInput(%q) = %v, %#v", s, a, err)
				}
				continue
			}
			if err := g.Play(a); err != nil {
				var ae *ActionError
				if !errors.As(err, &ae) || g.FEN() != fen {
					t.Fatalf("Play(ParseInput(%q) = %v): %v, and the game is %s", s, a, err, g.FEN())
				}
				if errors.Is(err, ErrBanned) {
					t.Fatalf("ParseInput(%q) read %v, which is banned", s, a)
				}
			}
		}
	})
}
