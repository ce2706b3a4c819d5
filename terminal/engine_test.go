package terminal

import (
	"strings"
	"testing"
)

func TestBot(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		input string
		want  []string
	}{
		// Black bans first: the computer bans at once, then moves after White.
		{"black", []string{"--bot", "black", "--level", "2"}, lines("moves", "quit"), []string{"Black bans", "Ply 2 · White moves"}},
		{"white", []string{"--bot", "white", "--level", "2"}, lines("b:e2e4", "quit"), []string{"Black bans e2e4", "White plays", "Ply 3 · White bans a Black move", "White bans"}},
		// The computer mates by the ban of the only escape.
		{"mate", []string{"--bot", "black", "--level", "2", "--fen", "7k/8/p4n2/bpP5/2K5/4q3/8/8 w - b6 0 1"}, "", []string{"Black bans c5b6", "Black won by checkmate after a ban"}},
		{"analyse", []string{"--fen", "7k/8/p4n2/bpP5/2K5/4q3/8/8 w - b6 0 1"}, lines("analyse 200"), []string{"Best: b:c5b6 (mates in 1 plies", "Line: b:c5b6"}},
		{"go", nil, lines("go"), []string{"the computer plays no side"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := play(t, tt.input, tt.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("no %q in:\n%s", w, out)
				}
			}
		})
	}
	if _, errOut, code := play(t, "", "--bot", "green"); code != 2 || !strings.Contains(errOut, "--bot") {
		t.Errorf("--bot green: exit %d, %q", code, errOut)
	}
	if _, errOut, code := play(t, "", "--level", "9"); code != 2 || !strings.Contains(errOut, "--level") {
		t.Errorf("--level 9: exit %d, %q", code, errOut)
	}
}
