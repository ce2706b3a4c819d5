package handlers

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// analysisPage answers a page with the engine's analysis of game id as it
// stands (GET /g/{id}/analysis): a plain link, so it works without
// JavaScript.
func (p *pages) analysisPage(c echo.Context) error {
	id := c.Param("id")
	o, err := p.options(c)
	if err != nil {
		return p.refuse(c, err)
	}
	o.Asset, o.Base = p.asset, gamePath(id)
	req := games.AnalysisRequest{}
	if v := c.QueryParam("ply"); v != "" {
		if req.Ply, err = strconv.Atoi(v); err != nil || req.Ply < 1 {
			return p.refuse(c, invalidf("%q is not a ply: give its number, from 1.", trimText(v)))
		}
	}
	var fen string
	var variant rules.Variant
	if err := p.s.games.View(c.Request().Context(), id, player(c), func(rec *games.Record, _ games.Seats) {
		fen, variant = rec.Game.FEN(), rec.Game.Variant()
		hist, n := rec.Game.History(), req.Ply-rec.Game.StartPly()
		switch {
		case req.Ply == 0 || n < 0 || n >= len(hist):
		case n == 0:
			fen = rec.Game.StartFEN()
		default:
			fen = hist[n-1].FEN()
		}
	}); err != nil {
		return p.refuse(c, err)
	}
	res, err := p.s.games.AnalyseGame(c.Request().Context(), id, req)
	if err != nil {
		return p.refuse(c, err)
	}
	g, err := rules.FromFEN(fen, variant)
	if err != nil {
		return p.refuse(c, games.Internalf(err, "reading game %s's position", id))
	}
	pos := g.Position()
	a := views.Analysis{GameURL: templ.SafeURL(gamePath(id)), FEN: fen, Eval: evalText(g.Turn().Actor, res), Depth: res.Depth, Nodes: res.Nodes, MS: res.Time.Milliseconds(),
		Board: views.NewAnalysisBoard(&pos, res.Best), WhiteShare: views.EvalShare(g.Turn().Actor, res.Score, res.Mate)}
	if req.Ply != 0 {
		a.Ply = strconv.Itoa(req.Ply)
	}
	for _, act := range res.PV { // the line, worded on a copy of the position
		s := actionSentence(g, act)
		if g.Play(act) != nil {
			break
		}
		a.Line = append(a.Line, s)
	}
	if len(a.Line) > 0 {
		a.Best = a.Line[0]
	}
	return render(c, http.StatusOK, views.AnalysisPage(a, o))
}

// actionSentence words an action about to be played in g: "Black bans
// e2e4", "White plays Nf3".
func actionSentence(g *rules.Game, a rules.Action) string {
	actor := g.Turn().Actor.Name()
	if a.Phase == rules.PhaseBan {
		return fmt.Sprintf("%s bans %s", actor, a.Coords())
	}
	if san, err := g.MoveSAN(a); err == nil {
		return fmt.Sprintf("%s plays %s", actor, san)
	}
	return fmt.Sprintf("%s plays %s", actor, a.Coords())
}

// evalText words a result for the side to act.
func evalText(actor rules.Color, r engine.Result) string {
	switch {
	case r.Mate > 0:
		return fmt.Sprintf("%s mates in %d plies", actor.Name(), r.Mate)
	case r.Mate < 0:
		return fmt.Sprintf("%s is mated in %d plies", actor.Name(), -r.Mate)
	}
	return fmt.Sprintf("%+.2f for %s", float64(r.Score)/100, actor.Name())
}
