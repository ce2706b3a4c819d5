package terminal

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/ruletext"
)

// game is the session's current game and what the player does to it. It
// is kept where the web and the API keep theirs: in a games.Service, which
// creates games, applies actions and decides refusals. game holds a
// credential with both seats of every game it creates and the id of the
// current one; it touches a game only inside the service's callbacks,
// under the game's lock. It tells the player what each action changed.
type game struct {
	svc     *games.Service
	players *players.Service   // issues the session's player its credential
	cred    players.Credential // holds both seats of the session's games
	id      string             // the current game's

	out   *printer
	board *boardView // shown after every change
}

// open stores g as a new game and makes it the session's game, in place of
// the one before. g must not be used afterwards except through the
// service. The first opens the session's player, whose credential holds
// the seats of every game it makes.
func (gm *game) open(ctx context.Context, g *rules.Game) error {
	if gm.cred == "" {
		cred, _, err := gm.players.NewPlayer(ctx, players.Cookie)
		if err != nil {
			return err
		}
		gm.cred = cred
	}
	id, err := gm.svc.Create(ctx, gm.cred, g)
	if err != nil {
		return err
	}
	gm.id = id
	return nil
}

// view runs fn on the current game, which it must not change, under the
// game's lock: fn must not call the service. view reports whether fn ran;
// when the service fails (a cancelled context) it says so instead.
func (gm *game) view(ctx context.Context, fn func(g *rules.Game)) bool {
	if err := gm.svc.View(ctx, gm.id, gm.cred, onGame(fn)); err != nil {
		gm.out.refuse("%s", reason(err))
		return false
	}
	return true
}

// over reports whether the game has ended (or cannot be read).
func (gm *game) over(ctx context.Context) bool {
	over := true
	gm.view(ctx, func(g *rules.Game) { over = g.Outcome().Over() })
	return over
}

// variant returns the id of the game's variant.
func (gm *game) variant(ctx context.Context) (id string, ok bool) {
	ok = gm.view(ctx, func(g *rules.Game) { id = g.Variant().ID() })
	return id, ok
}

// act plays a line that is not a command: a ban or a move, whichever the
// turn asks for, as the service reads typed input. Anything refused is
// explained and changes nothing. act reports whether text was played.
func (gm *game) act(ctx context.Context, text string) bool {
	err := gm.svc.Play(ctx, gm.id, gm.cred, games.Input{Text: text}, onGame(gm.played))
	if err == nil {
		return true
	}
	switch e := errs.Of(err); e.Code {
	case errs.Invalid, errs.Illegal, errs.Banned:
		gm.view(ctx, func(g *rules.Game) { gm.out.refuse("%s", explanation(g, text, e)) })
	default: // over, or the service failed
		gm.out.refuse("%s", refusal(e))
	}
	return false
}

// played tells the ban or move just played and shows the game after it.
func (gm *game) played(g *rules.Game) {
	last, _ := g.LastAction()
	actor := g.ToMove().Other() // a move passes the turn; a ban is made by the mover's opponent
	if last.Phase == rules.PhaseBan {
		gm.announceBan(g, actor, last.Pair())
	} else {
		gm.out.tell(sided(actor, "term.plays.w", "term.plays.b"), "Move", lastLog(g))
	}
	gm.afterPly(g)
}

// announceBan tells the ban of pair just made by actor, with the move's
// SAN when it differs: "Black bans g1f3 (Nf3)."
func (gm *game) announceBan(g *rules.Game, actor rules.Color, pair rules.Pair) {
	if san, err := sanOfPair(g, pair); err == nil && san != pair.String() {
		gm.out.tell(sided(actor, "term.bansSAN.w", "term.bansSAN.b"), "Pair", pair, "SAN", strings.TrimRight(san, "+#"))
		return
	}
	gm.out.tell(sided(actor, "term.bans.w", "term.bans.b"), "Pair", pair)
}

// lastLog returns the last entry of the action log.
func lastLog(g *rules.Game) string {
	log := g.Record().Log()
	return log[len(log)-1]
}

// afterPly shows the board after a ban or move, and the end of the game if
// it came.
func (gm *game) afterPly(g *rules.Game) {
	if g.Outcome().Over() { // the end is told once, under the board
		gm.out.print(gm.board.render(g))
		gm.announceEnd(g)
		return
	}
	gm.board.show(g)
}

// announceEnd tells the result and reason of a game just ended.
func (gm *game) announceEnd(g *rules.Game) {
	o := g.Outcome()
	gm.out.say("%s", gm.out.paint(bold, gm.out.lang.T("term.over", "Ending", sentenceCase(ruletext.Ending(gm.out.lang, o)), "Result", o.Result())))
	gm.out.tell("term.afterEnd")
}

func sentenceCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// load replaces the game by one read from a FEN (of the current variant)
// or a PGN (whose text decides the variant). A bad text changes nothing.
// load reports whether the game was replaced.
func (gm *game) load(ctx context.Context, text string) bool {
	variant, ok := gm.variant(ctx)
	if !ok {
		return false
	}
	g, err := gm.svc.Loader().FromText(text, variant)
	if err != nil {
		gm.out.refuse("could not load it, the game is unchanged: %s", reason(err))
		return false
	}
	return gm.replace(ctx, g, func(g *rules.Game) {
		gm.out.tell("term.loaded", "Variant", g.Variant().Name())
		if note := chessGameNote(g); note != "" {
			gm.out.say("%s", note)
		}
	})
}

// chessGameNote explains a game read from a PGN without bans.
func chessGameNote(g *rules.Game) string {
	if !g.Record().FromChessGame() {
		return ""
	}
	return "That PGN has no bans: it is a Classic game of all its moves. To play Ban Chess from a position, load its FEN."
}

// start replaces the game by a new one of variant, or of the current
// game's variant when it is empty. It reports whether it did.
func (gm *game) start(ctx context.Context, variant string) bool {
	if variant == "" {
		var ok bool
		if variant, ok = gm.variant(ctx); !ok {
			return false
		}
	}
	g, err := gm.svc.Loader().NewGame(variant)
	if err != nil {
		gm.out.refuse("%s", reason(err))
		return false
	}
	return gm.replace(ctx, g, func(g *rules.Game) { gm.out.tell("term.new", "Variant", g.Variant().Name()) })
}

// replace makes g the session's game, introduced by intro and shown. It
// reports whether g was stored (shown or not).
func (gm *game) replace(ctx context.Context, g *rules.Game, intro func(g *rules.Game)) bool {
	if err := gm.open(ctx, g); err != nil {
		gm.out.refuse("%s", reason(err))
		return false
	}
	gm.view(ctx, func(g *rules.Game) {
		intro(g)
		gm.board.show(g)
	})
	return true
}

// undo takes back the last ban or move, or the end of the game.
func (gm *game) undo(ctx context.Context) {
	var board string
	undone, err := gm.svc.Undo(ctx, gm.id, gm.cred, func(_ games.Undone, rec *games.Record, _ games.Seats) { board = gm.board.text(rec.Game) })
	switch {
	case err != nil && errs.Of(err).Code == errs.Conflict: // the only conflict at an undo
		gm.out.refuse("nothing to undo: the game is at its start")
		return
	case err != nil:
		gm.out.refuse("%s", reason(err))
		return
	case undone.Declared.Over():
		gm.out.tell("term.tookBackEnd")
	case undone.Ply.Action.Phase == rules.PhaseBan:
		gm.out.tell("term.tookBackBan", "Ban", undone.Ply.Action.Coords())
	default:
		gm.out.tell("term.tookBackMove", "Move", undone.Ply.SAN)
	}
	gm.out.print(board)
}

// resign ends the game: the player to act resigns.
func (gm *game) resign(ctx context.Context) {
	var actor rules.Color
	if !gm.view(ctx, func(g *rules.Game) { actor = g.Turn().Actor }) {
		return
	}
	if err := gm.svc.Resign(ctx, gm.id, gm.cred, actor, onGame(gm.announceEnd)); err != nil {
		gm.out.refuse("%s", refusal(err))
	}
}

// draw ends the game as a draw by agreement.
func (gm *game) draw(ctx context.Context) {
	if err := gm.svc.Draw(ctx, gm.id, gm.cred, onGame(gm.announceEnd)); err != nil {
		gm.out.refuse("%s", refusal(err))
	}
}

// onGame adapts fn to a games.ViewFunc. The session holds both seats of its
// games, so fn needs only the game.
func onGame(fn func(g *rules.Game)) games.ViewFunc {
	return func(rec *games.Record, _ games.Seats) { fn(rec.Game) }
}

// reason words a refusal as the terminal writes refusals: lower case and
// without a full stop, so that a hint can follow. When the rules refused
// an action it is their own words, which quote the input as typed; else it
// is the service's message so reworded (never the cause of a failure,
// which is for logs).
func reason(err error) string {
	e := errs.Of(err)
	if e == nil {
		return ""
	}
	// Only a direct cause: an action refused inside a PGN is worded with
	// where it is, by the PGN's error.
	if ae, ok := e.Err.(*rules.ActionError); ok {
		return ae.Error()
	}
	return clause(e.Msg)
}

// clause turns a sentence into a clause: its first word in lower case
// unless it is a name or an abbreviation ("FEN", "PGN", "Black"), and
// without its full stop.
func clause(msg string) string {
	msg = strings.TrimSuffix(msg, ".")
	r, n := utf8.DecodeRuneInString(msg)
	word, _, _ := strings.Cut(msg, " ")
	if !unicode.IsUpper(r) || word == rules.White.Name() || word == rules.Black.Name() {
		return msg
	}
	if next, _ := utf8.DecodeRuneInString(msg[n:]); !unicode.IsLower(next) {
		return msg
	}
	return string(unicode.ToLower(r)) + msg[n:]
}

// refusal words an action the service refused without needing the game:
// one after the end, with what to do instead, or any other by its reason.
func refusal(err error) string {
	if errs.Of(err).Code == errs.GameOver {
		return reason(err) + "; type undo, new or load"
	}
	return reason(err)
}
