// Package ruletext says the rules' things in a language: how a game
// ended, for every front end that tells people (the pages, banchess
// play). It sits beside i18n, which knows no package of the project, and
// over rules.
package ruletext

import (
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// Ending says how a game ended, as a sentence's middle, in l: "White won
// by checkmate after a ban", "Weiß gewann durch Matt".
func Ending(l *i18n.Language, o rules.Outcome) string {
	switch o.Status {
	case rules.Checkmate:
		switch o.Reason {
		case rules.KingCapture:
			return l.T(bySide(o.Winner, "outcome.kingCapture.w", "outcome.kingCapture.b"))
		case rules.ByBan:
			return l.T(bySide(o.Winner, "outcome.mateByBan.w", "outcome.mateByBan.b"))
		}
		return l.T(bySide(o.Winner, "outcome.mate.w", "outcome.mate.b"))
	case rules.Stalemate:
		if o.Reason == rules.ByBan {
			return l.T("outcome.stalemateByBan")
		}
		return l.T("outcome.stalemate")
	case rules.Draw:
		switch o.Reason {
		case rules.InsufficientMaterial:
			return l.T("outcome.material")
		case rules.ThreefoldRepetition:
			return l.T("outcome.repetition")
		case rules.FiftyMoveRule:
			return l.T("outcome.fiftyMoves")
		case rules.Agreement:
			return l.T("outcome.agreement")
		case rules.Timeout:
			return l.T("outcome.timeoutDraw")
		}
		return l.T("outcome.draw")
	case rules.Resigned:
		return l.T(bySide(o.Winner, "outcome.resigned.w", "outcome.resigned.b"))
	case rules.TimeForfeit:
		return l.T(bySide(o.Winner, "outcome.onTime.w", "outcome.onTime.b"))
	case rules.Aborted:
		return l.T("outcome.aborted")
	}
	return o.String()
}

// StoredEnding says in l an ending stored as its English text
// (rules.Outcome.String, as a player's list of games keeps it); a text
// it does not know is said as it is.
func StoredEnding(l *i18n.Language, ending string) string {
	if o, ok := rules.ParseOutcome(ending); ok {
		return Ending(l, o)
	}
	return ending
}

// bySide is the message id for side c: white's or black's.
func bySide(c rules.Color, white, black string) string {
	if c == rules.White {
		return white
	}
	return black
}
