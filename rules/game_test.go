package rules

import (
	"errors"
	"github.com/banchess/banchess/internal/race"
	"slices"
	"strings"
	"testing"
)

// mustPlay plays BCN actions, failing the test on the first refusal.
func mustPlay(t *testing.T, g *Game, actions ...string) {
	t.Helper()
	for _, a := range actions {
		if err := g.PlayText(a); err != nil {
			t.Fatalf("play %s at %s: %v", a, g.FEN(), err)
		}
	}
}

func mustFEN(t *testing.T, fen string, v Variant) *Game {
	t.Helper()
	g, err := FromFEN(fen, v)
	if err != nil {
		t.Fatalf("FromFEN(%q): %v", fen, err)
	}
	return g
}

func TestPlyModel(t *testing.T) {
	g := New(BanChess{})
	want := []struct {
		ply    int
		actor  Color
		phase  Phase
		toMove Color
		action string
	}{
		{1, Black, PhaseBan, White, "b:e2e4"},
		{2, White, PhaseMove, White, "m:d2d4"},
		{3, White, PhaseBan, Black, "b:e7e5"},
		{4, Black, PhaseMove, Black, "m:d7d5"},
		{5, Black, PhaseBan, White, "b:g1f3"},
	}
	for _, w := range want {
		tn := g.Turn()
		if g.Ply() != w.ply || tn.Actor != w.actor || tn.Phase != w.phase || tn.ToMove != w.toMove || g.ToMove() != w.toMove {
			t.Fatalf("ply %d: got ply %d turn %+v", w.ply, g.Ply(), tn)
		}
		mustPlay(t, g, w.action)
	}
	if got, want := g.FEN(), "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 0 2 6:g1f3"; got != want {
		t.Errorf("FEN %s, want %s", got, want)
	}
	if got, want := strings.Join(g.Record().Log(), " "), "b:e2e4 d4 b:e7e5 d5 b:g1f3"; got != want {
		t.Errorf("log %q, want %q", got, want)
	}
	if ban, ok := g.Ban(); !ok || ban.String() != "g1f3" {
		t.Errorf("ban in force %v %v, want g1f3", ban, ok)
	}
}

func TestClassicHasNoBans(t *testing.T) {
	g := New(Classic{})
	if tn := g.Turn(); tn.Phase != PhaseMove || tn.Actor != White || g.Ply() != 1 {
		t.Fatalf("classic start: ply %d turn %+v", g.Ply(), tn)
	}
	if err := g.PlayText("b:e2e4"); !errors.Is(err, ErrIllegal) {
		t.Fatalf("a ban in Classic: %v, want ErrIllegal", err)
	}
	mustPlay(t, g, "m:f2f3", "m:e7e5", "m:g2g4", "m:d8h4")
	o := g.Outcome()
	if o != (Outcome{Status: Checkmate, Reason: ByMove, Winner: Black}) {
		t.Fatalf("fool's mate: %+v", o)
	}
	if got := g.FEN(); got != "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3" {
		t.Errorf("classic FEN %s", got)
	}
	if _, ok := g.Ban(); ok {
		t.Error("classic game reports a ban")
	}
}

// TestGameEnd covers every way a game ends by a ply (docs/rules.md §1.3).
func TestGameEnd(t *testing.T) {
	tests := []struct {
		name    string
		fen     string
		variant Variant
		actions []string
		want    Outcome
		fen7    string // FEN after, when checked
		log     string // last log entry, when checked
	}{
		{
			name:    "checkmate by ban of the only escape",
			fen:     "6k1/5pp1/8/8/8/8/8/K3R3 w - - 0 1",
			actions: []string{"b:a1a2", "m:e1e8", "b:g8h7"},
			want:    Outcome{Status: Checkmate, Reason: ByBan, Winner: White},
			fen7:    "4R1k1/5pp1/8/8/8/8/8/K7 b - - 1 1 4:g8h7#",
			log:     "b:g8h7#",
		},
		{
			name:    "checkmate by ban when the only escape is a promotion",
			fen:     "K3r3/2P5/b1n5/8/8/8/8/7k w - - 0 1",
			actions: []string{"b:c7c8"},
			want:    Outcome{Status: Checkmate, Reason: ByBan, Winner: Black},
			fen7:    "K3r3/2P5/b1n5/8/8/8/8/7k w - - 0 1 2:c7c8#",
		},
		{
			name:    "checkmate by ban when the only escape is en passant",
			fen:     "7k/8/1b2p3/3pP3/4K3/r7/8/5q2 w - d6 0 1",
			actions: []string{"b:e5d6"},
			want:    Outcome{Status: Checkmate, Reason: ByBan, Winner: Black},
		},
		{
			name:    "stalemate by ban",
			fen:     "4k3/8/8/8/7P/8/2q5/K7 w - - 0 1",
			actions: []string{"b:h4h5"},
			want:    Outcome{Status: Stalemate, Reason: ByBan},
			fen7:    "4k3/8/8/8/7P/8/2q5/K7 w - - 0 1 2:h4h5=",
			log:     "b:h4h5=",
		},
		{
			name:    "checkmate by move, White wins",
			fen:     "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
			actions: []string{"b:h5h7", "m:h5f7"},
			want:    Outcome{Status: Checkmate, Reason: ByMove, Winner: White},
			log:     "Qxf7#",
		},
		{
			name:    "checkmate by move, Black wins",
			fen:     StartFEN,
			actions: []string{"b:a2a3", "m:f2f3", "b:a7a6", "m:e7e5", "b:a2a3", "m:g2g4", "b:a7a6", "m:d8h4"},
			want:    Outcome{Status: Checkmate, Reason: ByMove, Winner: Black},
			log:     "Qh4#",
		},
		{
			name:    "stalemate by move",
			fen:     "7k/8/5K2/8/8/8/8/6Q1 w - - 0 1",
			actions: []string{"b:g1g8", "m:g1g6"},
			want:    Outcome{Status: Stalemate, Reason: ByMove},
		},
		{
			name:    "insufficient material: king and bishop against king",
			fen:     "4k3/8/8/8/8/8/3r4/3BK3 w - - 0 1",
			actions: []string{"b:e1f1", "m:e1d2"},
			want:    Outcome{Status: Draw, Reason: InsufficientMaterial},
			fen7:    "4k3/8/8/8/8/8/3K4/3B4 b - - 0 1 3=",
		},
		{
			name:    "insufficient material: bishops all on one colour",
			fen:     "4k3/8/8/2b5/8/8/3r4/3BK3 w - - 0 1",
			actions: []string{"b:e1f1", "m:e1d2"},
			want:    Outcome{}, // c5 is dark, d1 is light: mate is still possible
		},
		{
			name:    "fifty-move rule",
			fen:     "4k3/8/8/8/8/8/R7/4K3 w - - 99 80",
			actions: []string{"b:a2a8", "m:a2a3"},
			want:    Outcome{Status: Draw, Reason: FiftyMoveRule},
			fen7:    "4k3/8/8/8/8/R7/8/4K3 b - - 100 80 319=",
		},
		{
			name: "threefold repetition (bans do not count)",
			fen:  StartFEN,
			actions: []string{
				"b:e2e4", "m:g1f3", "b:e7e5", "m:g8f6", "b:e2e4", "m:f3g1", "b:e7e5", "m:f6g8",
				"b:e2e4", "m:g1f3", "b:e7e5", "m:g8f6", "b:e2e4", "m:f3g1", "b:e7e5", "m:f6g8",
			},
			want: Outcome{Status: Draw, Reason: ThreefoldRepetition},
		},
		{
			name:    "threefold repetition in Classic",
			fen:     StartFEN,
			variant: Classic{},
			actions: []string{"m:g1f3", "m:g8f6", "m:f3g1", "m:f6g8", "m:g1f3", "m:g8f6", "m:f3g1", "m:f6g8"},
			want:    Outcome{Status: Draw, Reason: ThreefoldRepetition},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := tt.variant
			if v == nil {
				v = BanChess{}
			}
			g := mustFEN(t, tt.fen, v)
			mustPlay(t, g, tt.actions...)
			if got := g.Outcome(); got != tt.want {
				t.Fatalf("outcome %+v (%s), want %+v", got, got, tt.want)
			}
			if tt.want.Over() {
				if n := len(g.Legal()); n != 0 {
					t.Errorf("finished game offers %d actions", n)
				}
				err := g.PlayText(bcnStrings(firstLegalAfterUndo(t, g))[0])
				if !errors.Is(err, ErrGameOver) || !strings.Contains(err.Error(), "the game is over: ") {
					t.Errorf("action after the end: %v, want ErrGameOver", err)
				}
			}
			if tt.fen7 != "" && g.FEN() != tt.fen7 {
				t.Errorf("FEN %s, want %s", g.FEN(), tt.fen7)
			}
			if tt.log != "" {
				if log := g.Record().Log(); log[len(log)-1] != tt.log {
					t.Errorf("last log entry %q, want %q", log[len(log)-1], tt.log)
				}
			}
		})
	}
}

// firstLegalAfterUndo returns the actions that were legal before the last
// ply, leaving the game as it was.
func firstLegalAfterUndo(t *testing.T, g *Game) []Action {
	t.Helper()
	last, _ := g.LastAction()
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	legal := g.Legal()
	if err := g.Play(last); err != nil {
		t.Fatal(err)
	}
	return legal
}

func TestThreefoldIgnoresUncapturableEnPassant(t *testing.T) {
	// After 1. e4 the FEN shows e3, but no black pawn can take: the position
	// after the knights' dance counts as the same.
	g := New(Classic{})
	mustPlay(t, g, "m:e2e4", "m:g8f6", "m:g1f3", "m:f6g8", "m:f3g1", "m:g8f6", "m:g1f3", "m:f6g8", "m:f3g1")
	if o := g.Outcome(); o != (Outcome{Status: Draw, Reason: ThreefoldRepetition}) {
		t.Fatalf("outcome %+v, want threefold", o)
	}
}

func TestErrorsExplain(t *testing.T) {
	start := New(BanChess{})
	banned := mustFEN(t, StartFEN+" 2:e2e4", BanChess{})
	promo := mustFEN(t, "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1 2:e1d1", BanChess{})
	over := mustFEN(t, "4k3/8/8/8/7P/8/2q5/K7 w - - 0 1 2:h4h5", BanChess{})
	tests := []struct {
		g      *Game
		action string
		kind   error
		msg    string
	}{
		{banned, "m:e2e4", ErrIllegal, "e2e4 is banned this turn"},
		{start, "m:e2e4", ErrIllegal, "it is Black's turn to ban, not to move"},
		{banned, "b:e7e5", ErrIllegal, "it is White's turn to move, not to ban"},
		{banned, "m:g1g3", ErrIllegal, "the knight on g1 cannot move to g3"},
		{banned, "m:e4e5", ErrIllegal, "there is no piece on e4"},
		{banned, "m:e7e5", ErrIllegal, "the pawn on e7 is Black's, and it is White's move"},
		{start, "b:e2e5", ErrIllegal, "Black cannot ban e2e5: the pawn on e2 cannot move to e5"},
		{promo, "m:e7e8", ErrIllegal, "e7e8 promotes a pawn: add the piece, as in e7e8q"},
		{banned, "m:d2d4q", ErrIllegal, "d2d4 is not a promotion"},
		{over, "m:a1b1", ErrGameOver, "the game is over: drawn by stalemate after a ban"},
		{start, "x:e2e4", ErrSyntax, `"x:e2e4" is not an action: it must start with b: (ban) or m: (move)`},
		{start, "e2e4", ErrSyntax, `"e2e4" is not an action: write a ban as b:e2e4 or a move as m:e2e4`},
		{start, "b:e2e9", ErrSyntax, `"b:e2e9" is not an action: "e9" is not a square: use a file a–h and a rank 1–8, like e4`},
		{start, "b:e7e8q", ErrSyntax, `"b:e7e8q" is not an action: a ban names squares only: it removes every promotion on them`},
		{start, "m:e7e8k", ErrSyntax, `"m:e7e8k" is not an action: "k" is not a promotion piece: use q, r, b or n`},
	}
	for _, tt := range tests {
		before := tt.g.FEN()
		err := tt.g.PlayText(tt.action)
		if !errors.Is(err, tt.kind) {
			t.Errorf("%s: error %v, want kind %v", tt.action, err, tt.kind)
			continue
		}
		var ae *ActionError
		if !errors.As(err, &ae) || err.Error() != tt.msg {
			t.Errorf("%s: message %q, want %q", tt.action, err, tt.msg)
		}
		if tt.g.FEN() != before {
			t.Errorf("%s: refused action changed the game: %s → %s", tt.action, before, tt.g.FEN())
		}
	}
}

func TestBans(t *testing.T) {
	t.Run("castling", func(t *testing.T) {
		g := mustFEN(t, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", BanChess{})
		mustPlay(t, g, "b:e1g1")
		if slices.Contains(bcnStrings(g.Legal()), "m:e1g1") || !slices.Contains(bcnStrings(g.Legal()), "m:e1c1") {
			t.Fatalf("legal after banning O-O: %v", bcnStrings(g.Legal()))
		}
		if _, err := g.Notation().ParseMove("O-O"); err == nil {
			t.Fatal("O-O accepted while banned")
		}
		a, err := g.Notation().ParseMove("0-0-0")
		if err != nil || a.String() != "m:e1c1" {
			t.Fatalf("0-0-0: %v %v", a, err)
		}
		mustPlay(t, g, a.String())
		if got := g.Record().Log()[1]; got != "O-O-O" {
			t.Errorf("SAN %q, want O-O-O", got)
		}
	})
	t.Run("en passant", func(t *testing.T) {
		g := mustFEN(t, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", BanChess{})
		mustPlay(t, g, "b:e5d6")
		if slices.Contains(bcnStrings(g.Legal()), "m:e5d6") {
			t.Fatal("en passant still legal after its ban")
		}
		g = mustFEN(t, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", BanChess{})
		mustPlay(t, g, "b:e5e6", "m:e5d6")
		if got := g.Record().Log()[1]; got != "exd6" || g.Position().Board[SquareAt(3, 4)] != NoPiece {
			t.Errorf("en passant: SAN %q, board %s", got, g.FEN())
		}
	})
	t.Run("promotions", func(t *testing.T) {
		g := mustFEN(t, "8/4P3/7k/p7/8/8/8/4K3 w - - 0 1", BanChess{})
		bans := bcnStrings(g.Legal())
		if n := strings.Count(strings.Join(bans, " "), "b:e7e8"); n != 1 {
			t.Fatalf("bans list e7e8 %d times: %v", n, bans)
		}
		mustPlay(t, g, "b:e1d1")
		for _, p := range []string{"q", "r", "b", "n"} {
			if !slices.Contains(bcnStrings(g.Legal()), "m:e7e8"+p) {
				t.Errorf("m:e7e8%s missing", p)
			}
		}
		mustPlay(t, g, "m:e7e8n")
		if got := g.Record().Log()[1]; got != "e8=N" || g.Position().Board[SquareAt(4, 7)] != NewPiece(White, Knight) {
			t.Errorf("underpromotion: SAN %q FEN %s", got, g.FEN())
		}
		if g.Outcome().Over() {
			t.Errorf("game over after e8=N: %v", g.Outcome())
		}
		g = mustFEN(t, "8/4P3/7k/p7/8/8/8/4K3 w - - 0 1", BanChess{})
		mustPlay(t, g, "b:e7e8")
		for _, a := range bcnStrings(g.Legal()) {
			if strings.HasPrefix(a, "m:e7e8") {
				t.Errorf("%s legal after banning e7e8", a)
			}
		}
	})
}

func TestUndo(t *testing.T) {
	g := mustFEN(t, "6k1/5pp1/8/8/8/8/8/K3R3 w - - 0 1", BanChess{})
	start := g.FEN()
	mustPlay(t, g, "b:a1a2", "m:e1e8", "b:g8h7")
	if !g.Outcome().Over() {
		t.Fatal("not over after the mating ban")
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if g.Outcome().Over() || g.Ply() != 3 || !slices.Equal(bcnStrings(g.Legal()), []string{"b:g8h7"}) {
		t.Fatalf("after undoing the mate: %s %v %v", g.FEN(), g.Outcome(), bcnStrings(g.Legal()))
	}
	for g.Undo() == nil {
	}
	if g.FEN() != start || g.Ply() != 1 {
		t.Fatalf("undo to start: %s, want %s", g.FEN(), start)
	}
	if err := g.Undo(); !errors.Is(err, ErrNothingToUndo) {
		t.Fatalf("undo at start: %v", err)
	}

	// A resignation is withdrawn before any ply.
	mustPlay(t, g, "b:a1a2")
	if err := g.Resign(White); err != nil {
		t.Fatal(err)
	}
	if o := g.Outcome(); o.Status != Resigned || o.Winner != Black || o.Result() != "0-1" {
		t.Fatalf("resigned: %+v", o)
	}
	if err := g.AgreeDraw(); !errors.Is(err, ErrGameOver) {
		t.Fatalf("draw after resignation: %v", err)
	}
	if err := g.Undo(); err != nil || g.Outcome().Over() || g.Ply() != 2 {
		t.Fatalf("undo resignation: %v %v ply %d", err, g.Outcome(), g.Ply())
	}
	if err := g.AgreeDraw(); err != nil || g.Outcome().Result() != "1/2-1/2" || g.Outcome().Reason != Agreement {
		t.Fatalf("draw by agreement: %v %+v", err, g.Outcome())
	}
}

// TestUndoEqualsReplay checks undo against a fresh replay at every ply of a
// long reference game.
func TestUndoEqualsReplay(t *testing.T) {
	ref := loadRefGames(t)[0]
	g := mustFEN(t, ref.Start, BanChess{})
	var fens []string
	var legal [][]string
	for _, p := range ref.Plies {
		fens = append(fens, g.FEN())
		legal = append(legal, bcnStrings(g.Legal()))
		mustPlay(t, g, p.Play)
	}
	for i := len(ref.Plies) - 1; i >= 0; i-- {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
		if g.FEN() != fens[i] || !slices.Equal(bcnStrings(g.Legal()), legal[i]) {
			t.Fatalf("after undo to ply %d: %s, want %s", i+1, g.FEN(), fens[i])
		}
	}
}

func TestMoveSAN(t *testing.T) {
	g := mustFEN(t, "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4 2:h5h7", BanChess{})
	for bcn, want := range map[string]string{"m:h5f7": "Qxf7#", "m:c4f7": "Bxf7+", "m:g1f3": "Nf3", "m:e1f1": "Kf1"} {
		a, _ := ParseAction(bcn)
		if got, err := g.Notation().MoveSAN(a); err != nil || got != want {
			t.Errorf("MoveSAN(%s) = %q, %v; want %q", bcn, got, err, want)
		}
	}
	if _, err := g.Notation().MoveSAN(MoveAction(SquareAt(6, 0), SquareAt(6, 2), 0)); err == nil {
		t.Error("MoveSAN accepted g1g3")
	}
}

func TestStartPosition(t *testing.T) {
	g := mustFEN(t, "4k3/8/8/8/8/8/4P3/4K3 w - - 3 12", BanChess{})
	mustPlay(t, g, "b:e2e4", "m:e2e3")
	if p := g.StartPosition(); p.Fullmove != 12 || p.HalfmoveClock != 3 || p.ToMove != White || p.Board[Square(12)].Kind() != Pawn {
		t.Errorf("start position %+v", p)
	}
}

func TestFlagFall(t *testing.T) {
	tests := []struct {
		name, fen string
		side      Color
		want      Outcome
	}{
		{"start: the side left with time wins", "", White, Outcome{Status: TimeForfeit, Reason: Timeout, Winner: Black}},
		{"a lone king cannot win on time", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 2", White, Outcome{Status: Draw, Reason: Timeout}},
		{"king and knight cannot win on time", "4k1n1/8/8/8/8/8/8/R3K3 w - - 0 1 2", White, Outcome{Status: Draw, Reason: Timeout}},
		{"king and two knights can", "4kn1n/8/8/8/8/8/8/R3K3 w - - 0 1 2", White, Outcome{Status: TimeForfeit, Reason: Timeout, Winner: Black}},
		{"a pawn can", "4k3/7p/8/8/8/8/8/R3K3 w - - 0 1 2", White, Outcome{Status: TimeForfeit, Reason: Timeout, Winner: Black}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := New(BanChess{})
			if tt.fen != "" {
				var err error
				if g, err = FromFEN(tt.fen, BanChess{}); err != nil {
					t.Fatal(err)
				}
			}
			if err := g.FlagFall(tt.side); err != nil {
				t.Fatal(err)
			}
			if got := g.Outcome(); got != tt.want {
				t.Fatalf("outcome %v, want %v", got, tt.want)
			}
			back, err := Restore(g.Snapshot())
			if err != nil {
				t.Fatalf("restore: %v", err)
			}
			if back.Outcome() != tt.want {
				t.Fatalf("restored outcome %v, want %v", back.Outcome(), tt.want)
			}
			if err := g.FlagFall(tt.side); err == nil {
				t.Fatal("a second flag fall was accepted after the game ended")
			}
		})
	}
}

// TestHistorySince checks HistorySince(n) against History()[n:] at every n
// of the reference games that start from a legal position.
func TestHistorySince(t *testing.T) {
	for i, ref := range raceSample(loadRefGames(t)) {
		if ref.Start == illegalRefStart || !race.Enabled && i%4 != 0 {
			continue
		}
		g := ref.played(t)
		all := g.Record().History()
		for n := -1; n <= len(all)+1; n++ {
			want := all[max(0, min(n, len(all))):]
			got := g.Record().HistorySince(n)
			if len(got) != len(want) {
				t.Fatalf("game %d: HistorySince(%d) has %d plies, want %d", ref.Seed, n, len(got), len(want))
			}
			for j := range got {
				if got[j].FEN() != want[j].FEN() || got[j].SAN != want[j].SAN || got[j].Ply != want[j].Ply || got[j].Position != want[j].Position {
					t.Fatalf("game %d: HistorySince(%d)[%d] = %+v, want %+v", ref.Seed, n, j, got[j], want[j])
				}
			}
		}
	}
}

// TestBanSAN: a ban is written as the banned move's SAN, without check or
// promotion piece, in the history and for the position now.
func TestBanSAN(t *testing.T) {
	tests := []struct {
		fen, ban, want string
	}{
		{StartFEN, "e2e4", "e4"},
		{StartFEN, "g1f3", "Nf3"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O"},
		{"k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8", "e8"},
		{"k7/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6"},
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1", "Rad1"},
		{"7k/8/6q1/8/8/8/8/K5R1 w - - 0 1", "g1g6", "Rxg6"},
	}
	for _, tc := range tests {
		g, err := FromFEN(tc.fen, BanChess{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := ParsePair(tc.ban)
		if err != nil {
			t.Fatal(err)
		}
		got, err := g.Notation().BanSAN(p)
		if err != nil || got != tc.want {
			t.Errorf("%s, ban %s: %q (%v), want %q", tc.fen, tc.ban, got, err, tc.want)
			continue
		}
		mustPlay(t, g, "b:"+tc.ban)
		if h := g.Record().History(); h[0].SAN != tc.want {
			t.Errorf("%s: the history writes the ban %s as %q, want %q", tc.fen, tc.ban, h[0].SAN, tc.want)
		}
	}
	if _, err := New(BanChess{}).Notation().BanSAN(mustPair(t, "e2e5")); err == nil {
		t.Error("BanSAN took e2e5, which no move has")
	}
}

// TestAbort: an aborted game is over with no winner and PGN result "*",
// and takes no more plies.
func TestAbort(t *testing.T) {
	g := New(BanChess{})
	mustPlay(t, g, "b:e2e4")
	if err := g.Abort(); err != nil {
		t.Fatal(err)
	}
	o := g.Outcome()
	if !o.Over() || o.Status.String() != "aborted" || o.Winner != 0 || o.Result() != "*" || o.String() != "aborted" {
		t.Errorf("aborted: %+v %q %q", o, o.Result(), o.String())
	}
	if err := g.PlayText("m:d2d4"); err == nil {
		t.Error("an aborted game took a move")
	}
	if err := g.Abort(); err == nil {
		t.Error("an aborted game was aborted again")
	}
}

func mustPair(t *testing.T, s string) Pair {
	t.Helper()
	p, err := ParsePair(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
