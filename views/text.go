package views

import (
	"fmt"
	"strings"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// The words of the pages are written here (and in the .templ files), not
// where the view models are worked out: the seam for a translation.

// statusLine says where the game stands at move number move, whose turn
// it is and, for a move, the ban in force (nil for none): "Move 2 ·
// White to move — e2→e4 is banned", "Move 9 · Game over". (The ply's
// number is in the page's data-ply and tooltips.)
func statusLine(move int, turn rules.Turn, out rules.Outcome, inCheck bool, ban *rules.Pair) string {
	switch {
	case out.Over():
		return fmt.Sprintf("Move %d · Game over", move)
	case turn.Phase == rules.PhaseBan:
		return fmt.Sprintf("Move %d · %s bans a %s move", move, turn.Actor.Name(), turn.ToMove.Name())
	}
	s := fmt.Sprintf("Move %d · %s to move", move, turn.Actor.Name())
	if inCheck {
		s += " (in check)"
	}
	if ban != nil {
		s += " — " + arrowPair(*ban) + " is banned"
	}
	return s
}

// hint says what the viewer, who may do perm, can do next: act (and how),
// wait for the other side or for the computer (thinking, at level), or
// browse a finished game; mustPass says their only move is EN-Chess's
// pass.
func hint(turn rules.Turn, out rules.Outcome, perm games.Permissions, thinking bool, level int, mustPass bool) string {
	actor := turn.Actor.Name()
	switch {
	case mustPass:
		return fmt.Sprintf("Partial checkmate: no move frees a king of %s in check, so %s passes.", actor, actor)
	case out.Over() && !perm.Seats.Both():
		return "Browse the history, or start a new game."
	case out.Over():
		return "Browse the history, undo, or start a new game."
	case thinking:
		return fmt.Sprintf("The computer (level %d) is thinking…", level)
	case !perm.Play:
		return fmt.Sprintf("Waiting for %s to %s.", actor, turn.Phase)
	case turn.Phase == rules.PhaseBan:
		return fmt.Sprintf("%s: pick one of %s's pieces, then the square it may not go to.", actor, turn.ToMove.Name())
	}
	return fmt.Sprintf("%s: pick one of your pieces, then its destination.", actor)
}

// overTitle is a finished game's title in its link preview: "Move 8 ·
// Game over · Checkmate by ban: … — White wins, 1-0".
func overTitle(status, banner string) string { return status + " · " + banner }

// viewCaption says what a history view shows: the position after ply p,
// of move number move ("Move 1 · White banned e5 (e7–e5)"), or the start
// (p nil).
func viewCaption(p *rules.PlyInfo, move int) string {
	if p == nil {
		return "Start position"
	}
	return fmt.Sprintf("Move %d · %s", move, describe(*p))
}

// viewTitle is a history view's tab title: "Move 1 · White banned e5
// (e7–e5) · ply 3 of 12 · Ban Chess".
func viewTitle(caption string, index, plies int, variant string) string {
	return fmt.Sprintf("%s · ply %d of %d · %s", caption, index, plies, variant)
}

// viewHint is what a history view says to do, in a game that goes on or
// one that is over.
func viewHint(over bool) string {
	if over {
		return "A view of an earlier position of this finished game (Back to the game shows its end). To play on from here, start a new game from it (Play from here)."
	}
	return "A view of an earlier position: the game itself goes on from its last ply (Back to the game). To play on from here, start a new game from it (Play from here)."
}

// GameBanner describes how g ended: Banner, and for an ending by a ban,
// the move it banned ("Checkmate by ban: Black's only move, Ke7, was
// banned — White wins, 1-0").
func GameBanner(g *rules.Game) string {
	o := g.Outcome()
	if o.Reason != rules.ByBan {
		return Banner(o)
	}
	ban, ok := g.Ban()
	if !ok {
		return Banner(o)
	}
	san, err := g.Notation().BanSAN(ban)
	if err != nil {
		return Banner(o)
	}
	what := "Checkmate by ban"
	end := " — " + o.Winner.Name() + " wins, " + o.Result()
	if o.Status == rules.Stalemate {
		what, end = "Stalemate by ban", " — draw, 1/2-1/2"
	}
	return fmt.Sprintf("%s: %s's only move, %s, was banned%s", what, g.ToMove().Name(), san, end)
}

// Banner describes a finished game: "Checkmate by ban — White wins, 1-0".
func Banner(o rules.Outcome) string {
	win := ""
	if o.Winner != 0 {
		win = fmt.Sprintf(" — %s wins, %s", o.Winner.Name(), o.Result())
	}
	switch o.Status {
	case rules.Checkmate:
		switch o.Reason {
		case rules.ByBan:
			return "Checkmate by ban" + win
		case rules.KingCapture:
			return "The last king captured" + win
		}
		return "Checkmate" + win
	case rules.Stalemate:
		if o.Reason == rules.ByBan {
			return "Stalemate by ban — draw, 1/2-1/2"
		}
		return "Stalemate — draw, 1/2-1/2"
	case rules.Resigned:
		return o.Winner.Other().Name() + " resigns" + win
	case rules.TimeForfeit:
		return o.Winner.Other().Name() + " ran out of time" + win
	case rules.Aborted:
		return "Game aborted: no result"
	case rules.Draw:
		switch o.Reason {
		case rules.ThreefoldRepetition:
			return "Draw by threefold repetition, 1/2-1/2"
		case rules.FiftyMoveRule:
			return "Draw by the fifty-move rule, 1/2-1/2"
		case rules.InsufficientMaterial:
			return "Draw by insufficient material, 1/2-1/2"
		case rules.Agreement:
			return "Draw by agreement, 1/2-1/2"
		case rules.Timeout:
			return "Draw: time ran out, but the other side cannot mate, 1/2-1/2"
		}
		return "Draw, 1/2-1/2"
	}
	return ""
}

// describe says what a ply did: "Black banned e4 (e2–e4)", "White
// played d4".
func describe(p rules.PlyInfo) string {
	if p.Action.Phase == rules.PhaseBan {
		if p.SAN == "" {
			return p.Actor.Name() + " banned " + dashPair(p.Action.Pair())
		}
		return p.Actor.Name() + " banned " + p.SAN + " (" + dashPair(p.Action.Pair()) + ")"
	}
	return p.Actor.Name() + " played " + p.SAN
}

// announceLast says what the last ply of hist did, and how the game ended
// (banner) if it has.
func announceLast(hist []rules.PlyInfo, banner string) string {
	if len(hist) == 0 {
		return banner
	}
	s := describe(hist[len(hist)-1])
	if banner != "" {
		s += ". " + banner
	}
	return s
}

// title is the tab's title: whose turn and what to do, first "Your turn"
// when the viewer's seat is to act (yours), or how the game ended ("Black
// to ban · Ban Chess", "Your turn · White to move · Ban Chess",
// "Checkmate · 1-0").
func title(variant, actor, phase string, o rules.Outcome, yours bool) string {
	if !o.Over() {
		t := actor + " to " + phase + " · " + variant
		if yours {
			t = "Your turn · " + t
		}
		return t
	}
	end := "Draw"
	switch o.Status {
	case rules.Checkmate:
		end = "Checkmate"
	case rules.Stalemate:
		end = "Stalemate"
	case rules.Resigned:
		end = o.Winner.Other().Name() + " resigns"
	case rules.Aborted:
		return "Aborted · " + variant
	}
	return end + " · " + o.Result()
}

// invitationTitle is an invite link's preview title: "Invitation to Ban
// Chess · 5+3 · you play Black" (tc "" for a game without a clock).
func invitationTitle(variant, tc string, you rules.Color) string {
	t := "Invitation to " + variant
	if tc != "" {
		t += " · " + ControlLabel(tc)
	}
	return t + " · you play " + you.Name()
}

// invitationText is an invite link's preview description.
func invitationText(variant, host string) string {
	return host + " invites you to a game of " + variant + ": open the link to take the free seat."
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

// TookBack announces an undone ply.
func TookBack(p rules.PlyInfo) string { return "Took back: " + describe(p) }

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
