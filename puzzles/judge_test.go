package puzzles

import (
	"testing"

	"github.com/banchess/banchess/internal/race"
	"github.com/banchess/banchess/rules"
)

func actions(t *testing.T, texts ...string) []rules.Action {
	t.Helper()
	out := make([]rules.Action, len(texts))
	for i, s := range texts {
		a, err := rules.ParseAction(s)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = a
	}
	return out
}

func TestJudge(t *testing.T) {
	banMatePuzzle := Puzzle{ID: "banmate", FEN: banMate, Solution: []string{"m:d5b6", "b:a8a7"}, Themes: []Theme{MateIn2, MateByBan}}
	trapPuzzle := Puzzle{ID: "trap", FEN: queenMate, Solution: []string{"m:b1b8", "b:h8h7"}, Themes: []Theme{MateIn2, MateByBan, StalemateTrap}}
	// Black bans first; White's reply, a move and a ban, is the puzzle's.
	replies := Puzzle{ID: "replies", FEN: rules.StartFEN + " 1", Solution: []string{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5"}, Themes: []Theme{Material}}
	tests := []struct {
		name    string
		p       Puzzle
		attempt []string
		want    Verdict
	}{
		{"nothing yet", banMatePuzzle, nil, Verdict{Correct: true, FailedAt: -1}},
		{"a right first action", banMatePuzzle, []string{"m:d5b6"}, Verdict{Correct: true, FailedAt: -1}},
		{"solved", banMatePuzzle, []string{"m:d5b6", "b:a8a7"}, Verdict{Correct: true, Solved: true, FailedAt: -1}},
		{"a wrong first action", banMatePuzzle, []string{"m:h2h3"}, Verdict{FailedAt: 0}},
		{"an illegal first action", banMatePuzzle, []string{"m:h2h5"}, Verdict{FailedAt: 0}},
		{"an action past the end", banMatePuzzle, []string{"m:d5b6", "b:a8a7", "m:h2h3"}, Verdict{FailedAt: 2}},
		{"a mate of its own", trapPuzzle, []string{"m:b1h1"}, Verdict{Correct: true, Solved: true, FailedAt: -1}},
		{"a stalemate", trapPuzzle, []string{"m:b1b7"}, Verdict{FailedAt: 0}},
		{"replies played", replies, []string{"b:e2e4", "m:d7d5"}, Verdict{Correct: true, Solved: true, FailedAt: -1}},
		{"a wrong second action", replies, []string{"b:e2e4", "m:e7e6"}, Verdict{FailedAt: 1}},
		{"the reply's ban played", replies, []string{"b:e2e4", "m:e7e5"}, Verdict{FailedAt: 1}},
	}
	for p, want := range map[*Puzzle]rules.Color{&banMatePuzzle: rules.White, &replies: rules.Black} {
		if got, err := p.Solver(); err != nil || got != want {
			t.Errorf("puzzle %s: solver %v, %v; want %v", p.ID, got, err, want)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.p.Judge(actions(t, tt.attempt...))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("%+v, want %+v", got, tt.want)
			}
		})
	}
}

// judgeByLine is Judge as it was written before Solving: one walk over
// the solution, consuming the solver's actions at their turns.
func judgeByLine(p Puzzle, actions []rules.Action) (Verdict, error) {
	g, err := p.Start()
	if err != nil {
		return Verdict{}, err
	}
	line, err := p.Line()
	if err != nil {
		return Verdict{}, err
	}
	solver := g.Turn().Actor
	given := 0
	for _, want := range line {
		if g.Turn().Actor == solver {
			if given == len(actions) {
				return Verdict{Correct: true, FailedAt: -1}, nil
			}
			a := actions[given]
			given++
			if a != want {
				if g.Play(a) != nil || g.Outcome().Status != rules.Checkmate || g.Outcome().Winner != solver {
					return Verdict{FailedAt: given - 1}, nil
				}
				break
			}
		}
		if err := g.Play(want); err != nil {
			return Verdict{}, err
		}
	}
	if given < len(actions) {
		return Verdict{FailedAt: given}, nil
	}
	return Verdict{Correct: true, Solved: true, FailedAt: -1}, nil
}

// TestSolvingJudgesAsTheLine: over a sample of the shipped puzzles, Judge gives what
// a walk over the solution gives for every prefix of the solver's
// actions, each with every legal action in place of its last, and the
// whole solution with an action after it.
func TestSolvingJudgesAsTheLine(t *testing.T) {
	set, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	every := 5                           // a sample: every legal action of every puzzle takes half a minute
	if testing.Short() || race.Enabled { // one goroutine's work: CI judges every fifth without the race detector
		every = 50
	}
	for n, p := range set.All() {
		if n%every != 0 {
			continue
		}
		s, err := p.Solve()
		if err != nil {
			t.Fatal(err)
		}
		var mine []rules.Action
		var attempts [][]rules.Action
		for i, a := range s.Line() {
			if s.Game().Turn().Actor == s.Solver() {
				for _, other := range s.Game().Legal() {
					attempts = append(attempts, append(append([]rules.Action(nil), mine...), other))
				}
				mine = append(mine, a)
			}
			if err := s.To(i + 1); err != nil {
				t.Fatal(err)
			}
		}
		attempts = append(attempts, nil, mine, append(append([]rules.Action(nil), mine...), mine[0]))
		for _, attempt := range attempts {
			got, err := p.Judge(attempt)
			want, werr := judgeByLine(p, attempt)
			if err != nil || werr != nil || got != want {
				t.Fatalf("puzzle %s, %v: %+v (%v), want %+v (%v)", p.ID, attempt, got, err, want, werr)
			}
		}
	}
}

// TestSolvingMoves: Act stands at the solver's next action, its replies
// played; To takes plies back and plays them again, the verdict as it
// was; a mate of the solver's own is taken back before the solution is
// played on.
func TestSolvingMoves(t *testing.T) {
	replies := Puzzle{ID: "replies", FEN: rules.StartFEN + " 1", Solution: []string{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5"}, Themes: []Theme{Material}}
	s, err := replies.Solve()
	if err != nil {
		t.Fatal(err)
	}
	if !s.SolverActs() || s.At() != 0 {
		t.Fatalf("at the start: at %d, solver acts %v", s.At(), s.SolverActs())
	}
	v, err := s.Act(actions(t, "b:e2e4")[0])
	if err != nil || !v.Correct || v.Solved || s.At() != 3 || !s.SolverActs() {
		t.Fatalf("after the ban: %+v %v, at %d", v, err, s.At())
	}
	if err := s.To(1); err != nil || s.At() != 1 || s.SolverActs() || s.Game().Ply() != 2 {
		t.Fatalf("back to 1: %v, at %d, ply %d", err, s.At(), s.Game().Ply())
	}
	if err := s.Reply(); err != nil || s.At() != 3 {
		t.Fatalf("replies: %v, at %d", err, s.At())
	}
	if err := s.To(4); err != nil || s.Verdict() != v {
		t.Fatalf("to the end: %v, verdict %+v", err, s.Verdict())
	}
	if err := s.To(5); err == nil {
		t.Error("no moment 5, but To went there")
	}

	trap := Puzzle{ID: "trap", FEN: queenMate, Solution: []string{"m:b1b8", "b:h8h7"}, Themes: []Theme{MateIn2, MateByBan, StalemateTrap}}
	s, err = trap.Solve()
	if err != nil {
		t.Fatal(err)
	}
	start := s.Game().FEN()
	if v, err := s.Act(actions(t, "m:b1h1")[0]); err != nil || !v.Solved || s.SolverActs() {
		t.Fatalf("a mate of its own: %+v %v", v, err)
	}
	if err := s.To(0); err != nil || s.Game().FEN() != start {
		t.Fatalf("back to the start: %v, %s", err, s.Game().FEN())
	}
	if err := s.To(2); err != nil || !s.Game().Outcome().Over() || !s.Verdict().Solved {
		t.Errorf("the solution's end: %v, %v, %+v", err, s.Game().Outcome(), s.Verdict())
	}
}
