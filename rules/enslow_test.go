package rules

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// A slow, independent EN-Chess move generator, written only to check
// enMover's counts (perft). It shares no code with the engine: squares are
// names, the board is a map, and the geometry comes from a list of lines
// (ranks, files, diagonals, the two bent diagonals through x0 and x9)
// rather than from direction steps.

type slowPos struct {
	board    map[string]byte // square name → FEN letter
	white    bool            // White to move
	castling string          // some of KQkq
	ep       string          // en passant square or ""
}

// slowLines are the lines of the board; each is diagonal or not.
type slowLine struct {
	sq   []string
	diag bool
}

func slowName(f, r int) string { return string([]byte{byte('a' + f), byte('1' + r)}) }

func slowLinesOf() []slowLine {
	var lines []slowLine
	for i := range 8 {
		var rank, file []string
		for j := range 8 {
			rank = append(rank, slowName(j, i))
			file = append(file, slowName(i, j))
		}
		lines = append(lines, slowLine{rank, false}, slowLine{file, false})
	}
	// Diagonals, by walking from each edge square; the four halves that
	// meet at an x square are joined.
	seen := map[string]bool{}
	for f := range 8 {
		for r := range 8 {
			for _, d := range [][2]int{{1, 1}, {1, -1}} {
				pf, pr := f-d[0], r-d[1]
				if pf >= 0 && pf < 8 && pr >= 0 && pr < 8 {
					continue // not the start of the diagonal
				}
				var l []string
				for x, y := f, r; x >= 0 && x < 8 && y >= 0 && y < 8; x, y = x+d[0], y+d[1] {
					l = append(l, slowName(x, y))
				}
				if len(l) < 2 || seen[strings.Join(l, "")] {
					continue
				}
				seen[strings.Join(l, "")] = true
				lines = append(lines, slowLine{l, true})
			}
		}
	}
	bent := [][]string{
		{"a4", "b3", "c2", "d1", "x0", "e1", "f2", "g3", "h4"},
		{"a5", "b6", "c7", "d8", "x9", "e8", "f7", "g6", "h5"},
	}
	var out []slowLine
	for _, l := range lines {
		key := l.sq[0] + l.sq[len(l.sq)-1]
		switch key {
		case "a4d1", "d1a4", "e1h4", "h4e1", "a5d8", "d8a5", "e8h5", "h5e8":
			continue
		}
		out = append(out, l)
	}
	for _, b := range bent {
		out = append(out, slowLine{b, true})
	}
	return out
}

var slowLines = slowLinesOf()

type slowRaySet struct {
	rays [][]string
	diag []bool
}

// slowRayTable holds slowRays of every square, read only once built.
var slowRayTable = func() map[string]slowRaySet {
	m := map[string]slowRaySet{}
	for _, l := range slowLines {
		for _, sq := range l.sq {
			if _, ok := m[sq]; !ok {
				r, d := slowRaysOf(sq)
				m[sq] = slowRaySet{r, d}
			}
		}
	}
	return m
}()

func slowRays(sq string) ([][]string, []bool) {
	r := slowRayTable[sq]
	return r.rays, r.diag
}

// slowRaysOf returns, from sq, the squares along each line in each sense.
func slowRaysOf(sq string) (rays [][]string, diag []bool) {
	for _, l := range slowLines {
		i := slices.Index(l.sq, sq)
		if i < 0 {
			continue
		}
		var up, down []string
		for j := i + 1; j < len(l.sq); j++ {
			up = append(up, l.sq[j])
		}
		for j := i - 1; j >= 0; j-- {
			down = append(down, l.sq[j])
		}
		for _, r := range [][]string{up, down} {
			if len(r) > 0 {
				rays, diag = append(rays, r), append(diag, l.diag)
			}
		}
	}
	return rays, diag
}

func slowAdjacent(sq string) []string {
	rays, _ := slowRays(sq)
	var out []string
	for _, r := range rays {
		out = append(out, r[0])
	}
	return out
}

func slowKnight(sq string) []string {
	if sq[0] == 'x' {
		return nil
	}
	f, r := int(sq[0]-'a'), int(sq[1]-'1')
	var out []string
	for _, d := range [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
		if x, y := f+d[0], r+d[1]; x >= 0 && x < 8 && y >= 0 && y < 8 {
			out = append(out, slowName(x, y))
		}
	}
	return out
}

func slowWhite(c byte) bool { return c >= 'A' && c <= 'Z' }
func slowUpper(c byte) byte { return c &^ 0x20 }

func slowParse(t testing.TB, fen string) slowPos {
	t.Helper()
	f := strings.Fields(fen)
	p := slowPos{board: map[string]byte{}, white: f[1] == "w", castling: strings.Trim(f[2], "-")}
	if f[3] != "-" {
		p.ep = f[3]
	}
	for i, row := range strings.Split(f[0], "/") {
		file := 0
		for _, c := range []byte(row) {
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				continue
			}
			p.board[slowName(file, 7-i)] = c
			file++
		}
	}
	for i, sq := range []string{"x0", "x9"} {
		if c := f[6][i]; c != '-' {
			p.board[sq] = c
		}
	}
	return p
}

// slowInfluence is own Aurors minus enemy Aurors next to sq.
func slowInfluence(p slowPos, sq string, white bool) int {
	n := 0
	for _, a := range slowAdjacent(sq) {
		if c, ok := p.board[a]; ok && slowUpper(c) == 'A' {
			if slowWhite(c) == white {
				n++
			} else {
				n--
			}
		}
	}
	return n
}

// slowAttacks reports whether side white attacks sq, by trying every piece.
func slowAttacks(p slowPos, sq string, white bool) bool {
	for from, c := range p.board {
		if slowWhite(c) != white {
			continue
		}
		switch slowUpper(c) {
		case 'P':
			fwd := 1
			if !white {
				fwd = -1
			}
			for _, a := range slowPawnCaptures(from, fwd) {
				if a == sq {
					return true
				}
			}
		case 'N':
			if slices.Contains(slowKnight(from), sq) {
				return true
			}
		case 'K':
			if slices.Contains(slowAdjacent(from), sq) {
				return true
			}
		case 'B', 'R', 'Q':
			inf := slowInfluence(p, from, white)
			rays, diag := slowRays(from)
			for i, r := range rays {
				if !slowSlides(slowUpper(c), diag[i]) {
					continue
				}
				passed := 0
				for k, s := range r {
					if inf < 0 && k > 0 {
						break
					}
					if s == sq {
						return true
					}
					if _, ok := p.board[s]; ok {
						passed++
						if inf <= 0 || passed > 1 {
							break
						}
					}
				}
			}
		}
	}
	return false
}

func slowSlides(k byte, diag bool) bool { return k == 'Q' || k == 'B' && diag || k == 'R' && !diag }

// slowPawnCaptures: the diagonally forward neighbours of a pawn.
func slowPawnCaptures(from string, fwd int) []string {
	var out []string
	for _, a := range slowAdjacent(from) {
		if from[0] == 'x' {
			continue
		}
		r := int(from[1] - '1')
		switch {
		case a == "x9" && fwd == 1 && r == 7, a == "x0" && fwd == -1 && r == 0:
			out = append(out, a)
		case a[0] != 'x' && int(a[1]-'1') == r+fwd && a[0] != from[0]:
			out = append(out, a)
		}
	}
	return out
}

func slowCheckedKings(p slowPos, white bool) (checked, kings int) {
	for sq, c := range p.board {
		if slowUpper(c) == 'K' && slowWhite(c) == white {
			kings++
			if slowAttacks(p, sq, !white) {
				checked++
			}
		}
	}
	return checked, kings
}

// slowMove is a move as text ("e2e4", "d7d8k", "0000") and the position it
// leads to.
type slowMove struct {
	text string
	next slowPos
}

func (p slowPos) clone() slowPos {
	q := p
	q.board = maps.Clone(p.board)
	return q
}

// slowPseudo lists the moves before the check rule.
func slowPseudo(p slowPos) []slowMove {
	var out []slowMove
	own := func(sq string) bool { c, ok := p.board[sq]; return ok && slowWhite(c) == p.white }
	enemy := func(sq string) bool { c, ok := p.board[sq]; return ok && slowWhite(c) != p.white }
	empty := func(sq string) bool { _, ok := p.board[sq]; return !ok }
	piece := func(k byte) byte {
		if p.white {
			return k
		}
		return k | 0x20
	}
	emit := func(text string, edit func(q *slowPos)) {
		q := p.clone()
		q.ep = ""
		edit(&q)
		// Castling rights go when a king or rook home square is touched.
		for _, r := range []struct{ right, a, b string }{{"K", "e1", "h1"}, {"Q", "e1", "a1"}, {"k", "e8", "h8"}, {"q", "e8", "a8"}} {
			for i := 0; i+1 < len(text) && i < 4; i += 2 {
				if s := text[i : i+2]; s == r.a || s == r.b {
					q.castling = strings.ReplaceAll(q.castling, r.right, "")
				}
			}
		}
		q.white = !p.white
		out = append(out, slowMove{text, q})
	}
	for from, c := range p.board {
		if slowWhite(c) != p.white {
			continue
		}
		switch k := slowUpper(c); k {
		case 'P':
			fwd, last, home := 1, byte('8'), byte('2')
			if !p.white {
				fwd, last, home = -1, '1', '7'
			}
			// arrive: a pawn reaching to may stay, or become a king or an Auror
			// on its last rank.
			arrive := func(to string) {
				choices := []string{""}
				if to[1] == last {
					choices = []string{"", "k", "a"}
				}
				for _, pr := range choices {
					emit(from+to+pr, func(q *slowPos) {
						delete(q.board, from)
						q.board[to] = c
						if pr != "" {
							q.board[to] = piece(slowUpper(pr[0]))
						}
					})
				}
			}
			if from[1] == last {
				for _, pr := range "qrbnka" {
					emit(from+from+string(pr), func(q *slowPos) { q.board[from] = piece(slowUpper(byte(pr))) })
				}
			} else {
				one := slowName(int(from[0]-'a'), int(from[1]-'1')+fwd)
				if empty(one) {
					arrive(one)
					two := slowName(int(from[0]-'a'), int(from[1]-'1')+2*fwd)
					if from[1] == home && empty(two) {
						emit(from+two, func(q *slowPos) {
							delete(q.board, from)
							q.board[two] = c
							q.ep = one
						})
					}
				}
			}
			for _, to := range slowPawnCaptures(from, fwd) {
				switch {
				case enemy(to) && to[0] == 'x':
					for _, pr := range "qbnka" {
						emit(from+to+string(pr), func(q *slowPos) {
							delete(q.board, from)
							q.board[to] = piece(slowUpper(byte(pr)))
						})
					}
				case enemy(to) && from[1] != last:
					arrive(to)
				case to == p.ep && empty(to):
					emit(from+to, func(q *slowPos) {
						delete(q.board, from)
						q.board[to] = c
						delete(q.board, string([]byte{to[0], from[1]}))
					})
				}
			}
		case 'N':
			for _, to := range slowKnight(from) {
				if !own(to) {
					emit(from+to, func(q *slowPos) { delete(q.board, from); q.board[to] = c })
				}
			}
		case 'K':
			for _, to := range slowAdjacent(from) {
				if !own(to) {
					emit(from+to, func(q *slowPos) { delete(q.board, from); q.board[to] = c })
				}
			}
			for _, cs := range []struct {
				right, king, to, rook, rookTo string
				between, safe                 []string
			}{
				{"K", "e1", "g1", "h1", "f1", []string{"f1", "g1"}, []string{"e1", "f1", "g1"}},
				{"Q", "e1", "c1", "a1", "d1", []string{"d1", "c1", "b1"}, []string{"e1", "d1", "c1"}},
				{"k", "e8", "g8", "h8", "f8", []string{"f8", "g8"}, []string{"e8", "f8", "g8"}},
				{"q", "e8", "c8", "a8", "d8", []string{"d8", "c8", "b8"}, []string{"e8", "d8", "c8"}},
			} {
				if from != cs.king || !strings.Contains(p.castling, cs.right) || p.board[cs.rook] != piece('R') {
					continue
				}
				ok := true
				for _, s := range cs.between {
					ok = ok && empty(s)
				}
				for _, s := range cs.safe {
					ok = ok && !slowAttacks(p, s, !p.white)
				}
				if ok {
					emit(from+cs.to, func(q *slowPos) {
						delete(q.board, from)
						delete(q.board, cs.rook)
						q.board[cs.to], q.board[cs.rookTo] = c, piece('R')
					})
				}
			}
		case 'A':
			for _, to := range append(slowAdjacent(from), slowKnight(from)...) {
				if empty(to) {
					emit(from+to, func(q *slowPos) { delete(q.board, from); q.board[to] = c })
				}
			}
			for to, d := range p.board {
				if d == piece('K') {
					emit(from+to, func(q *slowPos) { q.board[from], q.board[to] = d, c })
				}
			}
		default:
			inf := slowInfluence(p, from, p.white)
			rays, diag := slowRays(from)
			// Orthogonal lines first: when two lines reach one square, the
			// move is the first legal one.
			order := make([]int, 0, len(rays))
			for i := range rays {
				if !diag[i] {
					order = append(order, i)
				}
			}
			for i := range rays {
				if diag[i] {
					order = append(order, i)
				}
			}
			for _, i := range order {
				r := rays[i]
				if !slowSlides(k, diag[i]) {
					continue
				}
				var over []string
				passed := false
				for j, to := range r {
					if inf < 0 && j > 0 {
						break
					}
					if !own(to) {
						kill := slices.Clone(over)
						emit(from+to, func(q *slowPos) {
							for _, s := range kill {
								delete(q.board, s)
							}
							delete(q.board, from)
							q.board[to] = c
						})
					}
					if empty(to) {
						continue
					}
					if inf <= 0 || passed {
						break
					}
					passed = true
					if enemy(to) {
						over = append(over, to)
					}
				}
			}
		}
	}
	return out
}

// slowLegal applies the check rule and the pass; moves with the same text
// count once.
func slowLegal(p slowPos) []slowMove {
	checked, kings := slowCheckedKings(p, p.white)
	seen := map[string]bool{}
	var out []slowMove
	for _, m := range slowPseudo(p) {
		after, _ := slowCheckedKings(m.next, p.white)
		if checked == 0 && after > 0 || checked > 0 && after >= checked || seen[m.text] {
			continue
		}
		seen[m.text] = true
		out = append(out, m)
	}
	if len(out) == 0 && checked > 0 && checked < kings {
		q := p.clone()
		q.ep, q.white = "", !p.white
		out = append(out, slowMove{"0000", q})
	}
	return out
}

func slowPerft(p slowPos, depth int) int {
	if depth == 0 {
		return 1
	}
	if _, kings := slowCheckedKings(p, p.white); kings == 0 {
		return 0 // the game is over
	}
	n := 0
	for _, m := range slowLegal(p) {
		n += slowPerft(m.next, depth-1)
	}
	return n
}

// perft counts the leaf nodes of g's legal actions to depth, playing and
// undoing them.
func perft(t testing.TB, g *Game, depth int) int {
	if depth == 0 {
		return 1
	}
	n := 0
	for _, a := range g.Legal() {
		if err := g.Play(a); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		n += perft(t, g, depth-1)
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	return n
}
