package views

import (
	"fmt"
	"strings"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// The words of the pages are written here (and in the .templ files), not
// where the view models are worked out: the seam for a translation.

// bySide is the id for White or for Black: each sentence that names a
// side is written whole for each, as languages decline colours' names.
func bySide(c rules.Color, white, black string) string {
	if c == rules.White {
		return white
	}
	return black
}

// byPhase is the id for a ban or for a move, of the side acting.
func byPhase(t rules.Turn, banW, banB, moveW, moveB string) string {
	if t.Phase == rules.PhaseBan {
		return bySide(t.Actor, banW, banB)
	}
	return bySide(t.Actor, moveW, moveB)
}

// statusLine says where the game stands at move number move, whose turn
// it is and, for a move, the ban in force (nil for none): "Move 2 ·
// White to move — e2→e4 is banned", "Move 9 · Game over". (The ply's
// number is in the page's data-ply and tooltips.)
func statusLine(l *i18n.Language, move int, turn rules.Turn, out rules.Outcome, inCheck bool, ban *rules.Pair) string {
	switch {
	case out.Over():
		return l.T("status.over", "Move", move)
	case turn.Phase == rules.PhaseBan:
		return l.T(bySide(turn.Actor, "status.ban.w", "status.ban.b"), "Move", move)
	}
	s := l.T(bySide(turn.Actor, "status.move.w", "status.move.b"), "Move", move)
	if inCheck {
		s += " " + l.T("status.inCheck")
	}
	if ban != nil {
		s += " — " + l.T("status.banned", "Pair", arrowPair(*ban))
	}
	return s
}

// hint says what the viewer, who may do perm, can do next: act (and how),
// wait for the other side or for the computer (thinking, at level), or
// browse a finished game; mustPass says their only move is EN-Chess's
// pass.
func hint(l *i18n.Language, turn rules.Turn, out rules.Outcome, perm games.Permissions, thinking bool, level int, mustPass bool) string {
	switch {
	case mustPass:
		return l.T(bySide(turn.Actor, "hint.pass.w", "hint.pass.b"))
	case out.Over() && !perm.Seats.Both():
		return l.T("hint.over.watch")
	case out.Over():
		return l.T("hint.over")
	case thinking:
		return l.T("hint.thinking", "Level", level)
	case !perm.Play:
		return l.T(byPhase(turn, "hint.wait.ban.w", "hint.wait.ban.b", "hint.wait.move.w", "hint.wait.move.b"))
	}
	return l.T(byPhase(turn, "hint.ban.w", "hint.ban.b", "hint.move.w", "hint.move.b"))
}

// overTitle is a finished game's title in its link preview: "Move 8 ·
// Game over · Checkmate by ban: … — White wins, 1-0".
func overTitle(status, banner string) string { return status + " · " + banner }

// viewCaption says what a history view shows: the position after ply p,
// of move number move ("Move 1 · White banned e5 (e7–e5)"), or the start
// (p nil).
func viewCaption(l *i18n.Language, p *rules.PlyInfo, move int) string {
	if p == nil {
		return l.T("view.start")
	}
	return l.T("view.caption", "Move", move, "Ply", describe(l, *p))
}

// viewTitle is a history view's tab title: "Move 1 · White banned e5
// (e7–e5) · ply 3 of 12 · Ban Chess".
func viewTitle(l *i18n.Language, caption string, index, plies int, variant string) string {
	return l.T("view.title", "Caption", caption, "Index", index, "Plies", plies, "Variant", variant)
}

// viewHint is what a history view says to do, in a game that goes on or
// one that is over.
func viewHint(l *i18n.Language, over bool) string {
	if over {
		return l.T("view.hint.over")
	}
	return l.T("view.hint")
}

// GameBanner describes how g ended: Banner, and for an ending by a ban,
// the move it banned ("Checkmate by ban: Black's only move, Ke7, was
// banned — White wins, 1-0").
func GameBanner(l *i18n.Language, g *rules.Game) string {
	o := g.Outcome()
	if o.Reason != rules.ByBan {
		return Banner(l, o)
	}
	ban, ok := g.Ban()
	if !ok {
		return Banner(l, o)
	}
	san, err := g.Notation().BanSAN(ban)
	if err != nil {
		return Banner(l, o)
	}
	if o.Status == rules.Stalemate {
		return l.T(bySide(g.ToMove(), "banner.stalemateByBan.w", "banner.stalemateByBan.b"), "SAN", san)
	}
	return l.T(bySide(g.ToMove(), "banner.mateByBan.w", "banner.mateByBan.b"), "SAN", san, "Result", o.Result())
}

// Banner describes a finished game: "Checkmate by ban — White wins, 1-0".
func Banner(l *i18n.Language, o rules.Outcome) string {
	win := ""
	if o.Winner != 0 {
		win = " — " + l.T(bySide(o.Winner, "banner.wins.w", "banner.wins.b"), "Result", o.Result())
	}
	switch o.Status {
	case rules.Checkmate:
		switch o.Reason {
		case rules.ByBan:
			return l.T("banner.mateByBan") + win
		case rules.KingCapture:
			return l.T("banner.kingCaptured") + win
		}
		return l.T("banner.mate") + win
	case rules.Stalemate:
		if o.Reason == rules.ByBan {
			return l.T("banner.stalemateByBan")
		}
		return l.T("banner.stalemate")
	case rules.Resigned:
		return l.T(bySide(o.Winner.Other(), "banner.resigns.w", "banner.resigns.b")) + win
	case rules.TimeForfeit:
		return l.T(bySide(o.Winner.Other(), "banner.flag.w", "banner.flag.b")) + win
	case rules.Aborted:
		return l.T("banner.aborted")
	case rules.Draw:
		switch o.Reason {
		case rules.ThreefoldRepetition:
			return l.T("banner.repetition")
		case rules.FiftyMoveRule:
			return l.T("banner.fiftyMoves")
		case rules.InsufficientMaterial:
			return l.T("banner.material")
		case rules.Agreement:
			return l.T("banner.agreement")
		case rules.Timeout:
			return l.T("banner.timeoutDraw")
		}
		return l.T("banner.draw")
	}
	return ""
}

// describe says what a ply did: "Black banned e4 (e2–e4)", "White
// played d4".
func describe(l *i18n.Language, p rules.PlyInfo) string {
	if p.Action.Phase == rules.PhaseBan {
		if p.SAN == "" {
			return l.T(bySide(p.Actor, "ply.bannedPair.w", "ply.bannedPair.b"), "Pair", dashPair(p.Action.Pair()))
		}
		return l.T(bySide(p.Actor, "ply.banned.w", "ply.banned.b"), "SAN", p.SAN, "Pair", dashPair(p.Action.Pair()))
	}
	return l.T(bySide(p.Actor, "ply.played.w", "ply.played.b"), "SAN", p.SAN)
}

// plyTitle is a ply's tooltip in move lists: "Ply 3: White played d4".
func plyTitle(l *i18n.Language, p rules.PlyInfo) string {
	return l.T("ply.title", "Ply", p.Ply, "Did", describe(l, p))
}

// announceLast says what the last ply of hist did, and how the game ended
// (banner) if it has.
func announceLast(l *i18n.Language, hist []rules.PlyInfo, banner string) string {
	if len(hist) == 0 {
		return banner
	}
	s := describe(l, hist[len(hist)-1])
	if banner != "" {
		s += ". " + banner
	}
	return s
}

// title is the tab's title: whose turn and what to do, first "Your turn"
// when the viewer's seat is to act (yours), or how the game ended ("Black
// to ban · Ban Chess", "Your turn · White to move · Ban Chess",
// "Checkmate · 1-0").
func title(l *i18n.Language, variant string, turn rules.Turn, o rules.Outcome, yours bool) string {
	if !o.Over() {
		t := l.T(byPhase(turn, "title.ban.w", "title.ban.b", "title.move.w", "title.move.b"), "Variant", variant)
		if yours {
			t = l.T("title.yourTurn") + " · " + t
		}
		return t
	}
	end := l.T("title.draw")
	switch o.Status {
	case rules.Checkmate:
		end = l.T("banner.mate")
	case rules.Stalemate:
		end = l.T("title.stalemate")
	case rules.Resigned:
		end = l.T(bySide(o.Winner.Other(), "banner.resigns.w", "banner.resigns.b"))
	case rules.Aborted:
		return l.T("title.aborted", "Variant", variant)
	}
	return l.T("title.over", "End", end, "Result", o.Result())
}

// invitationTitle is an invite link's preview title: "Invitation to Ban
// Chess · 5+3 · you play Black" (tc "" for a game without a clock).
func invitationTitle(l *i18n.Language, variant, tc string, you rules.Color) string {
	if tc != "" {
		tc = " · " + ControlLabel(l, tc)
	}
	return l.T(bySide(you, "invite.title.w", "invite.title.b"), "Variant", variant, "Clock", tc)
}

// invitationText is an invite link's preview description.
func invitationText(l *i18n.Language, variant, host string) string {
	return l.T("invite.text", "Host", host, "Variant", variant)
}

// soundOf names the sound of the last ply of hist: the end of the game,
// a ban, a check, a capture or a plain move ("" before the first ply).
func soundOf(hist []rules.PlyInfo, o rules.Outcome) string {
	if len(hist) == 0 {
		return ""
	}
	last := hist[len(hist)-1]
	switch {
	case o.Over():
		return "end"
	case last.Action.Phase == rules.PhaseBan:
		return "ban"
	case strings.ContainsAny(last.SAN, "+#"):
		return "check"
	case strings.Contains(last.SAN, "x"):
		return "capture"
	}
	return "move"
}

// TookBackEnding announces an undone ending (a resignation, an agreed
// draw).
func TookBackEnding(l *i18n.Language, o rules.Outcome) string {
	return l.T("ply.tookBack", "Ply", Banner(l, o))
}

// TookBack announces an undone ply.
func TookBack(l *i18n.Language, p rules.PlyInfo) string {
	return l.T("ply.tookBack", "Ply", describe(l, p))
}

func dashPair(p rules.Pair) string { return p.From.String() + "–" + p.To.String() }

func arrowPair(p rules.Pair) string { return p.From.String() + "→" + p.To.String() }

// ClockText writes a time left as m:ss, or s.t under ten seconds.
func ClockText(ms int64) string {
	if ms < 0 {
		ms = 0
	}
	if ms < 10_000 {
		return fmt.Sprintf("0:%02d.%d", ms/1000, ms%1000/100)
	}
	s := (ms + 999) / 1000
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// OfferNews says what an offer did, for the live announcement: the
// ending an accepted draw made, a rematch or takeback accepted, an offer
// made, or one the viewer declined.
func OfferNews(l *i18n.Language, rec *games.Record, offer games.Offer, declined bool) string {
	byOffer := func(draw, takeback, rematch string) string {
		switch offer {
		case games.OfferDraw:
			return draw
		case games.OfferTakeback:
			return takeback
		}
		return rematch
	}
	switch {
	case declined:
		return l.T(byOffer("offer.declined.draw", "offer.declined.takeback", "offer.declined.rematch"))
	case rec.Game.Outcome().Over() && offer == games.OfferDraw:
		return GameBanner(l, rec.Game)
	case offer == games.OfferRematch && rec.Rematch != "":
		return l.T("offer.accepted.rematch")
	case offer == games.OfferTakeback && rec.Offers.Takeback == 0:
		return l.T("offer.accepted.takeback")
	}
	return l.T(byOffer("offer.made.draw", "offer.made.takeback", "offer.made.rematch"))
}
