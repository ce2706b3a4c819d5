package terminal

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// session is one player's conversation: the game it plays through the
// service, how the board is drawn, and where the answers go.
type session struct {
	svc  *games.Service
	cred games.Credential // holds both seats of the session's games
	id   string           // the current game's

	out     io.Writer
	opts    options
	unicode bool
	flipped bool // Black at the bottom

	bot   rules.Color // the side the computer plays; none when 0
	level int         // the computer's level

	// pasting collects the lines of a FEN or PGN after a bare "load", until
	// an empty line.
	pasting bool
	paste   []string
}

// newSession starts a conversation on svc, with no game yet (see open).
func newSession(svc *games.Service, out io.Writer, opts options, unicode bool) *session {
	return &session{svc: svc, out: out, opts: opts, unicode: unicode}
}

// command is one word the session understands.
type command struct {
	name, args, help string
	run              func(s *session, ctx context.Context, arg string) (quit bool)
}

// commands lists what the player can type besides bans and moves, new
// naming the variants the service plays. It is a method, not a package
// variable, so that no state is shared.
func (s *session) commands() []command {
	return []command{
		{name: "board", help: "show the board", run: (*session).cmdBoard},
		{name: "moves", help: "list the legal actions now (bans or moves)", run: (*session).cmdMoves},
		{name: "history", help: "the game so far, each ban before the move it restricted", run: (*session).cmdHistory},
		{name: "fen", help: "the position as an extended FEN", run: (*session).cmdFEN},
		{name: "pgn", help: "the game as PGN", run: (*session).cmdPGN},
		{name: "save", args: "FILE", help: "write the game as PGN to FILE", run: (*session).cmdSave},
		{name: "load", args: "FEN|PGN|FILE", help: "start from a FEN or PGN (alone: paste lines, end with an empty one)", run: (*session).cmdLoad},
		{name: "new", args: "[" + variantIDs(s.svc.Variants(), "|") + "]", help: "start a new game (of the same variant unless named)", run: (*session).cmdNew},
		{name: "undo", help: "take back the last ban or move", run: (*session).cmdUndo},
		{name: "analyse", args: "[MS]", help: "the engine's best action, score and line (thinking MS milliseconds, 1000 by default)", run: (*session).cmdAnalyse},
		{name: "go", help: "let the computer (--bot) act now", run: (*session).cmdGo},
		{name: "flip", help: "turn the board round", run: (*session).cmdFlip},
		{name: "resign", help: "the player to act resigns", run: (*session).cmdResign},
		{name: "draw", help: "end the game as a draw by agreement", run: (*session).cmdDraw},
		{name: "help", help: "this list", run: (*session).cmdHelp},
		{name: "quit", help: "leave (also exit, or end of input)", run: (*session).cmdQuit},
	}
}

// findCommand returns the command named word, in any case; "exit" is quit.
func (s *session) findCommand(word string) (command, bool) {
	word = strings.ToLower(word)
	if word == "exit" {
		word = "quit"
	}
	for _, c := range s.commands() {
		if c.name == word {
			return c, true
		}
	}
	return command{}, false
}

// handle answers one line of input. It reports whether the player quit.
func (s *session) handle(ctx context.Context, line string) bool {
	if s.pasting {
		s.pasteLine(ctx, line)
		return false
	}
	text := strings.TrimSpace(line)
	if text == "" || strings.HasPrefix(text, "#") {
		return false
	}
	word, arg, _ := strings.Cut(text, " ")
	if c, ok := s.findCommand(word); ok {
		return c.run(s, ctx, strings.TrimSpace(arg))
	}
	s.act(ctx, text)
	return false
}

// welcome opens the session.
func (s *session) welcome(ctx context.Context, note string) {
	s.view(ctx, func(g *rules.Game) {
		s.say("%s in the terminal. Type help for the commands, quit to leave.", g.Variant().Name())
		if note != "" {
			s.say("%s", note)
		}
		s.showBoard(g)
	})
}

// prompt asks for the next line on a terminal.
func (s *session) prompt() { fmt.Fprint(s.out, "> ") }

// echo repeats a line read from a pipe after the prompt, so that the output
// reads as the conversation it was.
func (s *session) echo(line string) { fmt.Fprintf(s.out, "> %s\n", line) }

// endOfInput finishes a paste cut short by the end of input, and says bye.
func (s *session) endOfInput(ctx context.Context) {
	if s.pasting {
		s.pasting = false
		if len(s.paste) > 0 {
			s.load(ctx, strings.Join(s.paste, "\n"))
		}
	}
	if s.opts.interactive {
		fmt.Fprintln(s.out)
	}
}

// say writes one line of answer.
func (s *session) say(format string, args ...any) {
	fmt.Fprintf(s.out, format+"\n", args...)
}

// refuse writes why an input was refused; nothing has changed.
func (s *session) refuse(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(s.out, s.paint(red, "✗ "+msg))
}

func (s *session) cmdBoard(ctx context.Context, _ string) bool {
	s.view(ctx, s.showBoard)
	return false
}

func (s *session) cmdFlip(ctx context.Context, _ string) bool {
	s.flipped = !s.flipped
	s.view(ctx, s.showBoard)
	return false
}

func (s *session) cmdFEN(ctx context.Context, _ string) bool {
	s.view(ctx, func(g *rules.Game) { s.say("%s", g.FEN()) })
	return false
}

func (s *session) cmdPGN(ctx context.Context, _ string) bool {
	s.view(ctx, func(g *rules.Game) { fmt.Fprint(s.out, s.pgn(g)) })
	return false
}

// pgn writes the game with this program as its site and today as its date,
// unless the game was read with tags of its own.
func (s *session) pgn(g *rules.Game) string {
	if len(g.Record().Tags()) > 0 {
		return g.Record().PGN()
	}
	return g.Record().PGN(rules.Tag{Name: "Site", Value: "banchess play"},
		rules.Tag{Name: "Date", Value: s.opts.now().Format("2006.01.02")})
}

func (s *session) cmdSave(ctx context.Context, arg string) bool {
	if arg == "" {
		s.refuse("save needs a file name, as in: save game.pgn")
		return false
	}
	var pgn string
	if !s.view(ctx, func(g *rules.Game) { pgn = s.pgn(g) }) {
		return false
	}
	if err := os.WriteFile(arg, []byte(pgn), 0o644); err != nil {
		s.refuse("could not save the game: %v", err)
		return false
	}
	s.say("Saved the game as PGN to %s.", arg)
	return false
}

func (s *session) cmdHistory(ctx context.Context, _ string) bool {
	s.view(ctx, func(g *rules.Game) {
		for _, line := range historyLines(g) {
			s.say("%s", line)
		}
	})
	return false
}

func (s *session) cmdMoves(ctx context.Context, _ string) bool {
	s.view(ctx, s.showMoves)
	return false
}

// showMoves lists the legal actions now: bans by their squares, moves in
// SAN.
func (s *session) showMoves(g *rules.Game) {
	if o := g.Outcome(); o.Over() {
		s.say("No legal actions: the game is over (%s).", o)
		return
	}
	legal := g.Legal()
	t := g.Turn()
	if t.Phase == rules.PhaseBan {
		if len(legal) == 1 {
			s.say("%s bans %s's only move, by its squares:", t.Actor.Name(), t.ToMove.Name())
		} else {
			s.say("%s bans one of %s's %d moves, by its squares:", t.Actor.Name(), t.ToMove.Name(), len(legal))
		}
		coords := make([]string, len(legal))
		for i, a := range legal {
			coords[i] = a.Coords()
		}
		s.wrapped(coords)
		return
	}
	head := fmt.Sprintf("%s has %d legal moves", t.Actor.Name(), len(legal))
	if len(legal) == 1 {
		head = fmt.Sprintf("%s has one legal move", t.Actor.Name())
	}
	if ban, ok := g.Ban(); ok {
		head += fmt.Sprintf(" (%s is banned)", ban)
	}
	s.say("%s:", head)
	s.wrapped(sans(g, legal))
}

// wrapped writes words indented, in lines of at most 72 columns.
func (s *session) wrapped(words []string) {
	var b strings.Builder
	col := 0
	for _, w := range words {
		if col > 0 && col+1+len(w) > 72 {
			b.WriteByte('\n')
			col = 0
		}
		if col == 0 {
			b.WriteString(" ")
			col = 1
		}
		b.WriteString(" " + w)
		col += 1 + len(w)
	}
	s.say("%s", b.String())
}

func (s *session) cmdLoad(ctx context.Context, arg string) bool {
	if arg == "" {
		s.pasting, s.paste = true, nil
		s.say("Paste a FEN, or a PGN followed by an empty line.")
		return false
	}
	text := arg
	if data, err := os.ReadFile(arg); err == nil { // a file, else the text itself
		text = string(data)
	}
	s.load(ctx, text)
	return false
}

// pasteLine collects one line of a pasted FEN or PGN. A FEN is one line and
// loads at once; a PGN ends at an empty line after its moves (the empty line
// between its tags and its moves does not end it).
func (s *session) pasteLine(ctx context.Context, line string) {
	text := strings.TrimSpace(line)
	switch {
	case text != "" && len(s.paste) == 0 && rules.LooksLikeFEN(text):
		s.paste = []string{text}
	case text != "":
		s.paste = append(s.paste, line)
		return
	case onlyTags(s.paste):
		return
	}
	s.pasting = false
	pasted := strings.Join(s.paste, "\n")
	s.paste = nil
	if strings.TrimSpace(pasted) == "" {
		s.refuse("nothing to load: the game goes on")
		return
	}
	s.load(ctx, pasted)
}

// onlyTags reports whether lines are PGN tag pairs only, at least one.
func onlyTags(lines []string) bool {
	for _, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "[") {
			return false
		}
	}
	return len(lines) > 0
}

// load replaces the game by one read from a FEN (of the current variant) or
// a PGN (whose text decides the variant). A bad text changes nothing.
func (s *session) load(ctx context.Context, text string) {
	variant, ok := s.variant(ctx)
	if !ok {
		return
	}
	g, err := s.svc.FromText(text, variant)
	if err != nil {
		s.refuse("could not load it, the game is unchanged: %s", reason(err))
		return
	}
	s.replace(ctx, g, func(g *rules.Game) {
		s.say("Loaded a %s game.", g.Variant().Name())
		if note := chessGameNote(g); note != "" {
			s.say("%s", note)
		}
	})
}

// variant returns the id of the current game's variant.
func (s *session) variant(ctx context.Context) (id string, ok bool) {
	ok = s.view(ctx, func(g *rules.Game) { id = g.Variant().ID() })
	return id, ok
}

// replace makes g the session's game, introduced by intro and shown.
func (s *session) replace(ctx context.Context, g *rules.Game, intro func(g *rules.Game)) {
	if err := s.open(ctx, g); err != nil {
		s.refuse("%s", reason(err))
		return
	}
	s.view(ctx, func(g *rules.Game) {
		intro(g)
		s.showBoard(g)
	})
	s.botTurn(ctx)
}

// chessGameNote explains a game read from a PGN without bans.
func chessGameNote(g *rules.Game) string {
	if !g.Record().FromChessGame() {
		return ""
	}
	return "That PGN has no bans: it is a Classic game of all its moves. To play Ban Chess from a position, load its FEN."
}

func (s *session) cmdNew(ctx context.Context, variant string) bool {
	if variant == "" {
		var ok bool
		if variant, ok = s.variant(ctx); !ok {
			return false
		}
	}
	g, err := s.svc.NewGame(variant)
	if err != nil {
		s.refuse("%s", reason(err))
		return false
	}
	s.replace(ctx, g, func(g *rules.Game) { s.say("New %s game.", g.Variant().Name()) })
	return false
}

func (s *session) cmdUndo(ctx context.Context, _ string) bool {
	var board string
	undone, err := s.svc.Undo(ctx, s.id, s.cred, func(_ games.Undone, rec *games.Record, _ games.Seats) { board = s.board(rec.Game) })
	switch {
	case err != nil && errs.Of(err).Code == errs.Conflict: // the only conflict at an undo
		s.refuse("nothing to undo: the game is at its start")
		return false
	case err != nil:
		s.refuse("%s", reason(err))
		return false
	case undone.Declared.Over():
		s.say("Took back the end of the game.")
	case undone.Ply.Action.Phase == rules.PhaseBan:
		s.say("Took back the ban %s.", undone.Ply.Action.Coords())
	default:
		s.say("Took back the move %s.", undone.Ply.SAN)
	}
	fmt.Fprint(s.out, board)
	return false
}

func (s *session) cmdResign(ctx context.Context, _ string) bool {
	var actor rules.Color
	if !s.view(ctx, func(g *rules.Game) { actor = g.Turn().Actor }) {
		return false
	}
	if err := s.svc.Resign(ctx, s.id, s.cred, actor, onGame(s.announceEnd)); err != nil {
		s.refuse("%s", refusal(err))
	}
	return false
}

func (s *session) cmdDraw(ctx context.Context, _ string) bool {
	if err := s.svc.Draw(ctx, s.id, s.cred, onGame(s.announceEnd)); err != nil {
		s.refuse("%s", refusal(err))
	}
	return false
}

func (s *session) cmdQuit(context.Context, string) bool { return true }

func (s *session) cmdHelp(ctx context.Context, _ string) bool {
	s.say("Play by typing a ban or a move on its own line:")
	s.say("  a ban:  a move of the side to be banned, by its squares or in SAN: e2e4 or e4 (or b:e2e4)")
	s.say("  a move: SAN (Nf3, exd5, O-O or 0-0, e8=Q, + and # optional)")
	s.say("          or squares (g1f3, e7e8q, m:g1f3)")
	s.say("Before every move the opponent bans one of the mover's moves; Black bans first.")
	s.say("Commands:")
	for _, c := range s.commands() {
		name := c.name
		if c.args != "" {
			name += " " + c.args
		}
		s.say("  %-20s %s", name, c.help)
	}
	s.view(ctx, func(g *rules.Game) {
		if !g.Outcome().Over() {
			s.say("Now: %s.", turnSentence(g.Turn()))
		}
	})
	return false
}

// turnSentence says who acts and what they do: "White bans a Black move".
func turnSentence(t rules.Turn) string {
	if t.Phase == rules.PhaseBan {
		return fmt.Sprintf("%s bans a %s move", t.Actor.Name(), t.ToMove.Name())
	}
	return fmt.Sprintf("%s moves", t.Actor.Name())
}

// announceEnd tells the result and reason of a game just ended.
func (s *session) announceEnd(g *rules.Game) {
	o := g.Outcome()
	s.say("%s", s.paint(bold, fmt.Sprintf("Game over: %s (%s).", sentenceCase(o.String()), o.Result())))
	s.say("Type undo to take back, new or load to play again, pgn or save FILE to keep the game, quit to leave.")
}

func sentenceCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
