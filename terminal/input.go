package terminal

import (
	"fmt"
	"slices"
	"strings"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// maxSuggestions bounds the moves listed in one message.
const maxSuggestions = 8

// explanation says why the rules refused text, and what to type instead,
// for the player's refusal; g is the game, unchanged.
func explanation(g *rules.Game, text string, e *errs.Error) string {
	switch {
	case games.IsPromotionNeeded(e):
		a, _ := g.Notation().ParseInput(text)
		return fmt.Sprintf("%s promotes a pawn: add the piece, as in %sq", a.Coords(), a.Coords())
	case e.Code == errs.Invalid:
		return notUnderstood(g, e)
	case e.Code == errs.Banned:
		return bannedMove(g, e)
	default:
		return illegal(g, text, e)
	}
}

// illegal explains an action the rules do not allow now (err), from what
// text reads as: SAN naming no single legal move, an action of the other
// phase (squares of the banner's own move too), or squares of no legal ban
// or move.
func illegal(g *rules.Game, text string, err error) string {
	t := g.Turn()
	a, parseErr := g.Notation().ParseInput(text)
	if parseErr != nil {
		return sanRefused(g, text, err)
	}
	pc := g.Position().Board[a.From]
	switch {
	case a.Phase != t.Phase, a.Phase == rules.PhaseBan && pc != rules.NoPiece && pc.Color() == t.Actor:
		return wrongPhase(g) // squares of the banner's own move are a move typed at a ban
	case a.Phase == rules.PhaseBan:
		return reason(err) + fromSquareHint(g, a.From, true)
	default:
		return moveRefused(g, text, a, err)
	}
}

// isWord reports whether text is letters only, which no ban or move is
// (every SAN but castling has a digit, and castling has dashes).
func isWord(text string) bool {
	for _, r := range text {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return len(text) > 1
}

// unknownCommand refuses a word that names no command, guessing the one
// meant when it is close.
func (s *session) unknownCommand(word string) {
	best, bestDist := "", 3
	for _, c := range s.commands() {
		if d := editDistance(strings.ToLower(word), c.name); d < bestDist {
			best, bestDist = c.name, d
		}
	}
	if best != "" {
		s.out.refuse("%s is not a command: did you mean %s? Type help for the commands", word, best)
		return
	}
	s.out.refuse("%s is not a command, a ban or a move: type help for the commands", word)
}

// editDistance is the Levenshtein distance between two short ASCII words.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// sanOfPair writes the move of a pair in SAN, a promotion as to a queen.
func sanOfPair(g *rules.Game, p rules.Pair) (string, error) {
	san, err := g.Notation().MoveSAN(rules.MoveAction(p.From, p.To, 0))
	if err != nil {
		return g.Notation().MoveSAN(rules.MoveAction(p.From, p.To, rules.Queen))
	}
	return san, nil
}

// notUnderstood explains text that is neither a command nor a ban nor a
// move.
func notUnderstood(g *rules.Game, err error) string {
	return fmt.Sprintf("%s; type help for the commands, moves for the legal %ss", reason(err), g.Turn().Phase)
}

// wrongPhase explains a ban typed at a move or a move at a ban, with an
// example of what fits now.
func wrongPhase(g *rules.Game) string {
	t := g.Turn()
	example := exampleAction(g)
	if t.Phase == rules.PhaseBan {
		like := example.Coords()
		if san, err := sanOfPair(g, example.Pair()); err == nil {
			like += " or " + strings.TrimRight(san, "+#")
		}
		return fmt.Sprintf("it is %s's turn to ban one of %s's moves: type a move of %s's, like %s",
			t.Actor.Name(), t.ToMove.Name(), t.ToMove.Name(), like)
	}
	why := ""
	if ban, ok := g.Ban(); ok {
		why = fmt.Sprintf(" (%s is banned)", ban)
	}
	return fmt.Sprintf("it is %s's turn to move, not to ban%s: type a move like %s or %s",
		t.Actor.Name(), why, sans(g, []rules.Action{example})[0], example.Coords())
}

// exampleAction picks a legal action to show as an example: a central pawn
// advance when there is one.
func exampleAction(g *rules.Game) rules.Action {
	legal := g.Legal()
	board := g.Position().Board
	best, bestScore := rules.Action{}, -1
	for _, a := range legal {
		score := 0
		if board[a.From].Kind() == rules.Pawn {
			centre := 7 - abs(2*a.From.File()-7) // 6 for d and e, 0 for a and h
			score = 100 + 10*centre + a.From.File() + abs(a.To.Rank()-a.From.Rank())
		}
		if score > bestScore {
			best, bestScore = a, score
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// bannedMove explains the move under the ban (err says so), naming the
// other moves of the same kind of piece: "e4 (e2e4) is banned this turn —
// other pawn moves: e3, d4, d3".
func bannedMove(g *rules.Game, err error) string {
	ban, _ := g.Ban()
	kind := g.Position().Board[ban.From].Kind()
	var same, others []rules.Action
	for _, a := range g.Legal() {
		switch {
		case a.From == ban.From:
			same = append(same, a)
		case g.Position().Board[a.From].Kind() == kind:
			others = append(others, a)
		}
	}
	slices.SortStableFunc(others, func(a, b rules.Action) int {
		return abs(a.From.File()-ban.From.File()) - abs(b.From.File()-ban.From.File())
	})
	if moves := append(same, others...); len(moves) > 0 {
		return fmt.Sprintf("%s — other %s moves: %s", reason(err), kind, listMoves(g, moves))
	}
	return fmt.Sprintf("%s — %s has no other %s move; the others: %s", reason(err), g.ToMove().Name(), kind, listMoves(g, g.Legal()))
}

// listMoves writes moves in SAN, at most maxSuggestions of them.
func listMoves(g *rules.Game, moves []rules.Action) string {
	more := ""
	if len(moves) > maxSuggestions {
		more = fmt.Sprintf(" and %d more (type moves)", len(moves)-maxSuggestions)
		moves = moves[:maxSuggestions]
	}
	return strings.Join(sans(g, moves), ", ") + more
}

// moveRefused explains a move read from squares that the rules refused
// (err; not for the ban, nor for a promotion without its piece), with what
// the piece on its from square can do.
func moveRefused(g *rules.Game, text string, a rules.Action, err error) string {
	if slices.ContainsFunc(g.Legal(), func(m rules.Action) bool { return m.Pair() == a.Pair() }) {
		return fmt.Sprintf("%s is not legal: %s", text, reason(err)) // a piece added to a move that is no promotion
	}
	return fmt.Sprintf("%s is not legal: %s%s", text, reason(err), fromSquareHint(g, a.From, false))
}

// sanRefused explains SAN that names no single legal move (err says why),
// at a move or at a ban, and suggests the moves that fit what was typed.
func sanRefused(g *rules.Game, text string, err error) string {
	kind, to, ok := sanHint(text)
	if !ok {
		return reason(err)
	}
	var fits []rules.Action
	for _, m := range g.Legal() {
		if m.To == to && g.Position().Board[m.From].Kind() == kind {
			fits = append(fits, m)
		}
	}
	switch {
	case len(fits) > 1 && fits[0].From == fits[len(fits)-1].From:
		return reason(err) // the promotions of one pawn: err says how to choose
	case len(fits) > 1:
		return reason(err) + " — type " + strings.Join(sans(g, fits), " or ")
	default:
		return reason(err) + kindHint(g, kind)
	}
}

// kindHint lists the legal moves of one kind of piece: " — knight moves:
// Na3, Nc3" (at a ban, " — White's knight moves: …").
func kindHint(g *rules.Game, kind rules.PieceKind) string {
	t := g.Turn()
	var fits []rules.Action
	for _, m := range g.Legal() {
		if g.Position().Board[m.From].Kind() == kind {
			fits = append(fits, m)
		}
	}
	if len(fits) == 0 {
		return fmt.Sprintf(" — %s has no legal %s move (type moves for the legal %ss)", t.ToMove.Name(), kind, t.Phase)
	}
	whose := ""
	if t.Phase == rules.PhaseBan {
		whose = t.ToMove.Name() + "'s "
	}
	return fmt.Sprintf(" — %s%s moves: %s", whose, kind, listMoves(g, fits))
}

// fromSquareHint lists what the piece of the side to move on from can do,
// as bans (coordinates) or as moves (SAN); "" when from holds none.
func fromSquareHint(g *rules.Game, from rules.Square, asBans bool) string {
	pc := g.Position().Board[from]
	if pc == rules.NoPiece || pc.Color() != g.ToMove() {
		return ""
	}
	var fits []rules.Action
	if asBans {
		for _, m := range g.Legal() {
			if m.From == from {
				fits = append(fits, m)
			}
		}
	} else {
		fits = movesFrom(g, from)
	}
	if len(fits) == 0 {
		return " — it has no legal move"
	}
	if asBans {
		coords := make([]string, len(fits))
		for i, m := range fits {
			coords[i] = m.Coords()
		}
		return fmt.Sprintf(" — its moves: %s", strings.Join(coords, ", "))
	}
	return fmt.Sprintf(" — it can play %s", listMoves(g, fits))
}

// movesFrom lists the legal moves from one square.
func movesFrom(g *rules.Game, from rules.Square) []rules.Action {
	var out []rules.Action
	for _, m := range g.Legal() {
		if m.From == from {
			out = append(out, m)
		}
	}
	return out
}

// sanHint reads the kind of piece and the destination of a SAN token, for
// suggestions; ok is false when it cannot tell.
func sanHint(text string) (kind rules.PieceKind, to rules.Square, ok bool) {
	s := strings.TrimRight(text, "+#!?")
	if c := strings.ToUpper(strings.ReplaceAll(s, "0", "O")); c == "O-O" || c == "O-O-O" {
		return rules.King, rules.NoSquare, true
	}
	if i := strings.IndexAny(s, "=("); i > 0 {
		s = s[:i]
	}
	if n := len(s); n >= 3 && strings.ContainsRune("QRBN", rune(s[n-1])) {
		s = s[:n-1]
	}
	if len(s) < 2 {
		return 0, rules.NoSquare, false
	}
	sq, err := rules.ParseSquare(s[len(s)-2:])
	if err != nil {
		return 0, rules.NoSquare, false
	}
	kind = rules.Pawn
	switch s[0] {
	case 'N':
		kind = rules.Knight
	case 'B':
		kind = rules.Bishop
	case 'R':
		kind = rules.Rook
	case 'Q':
		kind = rules.Queen
	case 'K':
		kind = rules.King
	}
	return kind, sq, true
}
