package terminal

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/banchess/banchess/rules"
)

// session is one player's conversation. It reads their lines and hands
// each to the part whose job it is: bans, moves and the commands that
// change the game to the game, go and analyse to the computer. It answers
// the commands that only read the game itself, drawn by the board and
// written by the printer.
type session struct {
	out      *printer
	board    *boardView
	game     *game
	computer *computer
	opts     options

	paste paste // a FEN or PGN pasted after a bare "load"
}

// newSession starts a conversation on svc as the flags in c ask (--unicode,
// --bot, --level), with no game yet (see game.open).
func newSession(svc services, out io.Writer, opts options, c config) *session {
	p := &printer{w: out, colour: opts.colour}
	board := &boardView{out: p, unicode: c.unicode}
	gm := &game{svc: svc.games, players: svc.players, out: p, board: board}
	var side rules.Color // none without --bot
	if c.bot != "" {
		side, _ = rules.ParseColor(c.bot) // parseFlags checked it
	}
	return &session{
		out:      p,
		board:    board,
		game:     gm,
		computer: &computer{game: gm, analysis: svc.analysis, out: p, side: side, level: c.level},
		opts:     opts,
	}
}

// command is one word the session understands.
type command struct {
	name, args, help string
	run              func(ctx context.Context, arg string) // nil for quit, which ends the session
}

// commands lists what the player can type besides bans and moves, new
// naming the variants the service plays. It is a method, not a package
// variable, so that no state is shared.
func (s *session) commands() []command {
	return []command{
		{name: "board", help: "show the board", run: noArg(s.showBoard)},
		{name: "moves", help: "list the legal actions now (bans or moves)", run: noArg(s.showMoves)},
		{name: "history", help: "the game so far, each ban before the move it restricted", run: noArg(s.showHistory)},
		{name: "fen", help: "the position as an extended FEN", run: noArg(s.showFEN)},
		{name: "pgn", help: "the game as PGN", run: noArg(s.showPGN)},
		{name: "save", args: "FILE", help: "write the game as PGN to FILE", run: s.save},
		{name: "load", args: "FEN|PGN|FILE", help: "start from a FEN or PGN (alone: paste lines, end with an empty one)", run: s.load},
		{name: "new", args: "[" + variantIDs(s.game.svc.Loader().Variants(), "|") + "]", help: "start a new game (of the same variant unless named)", run: s.newGame},
		{name: "undo", help: "take back the last ban or move", run: noArg(s.game.undo)},
		{name: "analyse", args: "[MS]", help: "the engine's best action, score and line (thinking MS milliseconds, 1000 by default)", run: s.computer.analyse},
		{name: "go", help: "let the computer (--bot) act now", run: noArg(s.computer.playNow)},
		{name: "flip", help: "turn the board round", run: noArg(s.flip)},
		{name: "resign", help: "the player to act resigns", run: noArg(s.game.resign)},
		{name: "draw", help: "end the game as a draw by agreement", run: noArg(s.game.draw)},
		{name: "help", help: "this list", run: noArg(s.help)},
		{name: "quit", help: "leave (also exit, or end of input)"},
	}
}

// noArg makes f a command's run, which ignores any argument typed.
func noArg(f func(ctx context.Context)) func(ctx context.Context, arg string) {
	return func(ctx context.Context, _ string) { f(ctx) }
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
	if s.paste.active {
		s.pasteLine(ctx, line)
		return false
	}
	text := strings.TrimSpace(line)
	if text == "" || strings.HasPrefix(text, "#") {
		return false
	}
	word, arg, _ := strings.Cut(text, " ")
	if c, ok := s.findCommand(word); ok {
		if c.run == nil {
			return true
		}
		c.run(ctx, strings.TrimSpace(arg))
		return false
	}
	if isWord(text) {
		s.unknownCommand(text)
		return false
	}
	if s.game.act(ctx, text) {
		s.computer.play(ctx)
	}
	return false
}

// welcome opens the session.
func (s *session) welcome(ctx context.Context, note string) {
	s.game.view(ctx, func(g *rules.Game) {
		s.out.say("%s in the terminal. Type help for the commands, quit to leave.", g.Variant().Name())
		if note != "" {
			s.out.say("%s", note)
		}
		s.board.show(g)
	})
}

// endOfInput finishes a paste cut short by the end of input, and says bye.
func (s *session) endOfInput(ctx context.Context) {
	if text := s.paste.end(); text != "" {
		s.loadText(ctx, text)
	}
	if s.opts.interactive {
		s.out.print("\n")
	}
}

// showBoard writes the board.
func (s *session) showBoard(ctx context.Context) { s.game.view(ctx, s.board.show) }

// flip turns the board round and shows it.
func (s *session) flip(ctx context.Context) {
	s.board.flip()
	s.game.view(ctx, s.board.show)
}

// showFEN writes the position as an extended FEN.
func (s *session) showFEN(ctx context.Context) {
	s.game.view(ctx, func(g *rules.Game) { s.out.say("%s", g.FEN()) })
}

// showPGN writes the game as PGN.
func (s *session) showPGN(ctx context.Context) {
	s.game.view(ctx, func(g *rules.Game) { s.out.print(exportPGN(g, s.opts.now())) })
}

// exportPGN writes the game with this program as its site and today as its
// date, unless the game was read with tags of its own.
func exportPGN(g *rules.Game, today time.Time) string {
	if len(g.Record().Tags()) > 0 {
		return g.Record().PGN()
	}
	return g.Record().PGN(rules.Tag{Name: "Site", Value: "banchess play"},
		rules.Tag{Name: "Date", Value: today.Format("2006.01.02")})
}

// save writes the game as PGN to the file named.
func (s *session) save(ctx context.Context, file string) {
	if file == "" {
		s.out.refuse("save needs a file name, as in: save game.pgn")
		return
	}
	var pgn string
	if !s.game.view(ctx, func(g *rules.Game) { pgn = exportPGN(g, s.opts.now()) }) {
		return
	}
	if err := os.WriteFile(file, []byte(pgn), 0o644); err != nil {
		s.out.refuse("could not save the game: %v", err)
		return
	}
	s.out.say("Saved the game as PGN to %s.", file)
}

// showHistory writes the game so far, numbered by moves.
func (s *session) showHistory(ctx context.Context) {
	s.game.view(ctx, func(g *rules.Game) {
		for _, line := range historyLines(g) {
			s.out.say("%s", line)
		}
	})
}

// showMoves lists the legal actions now.
func (s *session) showMoves(ctx context.Context) { s.game.view(ctx, s.showLegal) }

// showLegal lists the legal actions of g: bans by their squares, moves in
// SAN.
func (s *session) showLegal(g *rules.Game) {
	if o := g.Outcome(); o.Over() {
		s.out.say("No legal actions: the game is over (%s).", o)
		return
	}
	legal := g.Legal()
	t := g.Turn()
	if t.Phase == rules.PhaseBan {
		if len(legal) == 1 {
			s.out.say("%s bans %s's only move, by its squares:", t.Actor.Name(), t.ToMove.Name())
		} else {
			s.out.say("%s bans one of %s's %d moves, by its squares:", t.Actor.Name(), t.ToMove.Name(), len(legal))
		}
		coords := make([]string, len(legal))
		for i, a := range legal {
			coords[i] = a.Coords()
		}
		s.out.wrapped(coords)
		return
	}
	head := fmt.Sprintf("%s has %d legal moves", t.Actor.Name(), len(legal))
	if len(legal) == 1 {
		head = fmt.Sprintf("%s has one legal move", t.Actor.Name())
	}
	if ban, ok := g.Ban(); ok {
		head += fmt.Sprintf(" (%s is banned)", ban)
	}
	s.out.say("%s:", head)
	s.out.wrapped(sans(g, legal))
}

// load starts from the FEN or PGN in arg, or in the file it names; alone,
// it starts a paste.
func (s *session) load(ctx context.Context, arg string) {
	if arg == "" {
		s.paste.start()
		s.out.say("Paste a FEN, or a PGN followed by an empty line.")
		return
	}
	text := arg
	if data, err := os.ReadFile(arg); err == nil { // a file, else the text itself
		text = string(data)
	}
	s.loadText(ctx, text)
}

// pasteLine adds one line to the paste, and loads what was pasted once it
// is complete.
func (s *session) pasteLine(ctx context.Context, line string) {
	text, done := s.paste.add(line)
	switch {
	case !done:
	case strings.TrimSpace(text) == "":
		s.out.refuse("nothing to load: the game goes on")
	default:
		s.loadText(ctx, text)
	}
}

// newGame starts a new game of variant, or of the current game's, and
// lets the computer play if it is its turn.
func (s *session) newGame(ctx context.Context, variant string) {
	if s.game.start(ctx, variant) {
		s.computer.play(ctx)
	}
}

// loadText replaces the game by one read from text (see game.load), and
// lets the computer play if it is its turn.
func (s *session) loadText(ctx context.Context, text string) {
	if s.game.load(ctx, text) {
		s.computer.play(ctx)
	}
}

// help lists how to play and the commands, and says whose turn it is.
func (s *session) help(ctx context.Context) {
	s.out.say("Play by typing a ban or a move on its own line:")
	s.out.say("  a ban:  a move of the side to be banned, by its squares or in SAN: e2e4 or e4 (or b:e2e4)")
	s.out.say("  a move: SAN (Nf3, exd5, O-O or 0-0, e8=Q, + and # optional)")
	s.out.say("          or squares (g1f3, e7e8q, m:g1f3)")
	s.out.say("Before every move the opponent bans one of the mover's moves; Black bans first.")
	s.out.say("Commands:")
	for _, c := range s.commands() {
		name := c.name
		if c.args != "" {
			name += " " + c.args
		}
		s.out.say("  %-20s %s", name, c.help)
	}
	s.game.view(ctx, func(g *rules.Game) {
		if !g.Outcome().Over() {
			s.out.say("Now: %s.", turnSentence(g.Turn()))
		}
	})
}

// turnSentence says who acts and what they do: "White bans a Black move".
func turnSentence(t rules.Turn) string {
	if t.Phase == rules.PhaseBan {
		return fmt.Sprintf("%s bans a %s move", t.Actor.Name(), t.ToMove.Name())
	}
	return fmt.Sprintf("%s moves", t.Actor.Name())
}
