package terminal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/banchess/banchess/rules"
)

// Start positions for the tables.
const (
	// Two white knights can reach d2; Black bans first.
	knightsFEN = "4k3/4p3/8/8/8/8/4P3/1N2KN2 w - - 0 1 1"
	// White's pawn on e7 promotes with mate: Black bans first.
	promoFEN = "k7/4P3/1K6/8/8/8/8/8 w - - 0 1 1"
)

// after returns the output that follows the echo of the last input line:
// the answer to it.
func after(out, lastLine string) string {
	i := strings.LastIndex(out, "> "+lastLine+"\n")
	if i < 0 {
		return ""
	}
	return out[i+len("> "+lastLine+"\n"):]
}

func TestCommands(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "saved.pgn")
	tests := []struct {
		name  string
		args  []string
		input []string // the last line is the one whose answer is checked
		want  []string // in the answer to the last line
		not   []string // not in it
	}{
		{name: "board", input: []string{"e2e4", "board"}, want: []string{
			"    a  b  c  d  e  f  g  h\n 8  r  n  b  q  k  b  n  r  8\n",
			" 4  .  .  .  . [.] .  .  .  4\n",
			" 2  P  P  P  P [P] P  P  P  2\n",
			"Ply 2 · White moves · e2e4 is banned\n"}},
		{name: "board in check", input: []string{"d2d4", "e4", "e7e5", "f6", "a2a3", "Qh5", "BOARD"}, want: []string{"Ply 7 · White bans a Black move · Black is in check\n"}},
		{name: "flip", input: []string{"flip"}, want: []string{"    h  g  f  e  d  c  b  a\n 1  R  N  B  K  Q  B  N  R  1\n"}},
		{name: "flip back", input: []string{"flip", "flip"}, want: []string{"    a  b  c  d  e  f  g  h\n 8  r"}},
		{name: "fen", input: []string{"e2e4", "d4", "fen"}, want: []string{"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1 3\n"}},
		{name: "pgn", input: []string{"e2e4", "d4", "pgn"}, want: []string{
			`[Site "banchess play"]`, `[Date "2026.03.14"]`, `[Result "*"]`, `[Variant "Ban Chess"]`,
			"\n1. {banning: e2e4} d4 *\n"}},
		{name: "SAN with a rank", args: []string{"--fen", "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1 1"}, input: []string{"e1d1", "R1a3"}, want: []string{"White plays R1a3.\n"}},
		{name: "coordinates, check mark ignored", input: []string{"b:e2e4", "m:g1f3+"}, want: []string{"White plays Nf3.\n"}},
		{name: "coordinates in capitals", input: []string{"e2e4", "G1F3"}, want: []string{"White plays Nf3.\n"}},
		{name: "BCN in capitals", input: []string{"B:E2E4", "M:G1F3"}, want: []string{"White plays Nf3.\n"}},
		{name: "BCN ban in capitals", input: []string{"B:E2E4"}, want: []string{"Black bans e2e4 (e4).\n"}},
		{name: "SAN ban", input: []string{"Nf3"}, want: []string{"Black bans g1f3 (Nf3).\n", "Ply 2 · White moves · g1f3 is banned"}},
		{name: "SAN pawn ban", input: []string{"e4"}, want: []string{"Black bans e2e4 (e4).\n"}},
		{name: "SAN ban of a Black move", input: []string{"e2e4", "d4", "Nf6"}, want: []string{"White bans g8f6 (Nf6).\n", "Ply 4 · Black moves · g8f6 is banned"}},
		{name: "SAN ban of a promotion", args: []string{"--fen", promoFEN}, input: []string{"e8=Q"}, want: []string{"Black bans e7e8 (e8=Q).\n"}},
		{name: "SAN ban of castling", args: []string{"--fen", "4k3/8/8/8/8/8/8/4K2R w K - 0 1 1"}, input: []string{"0-0"}, want: []string{"Black bans e1g1 (O-O).\n"}},
		{name: "castling with zeros", args: []string{"--fen", "4k3/8/8/8/8/8/8/4K2R w K - 0 1 1"}, input: []string{"h1h8", "0-0"}, want: []string{"White plays O-O.\n"}},
		{name: "history empty", input: []string{"history"}, want: []string{"Nothing played yet. Ply 1: Black bans a White move.\n"}},
		{name: "history", input: []string{"e2e4", "d4", "e7e5", "d5", "g1f3", "history"}, want: []string{
			"  1. b:e2e4 d4            b:e7e5 d5\n  2. b:g1f3\n"}},
		{name: "history from black", args: []string{"--fen", "4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 9"}, input: []string{"e7e5", "e6", "e2e4", "history"}, want: []string{
			"  9. ...                  b:e7e5 e6\n 10. b:e2e4\n"}},
		{name: "moves at a ban", input: []string{"moves"}, want: []string{
			"Black bans one of White's 20 moves, by its squares:\n  a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4\n  g1f3 g1h3 g2g3 g2g4 h2h3 h2h4\n"}},
		{name: "moves at a move", input: []string{"e2e4", "moves"}, want: []string{
			"White has 19 legal moves (e2e4 is banned):\n  a3 a4 Na3 Nc3 b3 b4 c3 c4 d3 d4 e3 f3 f4 Nf3 Nh3 g3 g4 h3 h4\n"}},
		{name: "moves promotion", args: []string{"--fen", promoFEN}, input: []string{"b6c6", "moves"}, want: []string{"White has 9 legal moves (b6c6 is banned):\n  Ka5 Ka6 Kb5 Kc5 Kc7 e8=B e8=N e8=Q# e8=R#\n"}},
		{name: "help", input: []string{"help"}, want: []string{"a ban:", "a move:", "board", "moves", "history", "fen", "pgn", "save FILE", "load FEN|PGN|FILE", "new [ban|classic|en]", "undo", "flip", "help", "quit", "Now: Black bans a White move."}},
		{name: "undo a ban", input: []string{"e2e4", "undo"}, want: []string{"Took back the ban e2e4.\n", "Ply 1 · Black bans a White move"}, not: []string{"["}},
		{name: "undo a move", input: []string{"e2e4", "Nf3", "undo"}, want: []string{"Took back the move Nf3.\n", "Ply 2 · White moves · e2e4 is banned"}},
		{name: "undo at start", input: []string{"undo"}, want: []string{"✗ nothing to undo: the game is at its start\n"}},
		{name: "undo a mate", input: append(append([]string{}, banMate...), "undo"), want: []string{"Took back the ban g7g6.", "Ply 7 · White bans a Black move · Black is in check"}},
		{name: "new", input: []string{"e2e4", "new"}, want: []string{"New Ban Chess game.\n", "Ply 1 · Black bans a White move"}},
		{name: "new classic", input: []string{"new classic"}, want: []string{"New Classic game.\n", "Ply 1 · White moves"}},
		{name: "new keeps the variant", args: []string{"--variant", "classic"}, input: []string{"e4", "new"}, want: []string{"New Classic game."}},
		{name: "new ban", args: []string{"--variant", "classic"}, input: []string{"new ban"}, want: []string{"New Ban Chess game."}},
		{name: "load fen", input: []string{"load " + promoFEN}, want: []string{"Loaded a Ban Chess game.\n", " 7  .  .  .  .  P  .  .  .  7"}},
		{name: "load fen with ban", input: []string{"load rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2:e2e4"}, want: []string{"Ply 2 · White moves · e2e4 is banned"}},
		{name: "load fen keeps classic", args: []string{"--variant", "classic"}, input: []string{"load " + promoFEN}, want: []string{"Loaded a Classic game."}},
		{name: "load pgn", input: []string{"load 1. {banning: d2d4} e4 {banning: e7e5} f6 *"}, want: []string{"Loaded a Ban Chess game.", "Ply 5 · Black bans a White move"}},
		{name: "load chess pgn", input: []string{"load 1. e4 e5 2. Nf3"}, want: []string{"That PGN has no bans", "Ply 4 · Black moves"}},
		{name: "load pasted pgn", input: []string{"load", `[Event "Pasted"]`, "", "1. {banning: d2d4} e4", "{banning: e7e5} f6 *", "", "pgn"}, want: []string{`[Event "Pasted"]`, "{banning: e7e5} f6 *"}},
		{name: "load paste cut by end of input", input: []string{"load", "1. {banning: d2d4} e4"}, want: []string{"Loaded a Ban Chess game.", "Ply 3 · White bans a Black move"}},
		{name: "load pasted fen", input: []string{"load", promoFEN, "fen"}, want: []string{promoFEN}},
		{name: "load empty paste", input: []string{"load", "", "fen"}, want: []string{rules.StartFEN}},
		{name: "save", input: []string{"e2e4", "d4", "save " + saved}, want: []string{"Saved the game as PGN to " + saved + ".\n"}},
		{name: "save then load the file", input: []string{"e2e4", "d4", "save " + saved, "new", "load " + saved, "fen"}, want: []string{"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1 3\n"}},
		{name: "resign", input: []string{"e2e4", "resign"}, want: []string{"Game over: Black won: White resigned (0-1)."}},
		{name: "draw", input: []string{"draw"}, want: []string{"Game over: Drawn by agreement (1/2-1/2)."}},
		{name: "undo a resignation", input: []string{"e2e4", "resign", "undo"}, want: []string{"Took back the end of the game.", "Ply 2 · White moves · e2e4 is banned"}},
		{name: "commands after the end", input: append(append([]string{}, banMate...), "flip", "board", "history", "fen", "pgn", "save "+filepath.Join(dir, "mate.pgn"), "moves"), want: []string{"No legal actions: the game is over (White won by checkmate after a ban).\n"}},
		{name: "new after the end", input: append(append([]string{}, banMate...), "new"), want: []string{"Ply 1 · Black bans a White move"}},
		{name: "load after the end", input: append(append([]string{}, banMate...), "load "+promoFEN), want: []string{"Loaded a Ban Chess game."}},
		{name: "quit", input: []string{"quit", "fen"}, not: []string{rules.StartFEN}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := play(t, lines(tt.input...), tt.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			answer := after(out, tt.input[len(tt.input)-1])
			for _, want := range tt.want {
				if !strings.Contains(answer, want) {
					t.Errorf("answer lacks %q:\n%s", want, answer)
				}
			}
			for _, not := range tt.not {
				if strings.Contains(answer, not) {
					t.Errorf("answer has %q:\n%s", not, answer)
				}
			}
			if strings.Contains(answer, "✗") && !strings.Contains(strings.Join(tt.want, ""), "✗") {
				t.Errorf("refused:\n%s", answer)
			}
		})
	}
	data, err := os.ReadFile(filepath.Join(dir, "mate.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "{banning: g7g6#} 1-0") {
		t.Errorf("saved PGN of the mate:\n%s", data)
	}
}

// TestRefusals feeds bad input of every kind and checks the explanation and
// that nothing changed: the FEN before and after is the same.
func TestRefusals(t *testing.T) {
	unwritable := filepath.Join(t.TempDir(), "no", "such", "dir", "game.pgn")
	tests := []struct {
		name  string
		args  []string
		setup []string
		bad   string
		want  string
	}{
		{name: "unknown command", bad: "hello", want: "✗ hello is not a command: did you mean help? Type help for the commands"},
		{name: "unknown word", bad: "xyzzy", want: "✗ xyzzy is not a command, a ban or a move: type help for the commands"},
		{name: "gibberish at a ban", bad: "x1!", want: "is not a move"},
		{name: "gibberish at a move", setup: []string{"e2e4"}, bad: "Nz9", want: `✗ "Nz9" is not a move: it must end with a square like f3; type help for the commands, moves for the legal moves`},
		{name: "bad square at a ban", bad: "e9e4", want: `✗ "e9e4" is not a ban: "e9" is not a square: use a file a–h and a rank 1–8, like e4; type help for the commands, moves for the legal bans`},
		{name: "bad square in a b: ban", bad: "b:i2i4", want: `✗ "b:i2i4" is not an action: "i2" is not a square`},
		{name: "bad square at a move", setup: []string{"e2e4"}, bad: "d2d0", want: `✗ "d2d0" is not a move: "d0" is not a square`},
		{name: "b: without squares", bad: "b:Nf3", want: `✗ "b:Nf3" is not an action: write the squares like e2e4`},
		{name: "too long", bad: "e2e4 and much more", want: `✗ "e2e4 and much mo…" is too long for an action`},
		{name: "SAN ban of the banner's own move", bad: "e5", want: "✗ Black cannot ban e5: no White pawn can reach e5 — White's pawn moves: a3, a4, b3, b4, c3, c4, d3, d4 and 8 more (type moves)"},
		{name: "SAN ban of a piece that cannot move", bad: "Ra3", want: "✗ Black cannot ban Ra3: no White rook can reach a3 — White has no legal rook move (type moves for the legal bans)"},
		{name: "SAN ban of castling that cannot be", bad: "O-O", want: "✗ Black cannot ban O-O: White cannot castle king side now"},
		{name: "ambiguous SAN ban", args: []string{"--fen", knightsFEN}, bad: "Nd2", want: "✗ Nd2 is ambiguous: pieces on b1 and f1 can all move there — type Nbd2 or Nfd2"},
		{name: "m: at a ban", bad: "m:e2e4", want: "✗ it is Black's turn to ban one of White's moves: type a move of White's, like e2e4 or e4"},
		{name: "own piece at a ban", bad: "e7e5", want: "✗ it is Black's turn to ban one of White's moves: type a move of White's, like e2e4 or e4"},
		{name: "own piece in a b: ban", setup: []string{"e2e4", "d4"}, bad: "b:d4d5", want: "✗ it is White's turn to ban one of Black's moves: type a move of Black's, like e7e5 or e5"},
		{name: "ban of no move", bad: "e2e5", want: "✗ Black cannot ban e2e5: the pawn on e2 cannot move to e5 — its moves: e2e3, e2e4"},
		{name: "ban from an empty square", bad: "e4e5", want: "✗ Black cannot ban e4e5: there is no piece on e4"},
		{name: "ban with a promotion piece", args: []string{"--fen", promoFEN}, bad: "e7e8q", want: `✗ "e7e8q" is not a ban: a ban names squares only, as in e7e8, and removes every promotion on them`},
		{name: "ban with a bad promotion letter", args: []string{"--fen", promoFEN}, bad: "e7e8k", want: `✗ "e7e8k" is not a ban: a ban names squares only`},
		{name: "ban at a move", setup: []string{"e2e4"}, bad: "b:d2d4", want: "✗ it is White's turn to move, not to ban (e2e4 is banned): type a move like d4 or d2d4"},
		{name: "banned move in coordinates", setup: []string{"e2e4"}, bad: "e2e4", want: "✗ e2e4 is banned this turn — other pawn moves: e3, d3, d4, f3, f4, c3, c4, g3 and 7 more (type moves)"},
		{name: "banned move in SAN", setup: []string{"e2e4"}, bad: "e4", want: "✗ e4 (e2e4) is banned this turn — other pawn moves: e3, d3, d4"},
		{name: "banned move with m:", setup: []string{"g1f3"}, bad: "m:g1f3", want: "✗ g1f3 is banned this turn — other knight moves: Nh3, Na3, Nc3"},
		{name: "banned move in capitals", setup: []string{"e2e4"}, bad: "E2E4", want: "✗ E2E4 (e2e4) is banned this turn — other pawn moves: e3, d3, d4"},
		{name: "banned promotion without the piece", args: []string{"--fen", promoFEN}, setup: []string{"e7e8"}, bad: "e8", want: "✗ e8 (e7e8) is banned this turn — White has no other pawn move"},
		{name: "banned only move of its kind", args: []string{"--fen", promoFEN}, setup: []string{"e7e8"}, bad: "e8=Q", want: "✗ e8=Q (e7e8) is banned this turn — White has no other pawn move; the others: Ka5, Ka6, Kb5, Kc5, Kc6, Kc7"},
		{name: "illegal SAN", setup: []string{"e2e4"}, bad: "Nf5", want: "✗ Nf5 is not legal: no knight can reach f5 — knight moves: Na3, Nc3, Nf3, Nh3"},
		{name: "illegal SAN of an immobile piece", setup: []string{"e2e4"}, bad: "Ra3", want: "✗ Ra3 is not legal: no rook can reach a3 — White has no legal rook move (type moves for the legal moves)"},
		{name: "illegal castling", setup: []string{"e2e4"}, bad: "0-0", want: "✗ 0-0 is not legal: White cannot castle king side now"},
		{name: "illegal coordinates", setup: []string{"e2e4"}, bad: "g1g3", want: "✗ g1g3 is not legal: the knight on g1 cannot move to g3 — it can play Nf3, Nh3"},
		{name: "coordinates of the opponent", setup: []string{"e2e4"}, bad: "e7e5", want: "✗ e7e5 is not legal: the pawn on e7 is Black's, and it is White's move"},
		{name: "coordinates from an empty square", setup: []string{"e2e4"}, bad: "e4e5", want: "✗ e4e5 is not legal: there is no piece on e4"},
		{name: "ambiguous SAN", args: []string{"--fen", knightsFEN}, setup: []string{"e1d1"}, bad: "Nd2", want: "✗ Nd2 is ambiguous: pieces on b1 and f1 can all move there — type Nbd2 or Nfd2"},
		{name: "missing promotion piece in SAN", args: []string{"--fen", promoFEN}, setup: []string{"b6c6"}, bad: "e8", want: "✗ e8 promotes a pawn: add the piece, as in e8=Q"},
		{name: "missing promotion piece in coordinates", args: []string{"--fen", promoFEN}, setup: []string{"b6c6"}, bad: "e7e8", want: "✗ e7e8 promotes a pawn: add the piece, as in e7e8q"},
		{name: "bad promotion piece in SAN", args: []string{"--fen", promoFEN}, setup: []string{"b6c6"}, bad: "e8=K", want: `✗ "e8=K" is not a move: K is not a promotion piece: promote to Q, R, B or N, as in e8=Q`},
		{name: "bad promotion piece in coordinates", args: []string{"--fen", promoFEN}, setup: []string{"b6c6"}, bad: "e7e8k", want: `✗ "e7e8k" is not a move: "k" is not a promotion piece: use q, r, b or n, as in e7e8q`},
		{name: "SAN with a rank, not squares", setup: []string{"e2e4"}, bad: "R1a3", want: "✗ R1a3 is not legal: no rook can reach a3"},
		{name: "promotion that is not one", setup: []string{"e2e4"}, bad: "d2d4q", want: "✗ d2d4q is not legal: d2d4 is not a promotion"},
		{name: "move after the end", setup: banMate, bad: "a6", want: "✗ the game is over: White won by checkmate after a ban; type undo, new or load"},
		{name: "ban after the end", setup: banMate, bad: "b:a7a6", want: "✗ the game is over: White won by checkmate after a ban; type undo, new or load"},
		{name: "resign after the end", setup: banMate, bad: "resign", want: "✗ the game is over"},
		{name: "load a bad FEN", bad: "load 8/8/8/8/8/8/8/8 w - - 0 1", want: "✗ could not load it, the game is unchanged: FEN placement: White has 0 kings"},
		{name: "load a FEN with a bad ban", bad: "load rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2:e2e5", want: "✗ could not load it, the game is unchanged: FEN ban"},
		{name: "load a bad PGN", setup: []string{"e2e4"}, bad: "load 1. e4 e5 2. Ke3", want: "✗ could not load it, the game is unchanged: PGN move 2, White: Ke3"},
		{name: "load an overlong FEN", bad: "load 4k3/8/8/8/8/8/8/4K3 w - - 0 " + strings.Repeat("1", 200), want: "✗ could not load it, the game is unchanged: the FEN is 228 bytes long"},
		{name: "load gibberish", bad: "load hello world", want: "✗ could not load it, the game is unchanged"},
		{name: "save without a name", bad: "save", want: "✗ save needs a file name, as in: save game.pgn"},
		{name: "save to an unwritable path", bad: "save " + unwritable, want: "✗ could not save the game: open " + unwritable},
		{name: "new of an unknown variant", bad: "new chess960", want: `✗ "chess960" is not a variant: use "ban", "classic" or "en"` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := append(append(append([]string{}, tt.setup...), "fen", tt.bad), "fen")
			out, _, code := play(t, lines(input...), tt.args...)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			answer := after(out, tt.bad)
			answer, fenAfter, _ := strings.Cut(answer, "> fen\n")
			if !strings.Contains(answer, tt.want) {
				t.Errorf("answer to %q:\n%s\nwant %q", tt.bad, answer, tt.want)
			}
			if strings.Count(answer, "\n") != 1 {
				t.Errorf("a refusal is one line, got:\n%s", answer)
			}
			fenBefore := after(out[:strings.LastIndex(out, "> "+tt.bad+"\n")], "fen")
			if fenBefore != fenAfter {
				t.Errorf("the game changed: %q, then %q", fenBefore, fenAfter)
			}
		})
	}
}
