package views

import (
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// NewDrill describes the board of a lesson's step or a puzzle: g seen
// from side, which the viewer plays when play says so (else the board is
// read-only), with the game page's board, status and promotion picker —
// built by the same code — and paths of its own (Paths.Select, Ply and
// Page). hint, when not "", says what the page waits for instead of how
// to act.
func NewDrill(g *rules.Game, side rules.Color, play bool, site Site, o Options, paths Paths, hint string) Game {
	perm := games.Permissions{Seats: games.Seats{White: side == rules.White, Black: side == rules.Black}, Side: side, Play: play}
	m := describeGame(g, Info{Site: site, Perm: perm}, o, lastMove(g))
	m.Paths = paths
	m.Board.ReadOnly = !play
	m.Status = drillStatus(o.Lang, g, side)
	if hint != "" {
		m.Hint = hint
	}
	return m
}

// drillStatus says what the position asks of the viewer, who plays side:
// "You are White: your ban", "You are Black: your move — e2→e4 is
// banned", or how the game ended.
func drillStatus(l *i18n.Language, g *rules.Game, side rules.Color) string {
	if o := g.Outcome(); o.Over() {
		return Banner(l, o)
	}
	t := g.Turn()
	if t.Actor != side {
		return l.T(byPhase(rules.Turn{Actor: side, Phase: t.Phase}, "train.status.waitBan.w", "train.status.waitBan.b", "train.status.waitMove.w", "train.status.waitMove.b"))
	}
	if t.Phase == rules.PhaseBan {
		return l.T(bySide(side, "train.status.ban.w", "train.status.ban.b"))
	}
	s := l.T(bySide(side, "train.status.move.w", "train.status.move.b"))
	if g.InCheck() {
		s += " " + l.T("status.inCheck")
	}
	if ban, ok := g.Ban(); ok {
		s += " — " + l.T("status.banned", "Pair", arrowPair(ban))
	}
	return s
}
