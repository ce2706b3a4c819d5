package terminal

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// computer plays one side's bans and moves (--bot), and analyses the game
// for the player, with the service's engine.
type computer struct {
	game     *game
	analysis *analysis.Service // the engine's word on the game
	out      *printer
	side     rules.Color // the side it plays; none when 0
	level    int         // its level, 1–8
}

// play lets the computer play its plies while it is its turn.
func (c *computer) play(ctx context.Context) {
	if c.side == 0 {
		return
	}
	gm := c.game
	for {
		var botActs bool
		if !gm.view(ctx, func(g *rules.Game) { botActs = !g.Outcome().Over() && g.Turn().Actor == c.side }) || !botActs {
			return
		}
		res, err := c.analysis.AnalyseGame(ctx, gm.id, analysis.Request{Level: c.level})
		if err != nil {
			c.out.refuse("the computer cannot play: %s", reason(err))
			return
		}
		if err := gm.svc.Play(ctx, gm.id, gm.cred, games.Input{Text: res.Best.String()}, onGame(gm.played)); err != nil {
			c.out.refuse("the computer's %s was refused: %s", res.Best, reason(err))
			return
		}
	}
}

// playNow lets the computer act now, after an undo gave its turn back.
func (c *computer) playNow(ctx context.Context) {
	if c.side == 0 {
		c.out.refuse("the computer plays no side: start with --bot white or --bot black")
		return
	}
	c.play(ctx)
}

// analyse writes the engine's view of the current game, thinking for the
// milliseconds in arg (or the service's default when it is empty).
func (c *computer) analyse(ctx context.Context, arg string) {
	req := analysis.Request{}
	if arg != "" {
		ms, err := strconv.Atoi(arg)
		if err != nil || ms < 1 {
			c.out.refuse("analyse takes a number of milliseconds, such as analyse 2000")
			return
		}
		req.Budget = time.Duration(ms) * time.Millisecond
	}
	res, err := c.analysis.AnalyseGame(ctx, c.game.id, req)
	if err != nil {
		c.out.refuse("%s", reason(err))
		return
	}
	c.out.say("Best: %s (%s; depth %d, %d nodes in %v)", res.Best, scoreText(res), res.Depth, res.Nodes, res.Time.Round(time.Millisecond))
	pv := make([]string, len(res.PV))
	for i, a := range res.PV {
		pv[i] = a.String()
	}
	c.out.say("Line: %s", strings.Join(pv, " "))
}

// scoreText words a result's score for the side to act.
func scoreText(r engine.Result) string {
	switch {
	case r.Mate > 0:
		return fmt.Sprintf("mates in %d plies", r.Mate)
	case r.Mate < 0:
		return fmt.Sprintf("mated in %d plies", -r.Mate)
	}
	return fmt.Sprintf("%+.2f for the side to act", float64(r.Score)/100)
}
