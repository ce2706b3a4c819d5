package rules

import "fmt"

// Branch returns a new game of v (nil: Ban Chess) from the position after
// the first n plies of g (0: its start), as a game of its own at its first
// ply: for a variant with bans, the ban before the side to move moves (ply
// 1 with White to move, 3 with Black). g is unchanged. v must be played on
// g's board (CanBranch).
func (g *Game) Branch(n int, v Variant) (*Game, error) {
	if v == nil {
		v = BanChess{}
	}
	switch {
	case n < 0 || n > len(g.plies):
		return nil, fmt.Errorf("there is no ply %d to play from: the game has %d", n, len(g.plies))
	case !CanBranch(g.variant, v):
		return nil, fmt.Errorf("a position of %s cannot be played as %s: they are played on different boards", g.variant.Name(), v.Name())
	}
	pos := g.positions[g.Record().movesIn(n)]
	suffix := ""
	if ext := StartExtension(v, &pos, false, nil); ext != "" {
		suffix = " " + ext
	}
	return FromFEN(fenOf(&pos, suffix), v)
}

// StartExtension returns the fields a FEN of v has after the six of chess
// for a game that starts from pos at the first ply of its side to move:
// for a variant with bans, at the ban of that side's move or, with move, at
// that move itself with ban (nil: none) in force. It is "" when v writes
// no more fields, as Classic does. Only pos's board and side to move are
// read (EN-Chess writes its x squares), and nothing is checked: FromFEN
// reads the FEN and says what is wrong. Branch starts its games so, and
// the board editor writes the positions it sets up.
func StartExtension(v Variant, pos *Position, move bool, ban *Pair) string {
	ply := openingPly(v, pos.ToMove)
	var banned Pair
	hasBan := false
	if move && v.HasBans() {
		ply++
		if ban != nil {
			banned, hasBan = *ban, true
		}
	}
	ext, _ := v.fenTail(pos, ply, banned, hasBan)
	return ext
}

// openingPly is the first ply of v's schedule at which side is to move: the
// ply its turn begins with (Ban Chess: the ban of its move).
func openingPly(v Variant, side Color) int {
	const cycle = 16 // every schedule gives each side a turn well within it
	for ply := 1; ply <= cycle; ply++ {
		if v.turn(ply).ToMove == side {
			return ply
		}
	}
	return 1
}
