package match

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/rules"
)

// Stockfish plays Ban Chess through UCI, knowing chess only. Both of its
// ways ban the pair of the mover's best move (the best by its MultiPV
// search). They differ as mover:
//
//   - the rule (Aware false) plays its best move among those the ban leaves
//     (go searchmoves);
//   - aware (Aware true) looks one ban ahead: after its move it bans the
//     opponent's best reply itself, so a candidate move m is worth minus the
//     opponent's second-best reply (of a distinct pair) after m, by MultiPV
//     2. It plays the candidate (of its best few) worth the most.
type Stockfish struct {
	PerPly time.Duration
	Aware  bool
	*conn
	multiPV int // the MultiPV option as last set
}

// awareCandidates is how many of its best moves stockfish-aware weighs by
// the opponent's second-best reply.
const awareCandidates = 4

// NewStockfish starts the engine at path with one thread and 32 MiB of hash.
func NewStockfish(path string, perPly time.Duration, aware bool) (*Stockfish, error) {
	c, err := dial(path)
	if err != nil {
		return nil, err
	}
	if err := c.setup("Threads=1", "Hash=32"); err != nil {
		c.Close()
		return nil, err
	}
	return &Stockfish{PerPly: perPly, Aware: aware, conn: c, multiPV: 1}, nil
}

// Name implements Player.
func (s *Stockfish) Name() string {
	if s.Aware {
		return "stockfish-aware"
	}
	return "stockfish-rule"
}

// pvLine is one line of a MultiPV search: its first move and its score for
// the side to move, mates as ±(mateScore − moves).
type pvLine struct {
	move  string
	score int
}

const mateScore = 100_000

// search runs "go movetime" on g's board (its FEN: Stockfish knows
// nothing of the game before) with multiPV lines, among searchmoves
// when given, and returns the lines best first (at least one; a bestmove
// that names no move is an error).
func (s *Stockfish) search(g *rules.Game, think time.Duration, multiPV int, searchmoves []string) ([]pvLine, error) {
	if multiPV != s.multiPV {
		s.send("setoption name MultiPV value " + strconv.Itoa(multiPV))
		s.multiPV = multiPV
	}
	pos := g.Position()
	s.send("position fen " + pos.FEN())
	cmd := "go movetime " + strconv.FormatInt(max(think.Milliseconds(), 1), 10)
	if len(searchmoves) > 0 {
		cmd += " searchmoves " + strings.Join(searchmoves, " ")
	}
	s.send(cmd)
	lines := make([]pvLine, multiPV)
	for s.out.Scan() {
		f := strings.Fields(s.out.Text())
		if len(f) == 0 {
			continue
		}
		if f[0] == "bestmove" {
			if len(f) < 2 || len(f[1]) < 4 || f[1] == "(none)" {
				return nil, fmt.Errorf("stockfish said %q for %s", s.out.Text(), pos.FEN())
			}
			var out []pvLine
			for _, l := range lines {
				if len(l.move) >= 4 {
					out = append(out, l)
				}
			}
			if len(out) == 0 {
				out = append(out, pvLine{move: f[1]})
			}
			return out, nil
		}
		if f[0] != "info" {
			continue
		}
		if k, l, ok := parseInfo(f); ok && k >= 1 && k <= multiPV {
			lines[k-1] = l
		}
	}
	if err := s.out.Err(); err != nil {
		return nil, err
	}
	return nil, io.ErrUnexpectedEOF
}

// parseInfo reads an exact-score "info … multipv k score … pv m …" line.
func parseInfo(f []string) (k int, l pvLine, ok bool) {
	k = 1
	var scored bool
	for i := 1; i < len(f); i++ {
		switch f[i] {
		case "multipv":
			if i+1 < len(f) {
				k, _ = strconv.Atoi(f[i+1])
			}
		case "lowerbound", "upperbound":
			return 0, l, false
		case "score":
			if i+2 >= len(f) {
				return 0, l, false
			}
			n, err := strconv.Atoi(f[i+2])
			if err != nil {
				return 0, l, false
			}
			switch f[i+1] {
			case "cp":
				l.score = n
			case "mate":
				if n > 0 {
					l.score = mateScore - n
				} else {
					l.score = -mateScore - n
				}
			default:
				return 0, l, false
			}
			scored = true
		case "pv":
			if i+1 < len(f) && scored {
				l.move = f[i+1]
				return k, l, true
			}
			return 0, l, false
		}
	}
	return 0, l, false
}

// Act implements Player.
func (s *Stockfish) Act(_ context.Context, g *rules.Game) (rules.Action, error) {
	legal := g.Legal()
	if len(legal) == 0 {
		return rules.Action{}, fmt.Errorf("no legal action in %s", g.FEN())
	}
	if g.Turn().Phase == rules.PhaseBan {
		lines, err := s.search(g, s.PerPly, 1, nil)
		if err != nil {
			return rules.Action{}, err
		}
		return rules.ParseAction("b:" + lines[0].move[:4])
	}
	coords := make([]string, len(legal))
	for i, a := range legal {
		coords[i] = a.Coords()
	}
	if len(legal) == 1 {
		return legal[0], nil
	}
	if !s.Aware {
		lines, err := s.search(g, s.PerPly, 1, coords)
		if err != nil {
			return rules.Action{}, err
		}
		return rules.ParseAction("m:" + lines[0].move)
	}
	return s.aware(g, coords)
}

// aware chooses stockfish-aware's move: a quarter of its time finds its
// best few moves among those allowed (coords), the rest weighs each by the
// opponent's second-best reply.
func (s *Stockfish) aware(g *rules.Game, coords []string) (rules.Action, error) {
	n := min(awareCandidates, len(coords))
	lines, err := s.search(g, s.PerPly/4, n, coords)
	if err != nil {
		return rules.Action{}, err
	}
	each := (s.PerPly - s.PerPly/4) / time.Duration(len(lines))
	best, bestValue := "", 0
	for _, l := range lines {
		v, err := s.afterMove(g, l.move, each)
		if err != nil {
			return rules.Action{}, err
		}
		if best == "" || v > bestValue {
			best, bestValue = l.move, v
		}
	}
	return rules.ParseAction("m:" + best)
}

// afterMove is what the mover of g can expect from move m (coordinates):
// it then bans the opponent's best reply, so the opponent plays its
// second best, of a distinct pair. A move that ends the game, or leaves
// the opponent one pair (which the ban takes: mate or stalemate), is worth
// its result.
func (s *Stockfish) afterMove(g *rules.Game, m string, think time.Duration) (int, error) {
	cp, err := rules.Replay(g.Variant(), g.StartFEN(), g.BCN())
	if err != nil {
		return 0, err
	}
	me := g.Turn().Actor
	if err := cp.PlayText("m:" + m); err != nil {
		return 0, err
	}
	if bans := cp.Legal(); !cp.Outcome().Over() && len(bans) == 1 {
		if err := cp.Play(bans[0]); err != nil {
			return 0, err
		}
	}
	if o := cp.Outcome(); o.Over() {
		switch o.Winner {
		case me:
			return mateScore, nil
		case 0:
			return 0, nil
		}
		return -mateScore, nil
	}
	replies, err := s.search(cp, think, 2, nil)
	if err != nil {
		return 0, err
	}
	if len(replies) == 2 && replies[1].move[:4] != replies[0].move[:4] {
		return -replies[1].score, nil
	}
	// The two best share a pair (promotions) or the search gave one line:
	// ban the best's pair and search what is left.
	if err := cp.PlayText("b:" + replies[0].move[:4]); err != nil {
		return 0, err
	}
	var left []string
	for _, a := range cp.Legal() {
		left = append(left, a.Coords())
	}
	second, err := s.search(cp, think/2, 1, left)
	if err != nil {
		return 0, err
	}
	return -second[0].score, nil
}
