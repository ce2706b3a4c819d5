package rules

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Notation reads and writes the actions of the side to act as people and
// programs write them — SAN, squares, BCN — against the game as it
// stands: its legal moves and the ban in force. Game.Notation returns it.
type Notation struct{ g *Game }

// Notation returns the game's notation, for the position it stands at.
func (g *Game) Notation() Notation { return Notation{g} }

// maxInput is the longest text ParseInput reads, in bytes; the longest
// action ("m:e7e8q+", "Qh4xe1+") is well under it.
const maxInput = 16

// ParseInput reads an action as a person or a program types it, a ban or a
// move as the turn asks, without playing it. It reads
//
//   - Ban Chess Notation in either case: "b:e2e4", "M:E7E8Q"; an action of
//     the other phase is returned as read, and Play refuses it;
//   - squares, "e2e4" or "e7e8q": at a ban the pair to ban (a ban names no
//     promotion piece), at a move the move;
//   - SAN: at a move the move ("Nf3", "exd5", "O-O", "0-0", "e8=Q"); at a ban
//     the move of the side to move that is to be banned ("Nf3" bans g1f3,
//     "e8=Q" bans e7e8).
//
// A trailing +, # or = is ignored. Text shaped like squares whose first
// letter is lower case is squares; other text is SAN, or squares in
// capitals when it is not SAN: "B1a3" is a bishop move, "B1A3" is b1a3.
//
// SAN is resolved against the legal moves; squares name their squares
// themselves and are only read (Play checks them), except that the move the
// ban in force forbids is refused here. The error is an *ActionError of kind
// ErrSyntax (not an action), ErrIllegal (SAN that names no single legal
// move), ErrBanned (the banned move) or ErrGameOver; its message quotes the
// text as typed.
func (n Notation) ParseInput(text string) (Action, error) {
	g := n.g
	s := strings.TrimSpace(text)
	t := g.Turn()
	switch {
	case s == "":
		return Action{}, syntaxErrorf(s, "nothing typed: %s", inputHint(t))
	case len(s) > maxInput:
		p := clipInput(s)
		return Action{}, syntaxErrorf(p, "%q is too long for an action", p)
	case g.outcome.Over():
		return Action{}, &ActionError{Kind: ErrGameOver, Action: s, msg: "the game is over: " + g.outcome.String()}
	}
	body := strings.TrimRight(s, "+#=")
	var a Action
	var err error
	switch {
	case len(body) >= 2 && body[1] == ':':
		a, err = parseAction(s, g.promotions.letters())
	case squareShaped(body, false):
		a, err = readSquares(t.Phase, s, body, g.promotions.letters())
	default:
		q, sanErr := readSAN(s, g.promotions.letters())
		switch {
		case sanErr == nil && t.Phase == PhaseBan:
			return n.sanBan(s, q)
		case sanErr == nil:
			return n.sanMove(s, q)
		case squareShaped(body, true):
			a, err = readSquares(t.Phase, s, body, g.promotions.letters())
		default:
			return Action{}, sanErr
		}
	}
	if err != nil {
		return Action{}, err
	}
	if a.Phase == PhaseMove {
		return n.notBanned(s, a)
	}
	return a, nil
}

// ParseMove reads a move of the side to move in SAN ("Nf3", "exd5", "O-O",
// "e8=Q") or coordinates ("g1f3", "e7e8q", "m:g1f3"). SAN is resolved
// against the legal moves and the ban in force, so a move it cannot name
// is refused here (ErrIllegal, or ErrBanned for the banned move);
// coordinates name their squares themselves and are only read: Play checks
// them. To read whatever the turn asks, ban or move, use ParseInput.
func (n Notation) ParseMove(text string) (Action, error) {
	g := n.g
	s := strings.TrimSpace(text)
	if strings.HasPrefix(s, "m:") || strings.HasPrefix(s, "M:") {
		return parseAction(s, g.promotions.letters())
	}
	if coords := strings.TrimRight(s, "+#="); len(coords) >= 4 && coords[0] >= 'a' && coords[0] <= 'h' {
		if a, err := parseCoords(PhaseMove, coords, g.promotions.letters()); err == nil {
			return a, nil
		}
	}
	q, err := readSAN(s, g.promotions.letters())
	if err != nil {
		return Action{}, err
	}
	return n.sanMove(s, q)
}

// inputHint says what to type at this turn.
func inputHint(t Turn) string {
	squares, san := "g1f3", "Nf3"
	if t.ToMove == Black {
		squares, san = "g8f6", "Nf6"
	}
	if t.Phase == PhaseBan {
		return fmt.Sprintf("to ban, type one of %s's moves by its squares, as in %s, or in SAN, as in %s", t.ToMove.Name(), squares, san)
	}
	return fmt.Sprintf("type %s's move in SAN, as in %s, or by its squares, as in %s", t.Actor.Name(), san, squares)
}

// clipInput shortens over-long text to maxInput bytes, cut between
// characters, and marks the cut.
func clipInput(s string) string {
	n := maxInput
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// squareShaped reports whether s is written like squares, "e2e4" or
// "e7e8q", whether or not the squares exist. Its first letter must be lower
// case unless anyCase: "B1a3" is SAN (a bishop on the first rank to a3).
func squareShaped(s string, anyCase bool) bool {
	if len(s) != 4 && len(s) != 5 {
		return false
	}
	lower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	letter := func(c byte) bool { return lower(c) || c >= 'A' && c <= 'Z' }
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	return (lower(s[0]) || anyCase && letter(s[0])) && digit(s[1]) && letter(s[2]) && digit(s[3]) &&
		(len(s) == 4 || letter(s[4]))
}

// readSquares reads body, squares shaped like "e2e4" or "e7e8q" in either
// case, as an action of phase promoting to one of promos; s is the text as
// typed, for messages.
func readSquares(phase Phase, s, body, promos string) (Action, error) {
	var sq [2]Square
	for i := range sq {
		typed := body[2*i : 2*i+2]
		var err error
		if sq[i], err = ParseSquare(strings.ToLower(typed)); err != nil {
			return Action{}, syntaxErrorf(s, "%q is not a %s: %q is not a square: use a file a–h and a rank 1–8, like e4", s, phase, typed)
		}
	}
	a := Action{Phase: phase, From: sq[0], To: sq[1]}
	if len(body) == 5 {
		if phase == PhaseBan {
			return Action{}, syntaxErrorf(s, "%q is not a ban: a ban names squares only, as in %s, and removes every promotion on them", s, body[:4])
		}
		if c := body[4] | 0x20; strings.IndexByte(promos, c) >= 0 {
			a.Promotion = kindFromLetter(c)
		} else {
			return Action{}, syntaxErrorf(s, "%q is not a move: %q is not a promotion piece: use %s, as in %sq", s, body[4:], letterList(promos), body[:4])
		}
	}
	return a, nil
}

// readSAN reads s as SAN promoting to one of promos (lower-case letters);
// the error, of kind ErrSyntax, says what is wrong.
func readSAN(s, promos string) (sanQuery, error) {
	q, err := parseSAN(s)
	if err == nil && (q.promotion == 0 || strings.IndexByte(promos, q.promotion.Letter()|0x20) >= 0) {
		return q, nil
	}
	if i := strings.IndexByte(s, '='); i > 0 && i+1 < len(s) {
		c := s[i+1]
		letter := c|0x20 >= 'a' && c|0x20 <= 'z'
		if letter && strings.IndexByte(promos, c|0x20) < 0 {
			return q, syntaxErrorf(s, "%q is not a move: %c is not a promotion piece: promote to %s, as in %s=Q", Clip(s), c, letterList(strings.ToUpper(promos)), Clip(s[:i]))
		}
	}
	if err == nil {
		return q, syntaxErrorf(s, "%q is not a move: %c is not a promotion piece here", Clip(s), q.promotion.Letter())
	}
	return q, syntaxErrorf(s, "%v", err)
}

// sanMove returns the one legal move q names; s is the text as typed, for
// messages.
func (n Notation) sanMove(s string, q sanQuery) (Action, error) {
	g := n.g
	found := q.match(&g.positions[len(g.positions)-1], g.moves)
	switch {
	case len(found) == 0 && q.castle != 0:
		return Action{}, illegalf(s, "%s is not legal: %s cannot %s now", Clip(s), g.ToMove().Name(), q.describe())
	case len(found) == 0:
		return Action{}, illegalf(s, "%s is not legal: no %s", Clip(s), q.describe())
	case !onePair(found):
		return Action{}, ambiguous(s, found)
	}
	a, err := n.notBanned(s, found[0].action())
	if err == nil && len(found) > 1 {
		return Action{}, illegalf(s, "%s promotes a pawn: add the piece, as in %s=Q", Clip(s), Clip(strings.TrimRight(s, "+#")))
	}
	return a, err
}

// sanBan returns the ban of the one legal move of the side to move that q
// names; s is the text as typed, for messages.
func (n Notation) sanBan(s string, q sanQuery) (Action, error) {
	g := n.g
	t := g.Turn()
	found := q.match(&g.positions[len(g.positions)-1], g.moves)
	switch {
	case len(found) == 0 && q.castle != 0:
		return Action{}, illegalf(s, "%s cannot ban %s: %s cannot %s now", t.Actor.Name(), Clip(s), t.ToMove.Name(), q.describe())
	case len(found) == 0:
		return Action{}, illegalf(s, "%s cannot ban %s: no %s %s", t.Actor.Name(), Clip(s), t.ToMove.Name(), q.describe())
	case !onePair(found):
		return Action{}, ambiguous(s, found)
	}
	return BanAction(found[0].from, found[0].to), nil
}

// onePair reports whether the moves, at least one, share their squares (the
// promotions of one pawn do).
func onePair(moves []move) bool {
	for _, m := range moves[1:] {
		if m.from != moves[0].from || m.to != moves[0].to {
			return false
		}
	}
	return true
}

// ambiguous refuses SAN s that names several moves, naming their squares.
func ambiguous(s string, found []move) error {
	var from []string
	for _, m := range found {
		if f := m.from.String(); !slices.Contains(from, f) {
			from = append(from, f)
		}
	}
	return illegalf(s, "%s is ambiguous: pieces on %s can all move there", Clip(s), strings.Join(from, " and "))
}

// notBanned returns the move a, or refuses it with ErrBanned when it is the
// ban in force; s is the text as typed, for the message.
func (n Notation) notBanned(s string, a Action) (Action, error) {
	ban, banned := n.g.Ban()
	if !banned || a.Pair() != ban {
		return a, nil
	}
	if body := strings.TrimRight(s, "+#="); body == ban.String() || len(body) > 2 && body[1] == ':' && body[2:] == ban.String() {
		return Action{}, bannedf(s, "%s is banned this turn", ban)
	}
	return Action{}, bannedf(s, "%s (%s) is banned this turn", Clip(s), ban)
}
