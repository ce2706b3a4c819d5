package terminal

import (
	"context"
	"io"
	"os"
	"strings"
	"time"

	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/ruletext"
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
	// --lang names a language; the environment's is matched as a browser's is.
	p := &printer{w: out, colour: opts.colour, lang: i18n.Builtin().Choose(c.lang, opts.lang)}
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
		{name: "board", help: s.out.lang.T("term.cmd.board"), run: noArg(s.showBoard)},
		{name: "moves", help: s.out.lang.T("term.cmd.moves"), run: noArg(s.showMoves)},
		{name: "history", help: s.out.lang.T("term.cmd.history"), run: noArg(s.showHistory)},
		{name: "fen", help: s.out.lang.T("term.cmd.fen"), run: noArg(s.showFEN)},
		{name: "pgn", help: s.out.lang.T("term.cmd.pgn"), run: noArg(s.showPGN)},
		{name: "save", args: "FILE", help: s.out.lang.T("term.cmd.save"), run: s.save},
		{name: "load", args: "FEN|PGN|FILE", help: s.out.lang.T("term.cmd.load"), run: s.load},
		{name: "new", args: "[" + variantIDs(s.game.svc.Loader().Variants(), "|") + "]", help: s.out.lang.T("term.cmd.new"), run: s.newGame},
		{name: "undo", help: s.out.lang.T("term.cmd.undo"), run: noArg(s.game.undo)},
		{name: "analyse", args: "[MS]", help: s.out.lang.T("term.cmd.analyse"), run: s.computer.analyse},
		{name: "go", help: s.out.lang.T("term.cmd.go"), run: noArg(s.computer.playNow)},
		{name: "flip", help: s.out.lang.T("term.cmd.flip"), run: noArg(s.flip)},
		{name: "resign", help: s.out.lang.T("term.cmd.resign"), run: noArg(s.game.resign)},
		{name: "draw", help: s.out.lang.T("term.cmd.draw"), run: noArg(s.game.draw)},
		{name: "help", help: s.out.lang.T("term.cmd.help"), run: noArg(s.help)},
		{name: "quit", help: s.out.lang.T("term.cmd.quit")},
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
		s.out.tell("term.welcome", "Variant", g.Variant().Name())
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
	s.out.tell("term.saved", "File", file)
}

// showHistory writes the game so far, numbered by moves.
func (s *session) showHistory(ctx context.Context) {
	s.game.view(ctx, func(g *rules.Game) {
		for _, line := range historyLines(s.out.lang, g) {
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
		s.out.tell("term.noLegal", "Ending", ruletext.Ending(s.out.lang, o))
		return
	}
	legal := g.Legal()
	t := g.Turn()
	if t.Phase == rules.PhaseBan {
		if len(legal) == 1 {
			s.out.tell(sided(t.Actor, "term.banOnly.w", "term.banOnly.b"))
		} else {
			s.out.say("%s", s.out.lang.N(sided(t.Actor, "term.banOneOf.w", "term.banOneOf.b"), len(legal)))
		}
		coords := make([]string, len(legal))
		for i, a := range legal {
			coords[i] = a.Coords()
		}
		s.out.wrapped(coords)
		return
	}
	head := s.out.lang.N(sided(t.Actor, "term.legalMoves.w", "term.legalMoves.b"), len(legal))
	if ban, ok := g.Ban(); ok {
		head += " " + s.out.lang.T("term.legalBanned", "Ban", ban)
	}
	s.out.say("%s:", head)
	s.out.wrapped(sans(g, legal))
}

// load starts from the FEN or PGN in arg, or in the file it names; alone,
// it starts a paste.
func (s *session) load(ctx context.Context, arg string) {
	if arg == "" {
		s.paste.start()
		s.out.tell("term.paste")
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
	for _, id := range []string{"term.help.intro", "term.help.ban", "term.help.move", "term.help.squares", "term.help.rule", "term.help.commands"} {
		s.out.tell(id)
	}
	for _, c := range s.commands() {
		name := c.name
		if c.args != "" {
			name += " " + c.args
		}
		s.out.say("  %-20s %s", name, c.help)
	}
	s.game.view(ctx, func(g *rules.Game) {
		if !g.Outcome().Over() {
			s.out.tell("term.now", "Turn", turnSentence(s.out.lang, g.Turn()))
		}
	})
}

// turnSentence says who acts and what they do: "White bans a Black move".
func turnSentence(l *i18n.Language, t rules.Turn) string {
	if t.Phase == rules.PhaseBan {
		return l.T(sided(t.Actor, "term.turn.ban.w", "term.turn.ban.b"))
	}
	return l.T(sided(t.Actor, "term.turn.move.w", "term.turn.move.b"))
}

// sided is the message id for White or for Black: each sentence that
// names a side is written whole for each.
func sided(c rules.Color, white, black string) string {
	if c == rules.White {
		return white
	}
	return black
}
