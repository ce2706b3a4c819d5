package terminal

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/banchess/banchess/rules"
)

// maxSuggestions bounds the moves listed in one message.
const maxSuggestions = 8

// act plays a line that is not a command: a ban or a move, whichever the
// turn asks for. Anything refused is explained and changes nothing.
func (s *session) act(text string) {
	if isWord(text) {
		s.unknownCommand(text)
		return
	}
	if s.game.Outcome().Over() {
		s.refuse("%s", gameOverMessage(s.game))
		return
	}
	if s.game.Turn().Phase == rules.PhaseBan {
		s.ban(text)
	} else {
		s.move(text)
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
	for _, c := range commands() {
		if d := editDistance(strings.ToLower(word), c.name); d < bestDist {
			best, bestDist = c.name, d
		}
	}
	if best != "" {
		s.refuse("%s is not a command: did you mean %s? Type help for the commands", word, best)
		return
	}
	s.refuse("%s is not a command, a ban or a move: type help for the commands", word)
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

// hasPrefix reports whether text starts with the BCN prefix p ("b:" or
// "m:"), in any case.
func hasPrefix(text, p string) bool {
	return len(text) >= len(p) && strings.EqualFold(text[:len(p)], p)
}

// coordShape reports whether s is written like squares, "e2e4" or "e7e8q",
// whether or not the squares exist. The letters are lower case: "B1a3" is
// SAN (a bishop on the first rank to a3), not squares.
func coordShape(s string) bool {
	if len(s) != 4 && len(s) != 5 {
		return false
	}
	letter := func(c byte) bool { return c >= 'a' && c <= 'z' }
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	return letter(s[0]) && digit(s[1]) && letter(s[2]) && digit(s[3])
}

// badSquare names the first of two squares written like "e9e4" that is not
// on the board, or returns "".
func badSquare(s string) string {
	for _, sq := range []string{s[0:2], s[2:4]} {
		if _, err := rules.ParseSquare(strings.ToLower(sq)); err != nil {
			return sq
		}
	}
	return ""
}

// ban plays a ban: the squares of a legal move of the side to move, with or
// without "b:".
func (s *session) ban(text string) {
	g := s.game
	t := g.Turn()
	if hasPrefix(text, "m:") {
		s.wrongPhase(text, nil)
		return
	}
	body, explicit := text, hasPrefix(text, "b:")
	if explicit {
		body = text[2:]
	}
	body = strings.TrimRight(body, "+#=")
	if !coordShape(body) {
		if explicit {
			s.refuse("%s is not a ban: write the squares of one of %s's moves, as in b:%s", text, t.ToMove.Name(), exampleAction(g).Coords())
			return
		}
		// SAN at a ban: a move typed at the wrong time.
		a, err := g.ParseMove(body)
		switch {
		case err == nil:
			s.wrongPhase(text, &a)
		case errors.Is(err, rules.ErrSyntax):
			s.notUnderstood(text, err)
		default:
			s.wrongPhase(text, nil)
		}
		return
	}
	if sq := badSquare(body); sq != "" {
		s.refuse("%s is not a square: files run from a to h and ranks from 1 to 8", sq)
		return
	}
	if len(body) == 5 && !strings.ContainsRune("qrbnQRBN", rune(body[4])) {
		s.refuse("%s is not a ban: %q is not a promotion piece (and a ban needs only the squares, as in %s)", text, body[4:], body[:4])
		return
	}
	pair, err := rules.ParsePair(strings.ToLower(body[:4]))
	if err != nil {
		s.refuse("%s is not a ban: %v", text, err)
		return
	}
	if pc := g.Position().Board[pair.From]; pc != rules.NoPiece && pc.Color() == t.Actor {
		s.wrongPhase(text, nil)
		return
	}
	san, sanErr := sanOfPair(g, pair)
	if err := g.Play(rules.BanAction(pair.From, pair.To)); err != nil {
		s.refuse("%v%s", err, s.fromSquareHint(pair.From, true))
		return
	}
	if sanErr == nil && san != pair.String() {
		s.say("%s bans %s (%s).", t.Actor.Name(), pair, strings.TrimRight(san, "+#"))
	} else {
		s.say("%s bans %s.", t.Actor.Name(), pair)
	}
	s.afterPly()
}

// sanOfPair writes the move of a pair in SAN, a promotion as to a queen.
func sanOfPair(g *rules.Game, p rules.Pair) (string, error) {
	san, err := g.MoveSAN(rules.MoveAction(p.From, p.To, 0))
	if err != nil {
		return g.MoveSAN(rules.MoveAction(p.From, p.To, rules.Queen))
	}
	return san, nil
}

// move plays a move in SAN or coordinates.
func (s *session) move(text string) {
	g := s.game
	if hasPrefix(text, "b:") {
		s.wrongPhase(text, nil)
		return
	}
	body := text
	if hasPrefix(body, "m:") {
		body = body[2:]
	}
	if b := strings.TrimRight(body, "+#="); coordShape(b) {
		if sq := badSquare(b); sq != "" {
			s.refuse("%s is not a square: files run from a to h and ranks from 1 to 8", sq)
			return
		}
		if len(b) == 5 && !strings.ContainsRune("qrbnQRBN", rune(b[4])) {
			s.refuse("%s is not a promotion piece: use q, r, b or n, as in %sq", b[4:], b[:4])
			return
		}
	} else if i := strings.IndexByte(body, '='); i >= 0 && i+1 < len(body) && !strings.ContainsRune("QRBNqrbn", rune(body[i+1])) {
		s.refuse("%s is not a promotion piece: promote to Q, R, B or N, as in %s=Q", body[i+1:i+2], body[:i])
		return
	}
	actor := g.Turn().Actor
	a, err := g.ParseMove(text)
	if err == nil {
		err = g.Play(a)
	}
	switch {
	case err == nil:
		s.say("%s plays %s.", actor.Name(), lastLog(g))
		s.afterPly()
	case errors.Is(err, rules.ErrSyntax):
		s.notUnderstood(text, err)
	case strings.Contains(err.Error(), "is banned this turn"):
		s.banned(text)
	default:
		s.illegal(text, a, err)
	}
}

// lastLog returns the last entry of the action log.
func lastLog(g *rules.Game) string {
	log := g.Log()
	return log[len(log)-1]
}

// afterPly shows the board after a ban or move, and the end of the game if
// it came.
func (s *session) afterPly() {
	s.showBoard()
	if s.game.Outcome().Over() {
		s.announceEnd()
	}
}

// notUnderstood refuses text that is neither a command nor a ban nor a move.
func (s *session) notUnderstood(text string, err error) {
	s.refuse("%v; type help for the commands, moves for the legal %ss", err, s.game.Turn().Phase)
}

// wrongPhase refuses a ban at a move or a move at a ban, with an example of
// what fits now. a, when known, is the move the player seems to have meant.
func (s *session) wrongPhase(text string, a *rules.Action) {
	g := s.game
	t := g.Turn()
	example := exampleAction(g)
	if a != nil {
		example = *a
	}
	if t.Phase == rules.PhaseBan {
		s.refuse("it is %s's turn to ban one of %s's moves: type a move of %s's, like %s",
			t.Actor.Name(), t.ToMove.Name(), t.ToMove.Name(), example.Coords())
		return
	}
	why := ""
	if ban, ok := g.Ban(); ok {
		why = fmt.Sprintf(" (%s is banned)", ban)
	}
	s.refuse("it is %s's turn to move, not to ban%s: type a move like %s or %s",
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

// banned refuses the move under the ban, naming the other moves of the same
// kind of piece: "e2e4 is banned this turn — other pawn moves: e3, d4, d3".
func (s *session) banned(text string) {
	g := s.game
	ban, _ := g.Ban()
	typed := strings.TrimRight(strings.TrimPrefix(strings.TrimPrefix(text, "m:"), "M:"), "+#=")
	head := fmt.Sprintf("%s is banned this turn", ban)
	if !strings.EqualFold(typed, ban.String()) && !strings.EqualFold(typed[:min(4, len(typed))], ban.String()) {
		head = fmt.Sprintf("%s (%s) is banned this turn", typed, ban)
	}
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
		s.refuse("%s — other %s moves: %s", head, kind, listMoves(g, moves))
		return
	}
	s.refuse("%s — %s has no other %s move; the others: %s", head, g.ToMove().Name(), kind, listMoves(g, g.Legal()))
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

// illegal explains a refused move (a is what ParseMove made of it, when it
// could) and suggests moves that fit what was typed.
func (s *session) illegal(text string, a rules.Action, err error) {
	msg := err.Error()
	if !strings.HasPrefix(msg, strings.TrimPrefix(text, "m:")) && !strings.HasPrefix(msg, text) {
		msg = text + " is not legal: " + msg
	}
	if strings.Contains(msg, "promotes a pawn") {
		s.refuse("%s", msg)
		return
	}
	if body := strings.TrimRight(strings.TrimPrefix(strings.TrimPrefix(text, "m:"), "M:"), "+#="); coordShape(body) {
		s.refuse("%s%s", msg, s.fromSquareHint(a.From, false))
		return
	}
	kind, to, ok := sanHint(text)
	if !ok {
		s.refuse("%s", msg)
		return
	}
	if strings.Contains(msg, "is ambiguous") {
		var fits []rules.Action
		for _, m := range s.game.Legal() {
			if m.To == to && s.game.Position().Board[m.From].Kind() == kind {
				fits = append(fits, m)
			}
		}
		s.refuse("%s — type %s", msg, strings.Join(sans(s.game, fits), " or "))
		return
	}
	s.refuse("%s%s", msg, s.kindHint(kind))
}

// kindHint lists the legal moves of one kind of piece: " — knight moves:
// Na3, Nc3".
func (s *session) kindHint(kind rules.PieceKind) string {
	g := s.game
	var fits []rules.Action
	for _, m := range g.Legal() {
		if g.Position().Board[m.From].Kind() == kind {
			fits = append(fits, m)
		}
	}
	if len(fits) == 0 {
		return fmt.Sprintf(" — %s has no legal %s move (type moves for the legal moves)", g.ToMove().Name(), kind)
	}
	return fmt.Sprintf(" — %s moves: %s", kind, listMoves(g, fits))
}

// fromSquareHint lists what the piece of the side to move on from can do,
// as bans (coordinates) or as moves (SAN); "" when from holds none.
func (s *session) fromSquareHint(from rules.Square, asBans bool) string {
	g := s.game
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
	s := strings.TrimRight(strings.TrimPrefix(text, "m:"), "+#!?")
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
