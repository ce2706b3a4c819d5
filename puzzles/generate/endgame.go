package generate

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// The sources of self-play games (Options.Source).
const (
	// SourceSelfPlay: games from the initial position after a few random
	// actions (the default).
	SourceSelfPlay = "selfplay"
	// SourceEndgames: games from random but legal endgame-like positions
	// made for the rare themes: pawns on the 6th and 7th ranks (promotion
	// and underpromotion), a king on the edge with few escapes (mate in
	// one, mate by ban), a bare king against pawns or a queen (stalemate
	// traps), and mixed middlegame remnants (defences).
	SourceEndgames = "endgames"
)

// Sources lists the sources a run may draw its games from.
func Sources() []string { return []string{SourceSelfPlay, SourceEndgames} }

// endgameKinds are the shapes of the made positions, drawn in turn.
// promotion comes twice: its puzzles are the rarest to survive the
// screen's margins.
var endgameKinds = [...]string{"promotion", "edgeMate", "mateMove", "stalemate", "backRank", "underPromo", "mateMove", "remnant"}

// maxEndgamePly bounds a game from a made position.
const maxEndgamePly = 120

// endgamePlay plays game n of the endgame source: a position made from
// the seed and n (endgamePosition), then the engine at two levels drawn
// from 1 to maxLevel, as selfPlay does; the examination starts at ply 0.
func endgamePlay(ctx context.Context, seed uint64, n, maxLevel int, nodes *int64) (Played, error) {
	if maxLevel <= 0 {
		maxLevel = DefaultMaxLevel
	}
	// The stream differs from selfPlay's for the same seed and n.
	r := rand.New(rand.NewPCG(seed^0x656e6467616d6573, uint64(n)))
	levels := [2]int{1 + r.IntN(maxLevel), 1 + r.IntN(maxLevel)}
	kind := endgameKinds[n%len(endgameKinds)]
	var g *rules.Game
	for tries := 0; g == nil; tries++ {
		if tries > 20000 {
			return Played{}, fmt.Errorf("generate: endgame %d: no legal %s position in 20000 tries", n, kind)
		}
		g = endgamePosition(r, kind)
	}
	if err := playOut(ctx, g, levels, maxEndgamePly, nodes); err != nil {
		return Played{}, fmt.Errorf("generate: endgame %d: %w", n, err)
	}
	name := fmt.Sprintf("endgame %d (%s, seed %d, levels %d–%d)", n, kind, seed, levels[0], levels[1])
	return Played{Name: name, Start: g.StartFEN(), Actions: g.BCN(), Sharp: true}, nil
}

// board is a position being made: 8 ranks of 8 squares, rank 8 first,
// each a FEN letter or 0.
type board [8][8]byte

func (b *board) free(rank, file int) bool { return b[7-rank][file] == 0 }

// put places piece p on a free square drawn within the ranks lo–hi and
// files flo–fhi (0-based, inclusive); false if it found none.
func (b *board) put(r *rand.Rand, p byte, lo, hi, flo, fhi int) bool {
	for range 20 {
		rank, file := lo+r.IntN(hi-lo+1), flo+r.IntN(fhi-flo+1)
		if b.free(rank, file) {
			b[7-rank][file] = p
			return true
		}
	}
	return false
}

func (b *board) placement() string {
	var s strings.Builder
	for i, row := range b {
		if i > 0 {
			s.WriteByte('/')
		}
		empty := 0
		for _, c := range row {
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				s.WriteByte(byte('0' + empty))
				empty = 0
			}
			s.WriteByte(c)
		}
		if empty > 0 {
			s.WriteByte(byte('0' + empty))
		}
	}
	return s.String()
}

// side returns p as the piece of white (upper case) or black.
func side(white bool, p byte) byte {
	if white {
		return p - 'a' + 'A'
	}
	return p
}

// endgamePosition makes a position of the kind from r, at the ban that
// opens the mover's turn; nil when what it drew is not legal (the side
// not to move in check, a game already over, fewer than two actions).
func endgamePosition(r *rand.Rand, kind string) *rules.Game {
	var b board
	white := r.IntN(2) == 0 // the side the position favours
	piece := func(p byte) byte { return side(white, p) }
	enemy := func(p byte) byte { return side(!white, p) }
	// rank as seen from the favoured side: 0 its first rank, 7 the last.
	rel := func(rank int) int {
		if white {
			return rank
		}
		return 7 - rank
	}
	putRel := func(p byte, lo, hi, flo, fhi int) bool {
		a, c := rel(lo), rel(hi)
		return b.put(r, p, min(a, c), max(a, c), flo, fhi)
	}
	ok := true
	switch kind {
	case "promotion", "underPromo":
		ok = putRel(piece('k'), 0, 5, 0, 7) && putRel(enemy('k'), 2, 7, 0, 7)
		for range 1 + r.IntN(2) {
			ok = ok && putRel(piece('p'), 5, 6, 0, 7)
		}
		for range r.IntN(3) {
			ok = ok && putRel(enemy("nbrp"[r.IntN(4)]), 1, 7, 0, 7)
		}
		for range r.IntN(2) {
			ok = ok && putRel(piece("nbp"[r.IntN(3)]), 1, 6, 0, 7)
		}
	case "edgeMate", "mateMove":
		// A king on the edge with few escapes, and pieces to mate it.
		if r.IntN(2) == 0 {
			ok = putRel(enemy('k'), 7, 7, 0, 7)
		} else {
			f := 7 * r.IntN(2)
			ok = putRel(enemy('k'), 3, 7, f, f)
		}
		ok = ok && putRel(piece('k'), 0, 6, 0, 7)
		for range 1 + r.IntN(2) {
			ok = ok && putRel(piece("qrrbnn"[r.IntN(6)]), 0, 7, 0, 7)
		}
		for range r.IntN(3) {
			ok = ok && putRel(enemy('p'), 5, 6, 0, 7)
		}
		for range r.IntN(2) {
			ok = ok && putRel(enemy("nbr"[r.IntN(3)]), 2, 7, 0, 7)
		}
	case "stalemate":
		ok = putRel(enemy('k'), 5, 7, 0, 7) && putRel(piece('k'), 2, 7, 0, 7)
		if r.IntN(2) == 0 {
			ok = ok && putRel(piece('q'), 2, 7, 0, 7)
		} else {
			for range 1 + r.IntN(2) {
				ok = ok && putRel(piece('p'), 4, 6, 0, 7)
			}
		}
		for range r.IntN(2) {
			ok = ok && putRel(enemy('p'), 1, 6, 0, 7)
		}
		for range r.IntN(2) {
			ok = ok && putRel(piece("pnb"[r.IntN(3)]), 1, 6, 0, 7)
		}
	case "backRank":
		// The favoured side's opponent: a king on its back rank behind
		// its pawns, and as much material as the favoured side.
		f := r.IntN(8)
		b[7-rel(7)][f] = enemy('k')
		for df := -1; df <= 1; df++ {
			if f+df >= 0 && f+df < 8 && r.IntN(4) > 0 {
				b[7-rel(6)][f+df] = enemy('p')
			}
		}
		ok = putRel(piece('k'), 0, 1, 0, 7)
		for range 1 + r.IntN(2) {
			p := "qrrb"[r.IntN(4)]
			ok = ok && putRel(piece(p), 0, 5, 0, 7) && putRel(enemy(p), 0, 7, 0, 7)
		}
		for range r.IntN(3) {
			ok = ok && putRel(piece('p'), 1, 2, 0, 7)
		}
	default: // a remnant: a few pieces each
		ok = putRel(piece('k'), 0, 2, 0, 7) && putRel(enemy('k'), 5, 7, 0, 7)
		for range 2 + r.IntN(3) {
			ok = ok && putRel(piece("qrbnppp"[r.IntN(7)]), 1, 6, 0, 7)
		}
		for range 2 + r.IntN(3) {
			ok = ok && putRel(enemy("qrbnppp"[r.IntN(7)]), 1, 6, 0, 7)
		}
	}
	if !ok {
		return nil
	}
	// Either side may be to move; a ply of 1 opens White's turn with
	// Black's ban, 3 Black's with White's.
	mover, ply, other := "w", 1, "b"
	if r.IntN(2) == 0 {
		mover, ply, other = "b", 3, "w"
	}
	place := b.placement()
	// The side not to move must not be in check: the same board with it
	// to move must not be.
	otherPly := 4 - ply // the other side's turn opens at the other ply
	if o, err := rules.FromFEN(fmt.Sprintf("%s %s - - 0 1 %d", place, other, otherPly), puzzles.Variant()); err != nil || o.InCheck() {
		return nil
	}
	g, err := rules.FromFEN(fmt.Sprintf("%s %s - - 0 1 %d", place, mover, ply), puzzles.Variant())
	if err != nil || g.Outcome().Over() || len(g.Legal()) < 2 {
		return nil
	}
	switch kind {
	case "mateMove", "underPromo":
		return atMove(r, place, mover, ply+1, kind)
	case "backRank":
		// The banner's defence: the mover has exactly one mate at once.
		if len(endings(place, mover, ply+1, kind)) != 1 {
			return nil
		}
	}
	return g
}

// atMove starts a made position at its move ply, choosing the ban in
// force: for "mateMove" a ban that leaves the mover exactly one mate at
// once (a banner's blunder), for "underPromo" one that leaves the mover
// an underpromotion that checks, or a promotion to a queen that
// stalemates. nil when no ban does.
func atMove(r *rand.Rand, place, mover string, ply int, kind string) *rules.Game {
	ends := endings(place, mover, ply, kind)
	if len(ends) == 0 || kind == "mateMove" && len(ends) > 2 {
		return nil
	}
	free, err := rules.FromFEN(fmt.Sprintf("%s %s - - 0 1 %d", place, mover, ply), puzzles.Variant())
	if err != nil {
		return nil
	}
	keep := ends[r.IntN(len(ends))].Pair()
	var bans []rules.Pair
	for _, a := range free.Legal() {
		p := a.Pair()
		if p == keep || slices.Contains(bans, p) {
			continue
		}
		// With two mates, the ban takes the other.
		if kind == "mateMove" && len(ends) == 2 && !slices.ContainsFunc(ends, func(e rules.Action) bool { return e.Pair() == p }) {
			continue
		}
		bans = append(bans, p)
	}
	if len(bans) == 0 {
		return nil
	}
	ban := bans[r.IntN(len(bans))]
	g, err := rules.FromFEN(fmt.Sprintf("%s %s - - 0 1 %d:%s%s", place, mover, ply, ban.From, ban.To), puzzles.Variant())
	if err != nil || g.Outcome().Over() || len(g.Legal()) < 2 {
		return nil
	}
	return g
}

// endings returns the mover's moves, with no ban in force at move ply ply,
// that a made position of kind looks for: for "underPromo" promotions
// that check to a knight, bishop or rook, or stalemate to a queen; else
// moves that mate at once.
func endings(place, mover string, ply int, kind string) []rules.Action {
	g, err := rules.FromFEN(fmt.Sprintf("%s %s - - 0 1 %d", place, mover, ply), puzzles.Variant())
	if err != nil {
		return nil
	}
	var out []rules.Action
	for _, a := range g.Legal() {
		if kind == "underPromo" && a.Promotion == 0 {
			continue
		}
		if g.Play(a) != nil {
			return nil
		}
		o := g.Outcome()
		switch {
		case kind != "underPromo":
			if o.Status == rules.Checkmate {
				out = append(out, a)
			}
		case a.Promotion == rules.Queen:
			if o.Status == rules.Stalemate {
				out = append(out, a)
			}
		case g.InCheck():
			out = append(out, a)
		}
		g.Undo()
	}
	return out
}
