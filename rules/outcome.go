package rules

// Status is where a game stands.
type Status uint8

// Game statuses (docs/rules.md §1.4).
const (
	Ongoing Status = iota
	Checkmate
	Stalemate
	Draw
	Resigned
	// TimeForfeit is a game lost on time: the loser's clock ran out.
	TimeForfeit
	// Aborted is a game called off before it really began: no result,
	// no winner (PGN "*").
	Aborted
)

var statusNames = [...]string{"ongoing", "checkmate", "stalemate", "draw", "resigned", "timeout", "aborted"}

// String returns the status as the API writes it, such as "checkmate".
func (s Status) String() string { return statusNames[s] }

// Reason says how a game ended.
type Reason uint8

// Reasons a game ends. ByBan and ByMove qualify checkmate and stalemate.
const (
	NoReason Reason = iota
	ByBan
	ByMove
	InsufficientMaterial
	ThreefoldRepetition
	FiftyMoveRule
	Agreement
	Resignation
	// Timeout is a clock run out: a loss on time (TimeForfeit), or a draw
	// when the side with time left has no mating material.
	Timeout
	KingCapture // EN-Chess: the loser has no king left
	// Abort is a game called off before each side had acted (Aborted).
	Abort
)

var reasonNames = [...]string{"", "ban", "move", "insufficient-material", "threefold-repetition", "fifty-move", "agreement", "resignation", "timeout", "king-capture", "abort"}

// String returns the reason as the API writes it, such as "fifty-move".
func (r Reason) String() string { return reasonNames[r] }

// Outcome is a game's status, how it came about, and who won (no Color for a
// draw or a game in progress).
type Outcome struct {
	Status Status
	Reason Reason
	Winner Color
}

// Over reports whether the game has ended.
func (o Outcome) Over() bool { return o.Status != Ongoing }

// Result returns the PGN result: "1-0", "0-1", "1/2-1/2" or "*" (a game
// in progress, or aborted).
func (o Outcome) Result() string {
	switch {
	case !o.Over() || o.Status == Aborted:
		return "*"
	case o.Winner == White:
		return "1-0"
	case o.Winner == Black:
		return "0-1"
	}
	return "1/2-1/2"
}

// Indicator returns the FEN/BCN indicator for a finished game: "#" for
// checkmate, "=" for a draw of any kind, "" otherwise.
func (o Outcome) Indicator() string {
	switch o.Status {
	case Checkmate:
		return "#"
	case Stalemate, Draw:
		return "="
	}
	return ""
}

// String describes the outcome in a sentence fragment, such as
// "White won by checkmate after a ban" or "drawn by threefold repetition".
func (o Outcome) String() string {
	switch o.Status {
	case Checkmate:
		if o.Reason == KingCapture {
			return o.Winner.Name() + " won by capturing the last king"
		}
		if o.Reason == ByBan {
			return o.Winner.Name() + " won by checkmate after a ban"
		}
		return o.Winner.Name() + " won by checkmate"
	case Stalemate:
		if o.Reason == ByBan {
			return "drawn by stalemate after a ban"
		}
		return "drawn by stalemate"
	case Draw:
		switch o.Reason {
		case InsufficientMaterial:
			return "drawn by insufficient material"
		case ThreefoldRepetition:
			return "drawn by threefold repetition"
		case FiftyMoveRule:
			return "drawn by the fifty-move rule"
		case Agreement:
			return "drawn by agreement"
		case Timeout:
			return "drawn: time ran out against a side that cannot mate"
		}
		return "drawn"
	case Resigned:
		return o.Winner.Name() + " won: " + o.Winner.Other().Name() + " resigned"
	case TimeForfeit:
		return o.Winner.Name() + " won on time"
	case Aborted:
		return "aborted"
	}
	return "in progress"
}

// ParseOutcome reads the outcome String described ("White won by
// checkmate after a ban"): a text stored before its codes were, said
// again in another language. False for a text String never writes.
func ParseOutcome(s string) (Outcome, bool) {
	for st := Checkmate; st <= Aborted; st++ {
		for r := NoReason; r <= Abort; r++ {
			for _, w := range [...]Color{0, White, Black} {
				if o := (Outcome{Status: st, Reason: r, Winner: w}); o.String() == s {
					return o, true
				}
			}
		}
	}
	return Outcome{}, false
}
