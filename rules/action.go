package rules

import (
	"fmt"
	"strings"
)

// Phase is what the acting player does at a ply: ban or move.
type Phase uint8

// The two phases of a ply.
const (
	PhaseBan Phase = iota + 1
	PhaseMove
)

// String returns "ban" or "move".
func (p Phase) String() string {
	switch p {
	case PhaseBan:
		return "ban"
	case PhaseMove:
		return "move"
	}
	return ""
}

// Action is one ply: a ban of a from→to pair, or a move (with the piece a
// pawn promotes to, when it does).
type Action struct {
	Phase     Phase
	From, To  Square
	Promotion PieceKind
}

// BanAction returns the ban of the pair from→to.
func BanAction(from, to Square) Action { return Action{Phase: PhaseBan, From: from, To: to} }

// MoveAction returns the move from→to, promoting to promo (0 for none).
func MoveAction(from, to Square, promo PieceKind) Action {
	return Action{Phase: PhaseMove, From: from, To: to, Promotion: promo}
}

// Pair returns the action's from→to squares.
func (a Action) Pair() Pair { return Pair{a.From, a.To} }

// Coords returns the action in coordinates without its prefix: "e2e4", "e7e8q".
func (a Action) Coords() string { return string(a.appendCoords(make([]byte, 0, 5))) }

// PassAction returns EN-Chess's pass, the whole turn of a side in partial
// checkmate; its coordinates are "0000".
func PassAction() Action { return Action{Phase: PhaseMove, From: NoSquare, To: NoSquare} }

// IsPass reports whether a is a pass.
func (a Action) IsPass() bool { return a.From == NoSquare }

// appendCoords appends the action's squares and promotion letter to b.
func (a Action) appendCoords(b []byte) []byte {
	if a.IsPass() {
		return append(b, "0000"...)
	}
	b = appendSquare(b, a.From)
	b = appendSquare(b, a.To)
	if a.Promotion != 0 {
		b = append(b, a.Promotion.Letter()|0x20)
	}
	return b
}

// String returns the action in Ban Chess Notation: "b:e2e4", "m:e7e8q".
func (a Action) String() string {
	b, _ := a.AppendText(make([]byte, 0, 7))
	return string(b)
}

// AppendText appends the action in Ban Chess Notation to b (it implements
// encoding.TextAppender and never fails).
func (a Action) AppendText(b []byte) ([]byte, error) {
	if a.Phase == PhaseBan {
		b = append(b, "b:"...)
	} else {
		b = append(b, "m:"...)
	}
	return a.appendCoords(b), nil
}

// appendSquare appends the square's name, or "-" for NoSquare.
func appendSquare(b []byte, s Square) []byte {
	switch {
	case s == X0:
		return append(b, 'x', '0')
	case s == X9:
		return append(b, 'x', '9')
	case !s.Valid():
		return append(b, '-')
	}
	return append(b, byte('a'+s.File()), byte('1'+s.Rank()))
}

// ParseAction reads an action in Ban Chess Notation (docs/rules.md §3):
// "b:e2e4", "m:e2e4", "m:e7e8q", with an optional trailing indicator (+, #
// or =) that is ignored. It also reads EN-Chess's coordinates: x squares
// ("m:x0e1"), promotions to a king or an Auror ("m:d7d8k"), and the pass
// "m:0000".
func ParseAction(s string) (Action, error) { return parseAction(s, allPromotions) }

// Promotion letters: the chess ones, and every one a variant may use.
const (
	chessPromotions = "qrbn"
	allPromotions   = "qrbnka"
)

// parseAction reads s as ParseAction does, taking promotions only to the
// pieces whose letters are in promos.
func parseAction(s, promos string) (Action, error) {
	text := strings.TrimSpace(s)
	body := strings.TrimRight(text, "+#=")
	if len(body) < 2 || body[1] != ':' {
		return Action{}, syntaxErrorf(text, "%q is not an action: write a ban as b:e2e4 or a move as m:e2e4", Clip(text))
	}
	var a Action
	switch body[0] {
	case 'b', 'B':
		a.Phase = PhaseBan
	case 'm', 'M':
		a.Phase = PhaseMove
	default:
		return Action{}, syntaxErrorf(text, "%q is not an action: it must start with b: (ban) or m: (move)", Clip(text))
	}
	a, err := parseCoords(a.Phase, body[2:], promos)
	if err != nil {
		return Action{}, syntaxErrorf(text, "%q is not an action: %v", Clip(text), err)
	}
	return a, nil
}

// parseCoords reads "e2e4" or "e7e8q" as an action of the given phase,
// taking promotions to the pieces whose letters are in promos; "0000" is a
// pass when promos allows more than chess.
func parseCoords(phase Phase, s, promos string) (Action, error) {
	if s == "0000" && phase == PhaseMove && promos != chessPromotions {
		return PassAction(), nil
	}
	if len(s) != 4 && len(s) != 5 {
		return Action{}, fmt.Errorf("write the squares like e2e4 (and a promotion piece like e7e8q)")
	}
	p, err := ParsePair(strings.ToLower(s[:4]))
	if err != nil {
		return Action{}, err
	}
	a := Action{Phase: phase, From: p.From, To: p.To}
	if len(s) == 5 {
		if phase == PhaseBan {
			return Action{}, fmt.Errorf("a ban names squares only: it removes every promotion on them")
		}
		c := s[4] | 0x20
		if !strings.Contains(promos, string(c)) {
			return Action{}, fmt.Errorf("%q is not a promotion piece: use %s", s[4:], letterList(promos))
		}
		a.Promotion = kindFromLetter(c)
	}
	return a, nil
}

// letterList writes promotion letters for a message: "q, r, b or n".
func letterList(promos string) string {
	var b strings.Builder
	for i := range len(promos) {
		switch {
		case i == len(promos)-1:
			b.WriteString(" or ")
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteByte(promos[i])
	}
	return b.String()
}
