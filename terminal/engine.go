package terminal

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// botTurn lets the computer play its plies (--bot) while it is its turn.
func (s *session) botTurn(ctx context.Context) {
	if s.bot == 0 {
		return
	}
	for {
		var botActs bool
		if !s.game.view(ctx, func(g *rules.Game) { botActs = !g.Outcome().Over() && g.Turn().Actor == s.bot }) || !botActs {
			return
		}
		res, err := s.game.svc.AnalyseGame(ctx, s.game.id, games.AnalysisRequest{Level: s.level})
		if err != nil {
			s.out.refuse("the computer cannot play: %s", reason(err))
			return
		}
		if err := s.game.svc.Play(ctx, s.game.id, s.game.cred, games.Input{Text: res.Best.String()}, onGame(s.game.played)); err != nil {
			s.out.refuse("the computer's %s was refused: %s", res.Best, reason(err))
			return
		}
	}
}

// playNow lets the computer act now, after an undo gave its turn back.
func (s *session) playNow(ctx context.Context) {
	if s.bot == 0 {
		s.out.refuse("the computer plays no side: start with --bot white or --bot black")
		return
	}
	s.botTurn(ctx)
}

// analyse writes the engine's view of the current game, thinking for the
// milliseconds in arg (or the service's default when it is empty).
func (s *session) analyse(ctx context.Context, arg string) {
	req := games.AnalysisRequest{}
	if arg != "" {
		ms, err := strconv.Atoi(arg)
		if err != nil || ms < 1 {
			s.out.refuse("analyse takes a number of milliseconds, such as analyse 2000")
			return
		}
		req.Budget = time.Duration(ms) * time.Millisecond
	}
	res, err := s.game.svc.AnalyseGame(ctx, s.game.id, req)
	if err != nil {
		s.out.refuse("%s", reason(err))
		return
	}
	s.out.say("Best: %s (%s; depth %d, %d nodes in %v)", res.Best, scoreText(res), res.Depth, res.Nodes, res.Time.Round(time.Millisecond))
	pv := make([]string, len(res.PV))
	for i, a := range res.PV {
		pv[i] = a.String()
	}
	s.out.say("Line: %s", strings.Join(pv, " "))
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
