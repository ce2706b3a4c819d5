package match

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/rules"
)

// UCI is an engine that speaks UCI with Fairy-Stockfish's Ban Chess
// convention (banchess uci, for one): it is given the game's start and
// every action since, bans and moves alternating, and answers whichever
// the game waits for.
type UCI struct {
	Label  string
	PerPly time.Duration // time a ply without a clock (go movetime)
	// Nodes, when not 0, bounds each ply by nodes instead of PerPly (go
	// nodes): such a match replays the same way on any machine.
	Nodes int64
	*conn
	// Outside is, for each ply, the time the engine took beyond the
	// search time its last info line gave: reading the game, the pipes,
	// waiting to be scheduled.
	Outside Durations
	// cp, mate and scored are the last search's score (see Evaluation).
	cp, mate int
	scored   bool
}

// NewUCI starts the engine path with args, selects Ban Chess and sets
// options ("name=value").
func NewUCI(label, path string, args []string, perPly time.Duration, options ...string) (*UCI, error) {
	c, err := dial(path, args...)
	if err != nil {
		return nil, err
	}
	if err := c.setup(append([]string{"UCI_Variant=banchess"}, options...)...); err != nil {
		c.Close()
		return nil, err
	}
	return &UCI{Label: label, PerPly: perPly, conn: c}, nil
}

// Name implements Player.
func (u *UCI) Name() string { return u.Label }

// Act implements Player.
func (u *UCI) Act(_ context.Context, g *rules.Game) (rules.Action, error) {
	if u.Nodes > 0 {
		return u.think(g, fmt.Sprintf("nodes %d", u.Nodes))
	}
	return u.think(g, fmt.Sprintf("movetime %d", u.PerPly.Milliseconds()))
}

// ActOnClock implements ClockPlayer.
func (u *UCI) ActOnClock(_ context.Context, g *rules.Game, c Clocks) (rules.Action, error) {
	inc := c.Increment.Milliseconds()
	return u.think(g, fmt.Sprintf("wtime %d btime %d winc %d binc %d", c.White.Milliseconds(), c.Black.Milliseconds(), inc, inc))
}

// think sends the game and "go" with params, and reads the answer as the
// ban or move g waits for.
func (u *UCI) think(g *rules.Game, params string) (rules.Action, error) {
	var b strings.Builder
	b.WriteString("position fen " + g.StartFEN())
	if acts := g.Actions(); len(acts) > 0 {
		b.WriteString(" moves")
		for _, a := range acts {
			b.WriteString(" " + a.Coords())
		}
	}
	start := time.Now()
	u.scored = false
	u.send(b.String())
	u.send("go " + params)
	var searched time.Duration
	var line string
	for u.out.Scan() {
		line = u.out.Text()
		if strings.HasPrefix(line, "bestmove") {
			break
		}
		if f := strings.Fields(line); len(f) > 0 && f[0] == "info" {
			if i := slices.Index(f, "time"); i > 0 && i+1 < len(f) {
				if ms, err := strconv.Atoi(f[i+1]); err == nil {
					searched = time.Duration(ms) * time.Millisecond
				}
			}
			u.readScore(f)
		}
	}
	if !strings.HasPrefix(line, "bestmove") {
		if err := u.out.Err(); err != nil {
			return rules.Action{}, err
		}
		return rules.Action{}, io.ErrUnexpectedEOF
	}
	u.Outside = append(u.Outside, max(time.Since(start)-searched, 0))
	f := strings.Fields(line)
	if len(f) < 2 || len(f[1]) < 4 {
		return rules.Action{}, fmt.Errorf("%s answered %q", u.Label, line)
	}
	if g.Turn().Phase == rules.PhaseBan {
		return rules.ParseAction("b:" + f[1][:4])
	}
	return rules.ParseAction("m:" + f[1])
}

// readScore notes an info line's "score cp N" or "score mate N" (mate in
// moves, as UCI counts; kept as its sign's plies are not needed).
func (u *UCI) readScore(f []string) {
	i := slices.Index(f, "score")
	if i < 0 || i+2 >= len(f) {
		return
	}
	n, err := strconv.Atoi(f[i+2])
	if err != nil {
		return
	}
	switch f[i+1] {
	case "cp":
		u.cp, u.mate, u.scored = n, 0, true
	case "mate":
		u.cp, u.mate, u.scored = 0, n, true
	}
}

// Evaluation implements Evaluator: the score of the last search's last
// info line that had one.
func (u *UCI) Evaluation() (cp, mate int, ok bool) { return u.cp, u.mate, u.scored }
