package match

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/rules"
)

// fakeStockfish starts this test binary as a fake Stockfish (see TestMain)
// answering with replies, in turn, then by its own choice, and returns it
// (the rule, or aware) with the file that logs what it was sent.
func fakeStockfish(t *testing.T, aware bool, replies ...string) (*Stockfish, string) {
	t.Helper()
	log := filepath.Join(t.TempDir(), "uci.log")
	t.Setenv(fakeUCI, "1")
	t.Setenv(fakeUCILog, log)
	t.Setenv(fakeUCIReply, strings.Join(replies, "|"))
	sf, err := NewStockfish(os.Args[0], 25*time.Millisecond, aware)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sf.Close() })
	return sf, log
}

// legalCoords returns g's legal actions in coordinates.
func legalCoords(g *rules.Game) []string {
	var out []string
	for _, a := range g.Legal() {
		out = append(out, a.Coords())
	}
	return out
}

// sent returns the lines the fake engine was sent.
func sent(t *testing.T, log string) []string {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// TestStockfishRule: as banner Stockfish bans its best move for the mover;
// as mover it searches only the moves the ban left. It is set up with one
// thread, searches for its time a ply, and quits on Close.
func TestStockfishRule(t *testing.T) {
	sf, log := fakeStockfish(t, false)
	ctx := context.Background()
	g := rules.New(rules.BanChess{})
	pos := g.Position()
	startFEN := pos.FEN()
	ban, err := sf.Act(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	// The fake's best move is the position's first legal chess move.
	best := rules.New(rules.Classic{}).Legal()[0]
	if want := rules.BanAction(best.From, best.To); ban != want {
		t.Fatalf("at a ban Stockfish played %v, want %v", ban, want)
	}
	if err := g.Play(ban); err != nil {
		t.Fatal(err)
	}
	pos = g.Position()
	banFEN := pos.FEN()
	move, err := sf.Act(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	left := legalCoords(g)
	if move.Phase != rules.PhaseMove || move.Coords() != left[0] {
		t.Errorf("at a move Stockfish played %v, want the first of searchmoves, m:%s", move, left[0])
	}
	if slices.Contains(left, best.Coords()) {
		t.Fatalf("the ban of %s left it legal: %v", best.Coords(), left)
	}
	if err := sf.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	want := []string{
		"uci",
		"setoption name Threads value 1",
		"setoption name Hash value 32",
		"isready",
		"position fen " + startFEN,
		"go movetime 25",
		"position fen " + banFEN,
		"go movetime 25 searchmoves " + strings.Join(left, " "),
		"quit",
	}
	if got := sent(t, log); !slices.Equal(got, want) {
		t.Errorf("Stockfish was sent\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestStockfishReplies: Stockfish's answer becomes a ban of its squares or
// a move with its promotion; an answer that names no move is an error,
// not a panic.
func TestStockfishReplies(t *testing.T) {
	const promoting = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
	tests := []struct {
		reply, fen string
		want       string // BCN, or "" for an error
	}{
		{"bestmove a7a8q ponder e8d7", promoting + " 1", "b:a7a8"},
		{"bestmove a7a8q", promoting + " 2", "m:a7a8q"},
		{"bestmove a7a8n", promoting + " 2", "m:a7a8n"},
		{"bestmove e1d2", promoting + " 1", "b:e1d2"},
		{"bestmove", promoting + " 1", ""},
		{"bestmove a7", promoting + " 1", ""},
		{"bestmove (none)", promoting + " 1", ""},
		{"bestmove (none)", promoting + " 2", ""},
	}
	var replies []string
	for _, tt := range tests {
		replies = append(replies, tt.reply)
	}
	sf, _ := fakeStockfish(t, false, replies...)
	for _, tt := range tests {
		g, err := rules.FromFEN(tt.fen, rules.BanChess{})
		if err != nil {
			t.Fatal(err)
		}
		a, err := sf.Act(context.Background(), g)
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("%q at ply %s: played %v, want an error", tt.reply, tt.fen[len(tt.fen)-1:], a)
		case tt.want != "" && (err != nil || a.String() != tt.want):
			t.Errorf("%q at ply %s: played %v (%v), want %s", tt.reply, tt.fen[len(tt.fen)-1:], a, err, tt.want)
		}
	}
}

// TestStockfishStart: an engine that cannot be started, or that quits
// before it is ready, is an error.
func TestStockfishStart(t *testing.T) {
	if _, err := NewStockfish(filepath.Join(t.TempDir(), "no-stockfish"), time.Millisecond, false); err == nil || !strings.Contains(err.Error(), "starting") {
		t.Errorf("a missing binary: %v", err)
	}
	t.Setenv(fakeUCI, "mute")
	if _, err := NewStockfish(os.Args[0], time.Millisecond, false); err == nil {
		t.Error("an engine that quit at once was started")
	}
}

// TestStockfishMatch plays a short match against the fake Stockfish to the
// end of every game.
func TestStockfishMatch(t *testing.T) {
	sf, _ := fakeStockfish(t, false)
	e, err := NewEngine(1, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	res, err := (&Match{A: e, B: sf, Games: 2, OpeningPlies: 2, Seed: 1, Log: &log}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sc := res.Score
	if sc.Games() != 2 || strings.Count(log.String(), "stockfish-rule (black)") != 1 {
		t.Errorf("%v after\n%s", sc, log.String())
	}
}

func TestCommand(t *testing.T) {
	t.Setenv(fakeUCI, "1")
	for _, tt := range []struct {
		args string
		want string // in the output; else in the error
		err  bool
	}{
		{"-a 2 -b 1 -games 2 -opening 2", "level 2 vs level 1: +", false},
		{"-a 1 -b stockfish -games 2 -per-ply 10ms -stockfish " + os.Args[0], "level 1 vs stockfish-rule: +", false},
		{"-a 1 -b stockfish-aware -games 2 -per-ply 10ms -stockfish " + os.Args[0], "level 1 vs stockfish-aware: +", false},
		{"-a 2 -b 1 -threads-a 2 -games 2 -opening 2 -clock 0.2+1", "time a ply on the clock, ", false},
		{"-a 2 -b 1 -clock 5", "-clock", true},
		{"-a 2 -b stockfish -clock 1+0 -stockfish " + os.Args[0], "cannot play on a clock", true},
		{"-a x -b 1", `player "x"`, true},
		{"-a 9 -b 1", "level 9", true},
		{"-a 1 -b stockfish -stockfish " + filepath.Join(t.TempDir(), "none"), "starting", true},
		{"-a 1 -b 2 -nope", "flag provided but not defined", true},
		{"-a 2 -b 1 -games 2 -opening 2 -sprt -400,-200", "SPRT: undecided, LLR 0.00", false}, // a sweep says nothing of the variance
		{"-a 2 -b 1 -sprt 10,0", "give elo0 < elo1", true},
		{"-a 2 -b 1 -sprt 10", "give elo0,elo1", true},
		{"-a 2 -b 1 -sprt 0,10 -alpha 0.7", "error rates", true},
	} {
		var out strings.Builder
		err := Command(context.Background(), strings.Fields(tt.args), &out)
		switch {
		case tt.err && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("match %s: %v, want an error with %q", tt.args, err, tt.want)
		case !tt.err && (err != nil || !strings.Contains(out.String(), tt.want) || !strings.Contains(out.String(), "over 2 games")):
			t.Errorf("match %s: %v\n%s\nwant %q", tt.args, err, out.String(), tt.want)
		}
	}
}

// TestStockfishAware: as mover, the aware player finds its best few moves
// with MultiPV among those the ban left, then looks at each one's
// position for the opponent's replies (MultiPV 2); its bans are the rule's.
func TestStockfishAware(t *testing.T) {
	sf, log := fakeStockfish(t, true)
	if sf.Name() != "stockfish-aware" {
		t.Errorf("name %q", sf.Name())
	}
	g, err := rules.FromFEN(rules.StartFEN+" 2:e2e4", rules.BanChess{})
	if err != nil {
		t.Fatal(err)
	}
	move, err := sf.Act(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	left := legalCoords(g)
	if move.Phase != rules.PhaseMove || move.Coords() != left[0] {
		t.Fatalf("played %v, want the fake's choice m:%s", move, left[0])
	}
	if err := g.Play(move); err != nil {
		t.Fatal(err)
	}
	pos := g.Position()
	got := strings.Join(sent(t, log), "\n")
	for _, want := range []string{
		"setoption name MultiPV value 4\nposition fen " + rules.StartFEN + "\ngo movetime 6 searchmoves " + strings.Join(left, " "),
		"setoption name MultiPV value 2\nposition fen " + pos.FEN() + "\ngo movetime 18",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Stockfish was not sent\n%s\nbut\n%s", want, got)
		}
	}
}
