package views

import (
	"fmt"
	"strings"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// The words of the pages are written here (and in the .templ files), not
// where the view models are worked out: the seam for a translation.

// statusLine says where the game stands at ply, whose turn it is and, for
// a move, the ban in force (nil for none): "Ply 2 · White to move — e2→e4
// is banned", "Ply 9 · Game over".
func statusLine(ply int, turn rules.Turn, out rules.Outcome, inCheck bool, ban *rules.Pair) string {
	switch {
	case out.Over():
		return fmt.Sprintf("Ply %d · Game over", ply)
	case turn.Phase == rules.PhaseBan:
		return fmt.Sprintf("Ply %d · %s bans a %s move", ply, turn.Actor.Name(), turn.ToMove.Name())
	}
	s := fmt.Sprintf("Ply %d · %s to move", ply, turn.Actor.Name())
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

// overTitle is a finished game's title in its link preview: "Ply 31 ·
// Checkmate by ban — White wins, 1-0".
func overTitle(ply int, banner string) string { return fmt.Sprintf("Ply %d · %s", ply, banner) }

// viewCaption says what a history view shows: the position after ply p
// ("After ply 3: White banned e7–e5"), or the start (p nil).
func viewCaption(p *rules.PlyInfo) string {
	if p == nil {
		return "Start position"
	}
	return fmt.Sprintf("After ply %d: %s", p.Ply, describe(*p))
}

// viewTitle is a history view's tab title: "Ply 3 of 12 · Ban Chess".
func viewTitle(index, plies int, variant string) string {
	return fmt.Sprintf("Ply %d of %d · %s", index, plies, variant)
}

// viewHint is what a history view says to do.
const viewHint = "A read-only view of the game. To go on from this position, start a new game from it below (Play from here); the game itself stays as it is."

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

// describe says what a ply did: "Black banned e2–e4", "White played d4".
func describe(p rules.PlyInfo) string {
	if p.Action.Phase == rules.PhaseBan {
		return p.Actor.Name() + " banned " + dashPair(p.Action.Pair())
	}
	return p.Actor.Name() + " played " + p.SAN
}

// announceLast says what the last ply of hist did, and how the game ended
// (o) if it has.
func announceLast(hist []rules.PlyInfo, o rules.Outcome) string {
	if len(hist) == 0 {
		return ""
	}
	s := describe(hist[len(hist)-1])
	if o.Over() {
		s += ". " + Banner(o)
	}
	return s
}

// title is the tab's title: whose turn and what to do, or how the game
// ended ("Black to ban · Ban Chess", "Checkmate · 1-0").
func title(variant, actor, phase string, o rules.Outcome) string {
	if !o.Over() {
		return actor + " to " + phase + " · " + variant
	}
	end := "Draw"
	switch o.Status {
	case rules.Checkmate:
		end = "Checkmate"
	case rules.Stalemate:
		end = "Stalemate"
	case rules.Resigned:
		end = o.Winner.Other().Name() + " resigns"
	}
	return end + " · " + o.Result()
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
