package puzzles

import (
	"testing"

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
