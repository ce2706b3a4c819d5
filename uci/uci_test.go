package uci

import (
	"bufio"
	"context"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/engine"
)

func TestParseGo(t *testing.T) {
	tests := []struct {
		args     string
		want     goParams
		problems int
	}{
		{"movetime 200", goParams{movetime: 200 * time.Millisecond}, 0},
		{"wtime 60000 btime 59000 winc 1000 binc 0 movestogo 20", goParams{wtime: time.Minute, btime: 59 * time.Second, winc: time.Second, clock: true, movesToGo: 20}, 0},
		{"wtime -50 btime 100", goParams{btime: 100 * time.Millisecond, clock: true}, 0},
		{"depth 4 nodes 5000", goParams{depth: 4, nodes: 5000}, 0},
		{"infinite searchmoves e2e4 d2d4 depth 3", goParams{infinite: true, searchMoves: []string{"e2e4", "d2d4"}, depth: 3}, 0},
		{"depth 0", goParams{depth: 1}, 0},
		{"depth", goParams{}, 1},
		{"wtime soon depth 2", goParams{depth: 2}, 1},
		{"fast movetime 10", goParams{movetime: 10 * time.Millisecond}, 1},
		{"mate 3 ponder", goParams{}, 2},
	}
	for _, tt := range tests {
		got, problems := parseGo(strings.Fields(tt.args))
		if !reflect.DeepEqual(got, tt.want) || len(problems) != tt.problems {
			t.Errorf("go %s: %+v with %q; want %+v with %d problems", tt.args, got, problems, tt.want, tt.problems)
		}
	}
}

func TestScore(t *testing.T) {
	for _, tt := range []struct {
		line engine.Line
		want string
	}{
		{engine.Line{Score: -35}, "cp -35"},
		{engine.Line{Mate: 1}, "mate 1"},
		{engine.Line{Mate: 2}, "mate 1"},
		{engine.Line{Mate: 3}, "mate 2"},
		{engine.Line{Mate: -1}, "mate -1"},
		{engine.Line{Mate: -2}, "mate -1"},
		{engine.Line{Mate: -3}, "mate -2"},
	} {
		if got := score(tt.line); got != tt.want {
			t.Errorf("score(%+v) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

// runSession runs Run on pipes and returns a way to send lines and to read up
// to a line that starts with a prefix.
func runSession(t *testing.T) (send func(...string), until func(string) []string, done <-chan error) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	errc := make(chan error, 1)
	go func() { errc <- Run(context.Background(), inR, outW); outW.Close() }()
	lines := make(chan string, 1000)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	t.Cleanup(func() { inW.Close() })
	send = func(ls ...string) {
		for _, l := range ls {
			io.WriteString(inW, l+"\n")
		}
	}
	until = func(prefix string) []string {
		t.Helper()
		var got []string
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the session ended before %q: %q", prefix, got)
				}
				got = append(got, l)
				if strings.HasPrefix(l, prefix) {
					return got
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("no %q in 30 s: %q", prefix, got)
			}
		}
	}
	return send, until, errc
}

// TestSession: answers while a search runs (under -race: the search and
// the reading loop write at once), commands that wait for a bounded search,
// MultiPV lines, the clock of the banner, Classic, and the end of input.
func TestSession(t *testing.T) {
	send, until, done := runSession(t)
	send("setoption name Threads value 2", "setoption name Hash value 8", "position startpos", "go infinite", "isready")
	until("readyok")
	send("stop")
	until("bestmove")

	// A bounded search ends by itself before the next position is taken.
	send("setoption name MultiPV value 3", "position startpos moves e2e4", "go depth 3", "position startpos", "go depth 1")
	lines := until("bestmove")
	if last := lines[len(lines)-3]; !strings.HasPrefix(last, "info depth 3 multipv 3 ") {
		t.Errorf("the depth-3 search was cut short: last depth's info %q", last)
	}
	if final := lines[len(lines)-2]; !strings.HasPrefix(final, "info nodes ") || !strings.Contains(final, " time ") {
		t.Errorf("no info line of the whole search before bestmove: %q", final)
	}
	until("bestmove")

	// At Black's ban, Black's clock counts: with a second left, and White's
	// hour, Black answers well within its second.
	send("setoption name MultiPV value 1", "position startpos", "go wtime 3600000 btime 1000")
	start := time.Now()
	until("bestmove")
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("a ban with a second on the banner's clock took %v", d)
	}

	send("setoption name UCI_Variant value chess", "position startpos moves e2e4 e7e5 d1h5 b8c6 f1c4 g8f6", "go depth 2")
	if l := until("bestmove"); l[len(l)-1] != "bestmove h5f7" {
		t.Errorf("Classic: %q, want the mate h5f7", l)
	}
	send("quit")
	if err := <-done; err != nil {
		t.Errorf("quit: %v", err)
	}
}
