package pages

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/banchess/banchess/analysis"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/editor"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// PanelBudget is how long the game page's live panel lets the engine
// think: it follows every position the board shows, so it answers soon;
// so does the analysis board's answer to a ply played with scripts (the
// analysis page asked for as a page thinks for the default second, and
// "Analyse again" asks for that).
const PanelBudget = 400 * time.Millisecond

// gameAt is the position of a game an analysis is of.
type gameAt struct {
	fen     string
	variant rules.Variant
	ply     int // the ply to be played in it
	start   int // the game's first ply
	now     int // the ply the game is at
}

// analysisPage answers the engine's analysis of game id at a ply (GET
// /g/{id}/analysis?ply=N; no ply: the game now): a page with plain step
// links to the analyses of the plies around it, so it works without
// JavaScript; with panel=1 only the analysis, for the live panel beside
// the game's board (static/analysis.js), thinking for panelBudget, which
// also says why when the analysis is refused (429 tells the script to try
// again).
func (p *browse) analysisPage(c echo.Context) error {
	panel := c.QueryParam("panel") == "1"
	err := p.analyseGame(c, c.Param("id"), panel, nil)
	var pe *kit.PageError
	if err == nil || !panel || errors.As(err, &pe) {
		return err
	}
	return kit.Shown(err, func(status int, e *errs.Error) error {
		msg := sayRefusal(c, e)
		switch e.Code {
		case errs.Internal:
			msg = languageOf(c).T("analysis.failed")
		case errs.NotFound:
			msg = languageOf(c).T("analysis.noGame")
		}
		return render(c, status, views.AnalysisPanel(views.Analysis{Message: msg}))
	})
}

// analyseGame answers the analysis of game id for analysisPage: at a ply
// of its main line, or (the page only) at a spot of its lines, with the
// viewer's own moves from there (see readSpot), drawn on the game page's
// board, playable where the viewer may play a line on (the square picked
// in sel=, the promotion asked for in to=), with the board's list of
// lines and its forms. refused, when not nil, is a refusal of the board's
// form, shown in its list at its status. The final position of a
// finished game is analysed as a position (the game's analysis refuses a
// finished game); one where the game ended by the rules (a mate) is shown
// with its result and no engine line, at 200.
func (p *browse) analyseGame(c echo.Context, id string, panel bool, refused *errs.Error) error {
	o, err := p.core.options(c)
	if err != nil {
		return err
	}
	if o.Sel, err = square(c, "sel", true); err != nil {
		return err
	}
	if o.PromoTo, err = square(c, "to", true); err != nil {
		return err
	}
	var at gameAt
	var b boardSpot
	var lines *views.LineBoard
	var steps views.Steps
	var shown views.Game
	var locked, plyErr error
	final := false     // the main line's last position of a finished game
	forecasts := false // a player's board for forecasts, at a game in play: no engine
	if err := p.s.games.View(c.Request().Context(), id, kit.Player(c), func(rec *games.Record, seats games.Seats) {
		g := rec.Game
		if b, plyErr = readSpot(c.Request().Form, g.StartPly(), g.Ply()); plyErr != nil {
			return
		}
		locked = rec.MayAnalyse()
		forecasts = locked != nil && !panel && forecastsFrom(rec, seats, b)
		if b.main && len(b.moves) == 0 {
			if at, plyErr = positionAt(g, g.StartPly()+b.N); plyErr != nil || panel {
				return
			}
			final = at.ply == at.now && g.Outcome().Over()
		}
		f, acts, err := spotGame(g, b)
		if plyErr = err; err != nil {
			return
		}
		if !b.main || len(b.moves) > 0 {
			at = gameAt{fen: f.FEN(), variant: g.Variant(), ply: f.Ply(), start: g.StartPly(), now: g.Ply()}
		}
		lines, plyErr = lineBoard(languageOf(c), rec, rec.Permissions(seats), b, acts, f.Outcome().Over())
		if plyErr != nil {
			return
		}
		if !b.main || len(b.moves) > 0 {
			steps = lineSteps(g, id, b)
		}
		shown = p.spotBoard(c, rec, seats, f, o, b, lines.Play != "")
	}); err != nil {
		return err
	}
	if plyErr != nil {
		return plyErr
	}
	req := analysis.Request{Ply: at.ply}
	if panel || kit.IsHX(c) { // the live panel, and a ply played on the board with scripts: soon
		req.Budget = PanelBudget
	}
	var res engine.Result
	switch {
	case forecasts:
		err = errs.Errorf(errs.GameOver, "The engine looks at this game once it ends: here, plan your forecasts.")
	case b.main && len(b.moves) == 0 && !final:
		res, err = p.s.analysis.AnalyseGame(c.Request().Context(), id, req)
	case locked != nil:
		err = locked
	default:
		res, err = p.s.analysis.AnalysePosition(c.Request().Context(), at.fen, at.variant.ID(), analysis.Request{Budget: req.Budget})
	}
	l := languageOf(c)
	a, err := describeAnalysis(l, at.fen, at.variant, res, err)
	if err != nil && a.Message == "" {
		return err
	}
	if forecasts {
		a.Message = l.T("analysis.forecastsFirst")
	}
	a.Ply = strconv.Itoa(at.ply)
	if panel {
		return answerAnalysis(err, func(status int) error { return render(c, status, views.AnalysisPanel(a)) })
	}
	if err != nil && !forecasts { // a position the game ended in: shown with its result
		a.Message = l.T("analysis.ended")
	}
	err = nil
	return answerAnalysis(err, func(status int) error {
		a.Lines, a.Game = lines, &shown
		turned := b
		turned.flip = !b.flip
		a.FlipURL = templ.SafeURL(boardURL(id, at.start, turned, len(b.moves)))
		if refused != nil {
			lines.Error, status = sayRefusal(c, refused), kit.Status(refused.Code)
		}
		if b.main && len(b.moves) == 0 {
			analysisLinks(l, &a, id, o, at)
		} else {
			a.Steps = steps
			if a.Message == "" {
				a.PlayURL = templ.SafeURL("/?" + url.Values{"fen": {a.FEN}, "v": {at.variant.ID()}}.Encode())
			}
			a.EditURL = editURL(a.FEN, at.variant)
			a.AgainURL = templ.SafeURL(boardURL(id, at.start, b, len(b.moves)))
			a.GameURL, a.GameLabel = templ.SafeURL(o.GameURL(id)), l.T("analysis.backToGame")
		}
		if kit.IsHX(c) { // the board's own forms: the page's main, at the address it shows
			if refused == nil {
				c.Response().Header().Set("HX-Push-Url", c.Request().URL.RequestURI())
			}
			return render(c, status, views.AnalysisFragment(a))
		}
		return render(c, status, views.AnalysisPage(a, p.s.asset))
	})
}

// spotBoard lays out f, the position at spot b of rec's game, on the game
// page's board for the viewer holding seats, with o (Black at the bottom
// for Black's player, as on the game's page): playable when play says
// so, its forms posting the spot back (line and at, never ply: the
// board's own ply field is the position's).
func (p *browse) spotBoard(c echo.Context, rec *games.Record, seats games.Seats, f *rules.Game, o views.Options, b boardSpot, play bool) views.Game {
	players := playerStrips(languageOf(c), rec, seats, p.s.now(), games.Presence{})
	for i := range players {
		players[i].Clock, players[i].Presence = nil, false
	}
	q := spotQuery(b, len(b.moves)).Encode()
	base := kit.GamePath(rec.ID) + "/lines/"
	paths := views.Paths{Select: templ.SafeURL(base + "select?" + q), Ply: templ.SafeURL(base + "play?" + q),
		Page: templ.SafeURL(boardURL(rec.ID, rec.Game.StartPly(), b, len(b.moves)))}
	return views.NewAnalysisGame(f, p.s.site(c), players, seats, o, paths, play)
}

// answerAnalysis answers an analysis by show: at 200, or, when err says
// why the position has none (it is over), at err's status.
func answerAnalysis(err error, show func(status int) error) error {
	if err != nil {
		return kit.Shown(err, func(status int, _ *errs.Error) error { return show(status) })
	}
	return show(http.StatusOK)
}

// positionAt finds the position of g where ply was to be played (0: the
// game now).
func positionAt(g *rules.Game, ply int) (gameAt, error) {
	at := gameAt{fen: g.FEN(), variant: g.Variant(), ply: ply, start: g.StartPly(), now: g.Ply()}
	if ply == 0 {
		at.ply = at.now
	}
	hist, n := g.Record().History(), at.ply-at.start
	switch {
	case n < 0 || n > len(hist):
		return at, kit.Invalidf("This game's plies run from %d to %d: there is no ply %d.", at.start, at.now, at.ply)
	case n == 0:
		at.fen = g.StartFEN()
	case n < len(hist):
		at.fen = hist[n-1].FEN()
	}
	return at, nil
}

// analysisLinks sets the ways on from a game's analysis at.ply: the
// analyses of the plies around it, and the position in the game.
func analysisLinks(l *i18n.Language, a *views.Analysis, id string, o views.Options, at gameAt) {
	link := func(ply int) templ.SafeURL {
		q := url.Values{}
		if ply != at.now {
			q.Set("ply", strconv.Itoa(ply))
		}
		if o.Flip {
			q.Set("flip", "1")
		}
		if len(q) == 0 {
			return templ.SafeURL(kit.GamePath(id) + "/analysis")
		}
		return templ.SafeURL(kit.GamePath(id) + "/analysis?" + q.Encode())
	}
	if at.ply > at.start {
		a.Steps.First, a.Steps.Prev = link(at.start), link(at.ply-1)
	}
	if at.ply < at.now {
		a.Steps.Next, a.Steps.Last = link(at.ply+1), link(at.now)
	}
	a.AgainURL = link(at.ply)
	if at.ply == at.now {
		a.GameURL, a.GameLabel = templ.SafeURL(o.GameURL(id)), l.T("analysis.backToGame")
	} else {
		a.GameURL, a.GameLabel = templ.SafeURL(o.HistoryURL(id, at.ply-at.start)), l.T("analysis.seeInGame")
	}
	a.EditURL = editURL(a.FEN, at.variant)
}

// editURL opens the board editor at fen, a position of v; "" (no link)
// when the editor does not edit v's positions (EN-Chess's board).
func editURL(fen string, v rules.Variant) templ.SafeURL {
	if !editor.Edits(v) {
		return ""
	}
	return templ.SafeURL(views.EditURL(fen, v.ID()))
}

// positionAnalysis answers the engine's analysis of a bare position (GET
// /analysis?fen=…&v=…, the board editor's "Analyse this position"): the
// analysis page with no steps, leading to a game from the position and
// back to the editor. The editor's own fields (board=…, as its form
// sends them) are answered with a redirect to the address of their FEN.
func (p *browse) positionAnalysis(c echo.Context) error {
	o, err := p.core.options(c)
	if err != nil {
		return err
	}
	refused := languageOf(c).T("analysis.refused")
	q := c.QueryParams()
	if q.Get("fen") == "" && q.Has("board") {
		s, err := editor.FromQuery(q, p.s.loader.Variants())
		if err != nil {
			// A bad FEN with its cause: other languages say the editor's reason (positionReason).
			return kit.Titled(refused, &errs.Error{Code: errs.Invalid, Detail: errs.BadFEN, Msg: errs.Sentence("The position cannot be read: " + err.Error()), Err: err})
		}
		return c.Redirect(http.StatusSeeOther, views.AnalysisURL(s.FEN(), s.Variant.ID()))
	}
	fen, variant := q.Get("fen"), q.Get("v")
	g, err := p.s.loader.FromFEN(fen, variant)
	if err != nil {
		return kit.Titled(refused, err)
	}
	res, err := p.s.analysis.AnalysePosition(c.Request().Context(), fen, variant, analysis.Request{})
	a, err := describeAnalysis(languageOf(c), g.FEN(), g.Variant(), res, err)
	if err != nil && a.Message == "" {
		return kit.Titled(refused, err)
	}
	v := g.Variant().ID()
	shown := views.NewAnalysisGame(g, p.s.site(c), [2]views.Player{}, games.Seats{}, o, views.Paths{}, false)
	a.Game = &shown
	if a.Message == "" { // a finished position has nothing left to play
		a.PlayURL = templ.SafeURL("/?" + url.Values{"fen": {a.FEN}, "v": {v}}.Encode())
	}
	a.EditURL = editURL(a.FEN, g.Variant())
	a.AgainURL = templ.SafeURL(views.AnalysisURL(a.FEN, v))
	return answerAnalysis(err, func(status int) error { return render(c, status, views.AnalysisPage(a, p.s.asset)) })
}

// describeAnalysis words the engine's result res (or its refusal, err)
// on the position fen of variant. A finished position (GameOver) is an
// analysis with a message, returned with err; any other refusal is
// returned alone.
func describeAnalysis(l *i18n.Language, fen string, variant rules.Variant, res engine.Result, err error) (views.Analysis, error) {
	if err != nil && errs.Of(err).Code != errs.GameOver {
		return views.Analysis{}, err
	}
	g, ferr := rules.FromFEN(fen, variant)
	if ferr != nil {
		return views.Analysis{}, errs.Internalf(ferr, "reading the position %q", fen)
	}
	pos := g.Position()
	a := views.Analysis{FEN: fen}
	if err != nil {
		a.Message = refusalText(l, errs.Of(err))
		return a, err
	}
	actor := g.Turn().Actor
	a.Where = views.Where(l, g)
	a.Eval, a.EvalWords = views.EvalText(l, actor, res.Score, res.Mate)
	a.Depth, a.Nodes, a.MS = res.Depth, res.Nodes, res.Time.Milliseconds()
	a.Arrow, a.WhiteShare = views.NewBestArrow(res.Best), views.EvalShare(actor, res.Score, res.Mate)
	if len(res.PV) > 0 {
		a.Best = actionSentence(l, g, res.PV[0])
	}
	start := g.Ply()
	for _, act := range res.PV { // the line, played on a copy of the position
		if g.Play(act) != nil {
			break
		}
	}
	a.Line = views.PlyLine(g.Record().HistorySince(start-g.StartPly()), pos.Fullmove)
	return a, nil
}

// actionSentence words, in l, an action about to be played in g as the move list
// writes it: "Black bans e4", "White plays Nf3".
func actionSentence(l *i18n.Language, g *rules.Game, a rules.Action) string {
	white := g.Turn().Actor == rules.White
	id := map[bool]string{true: "reason.plays.w", false: "reason.plays.b"}[white]
	if a.Phase == rules.PhaseBan {
		id = map[bool]string{true: "reason.bans.w", false: "reason.bans.b"}[white]
		if san, err := g.Notation().BanSAN(a.Pair()); err == nil {
			return l.T(id, "Pair", san)
		}
		return l.T(id, "Pair", a.Coords())
	}
	if san, err := g.Notation().MoveSAN(a); err == nil {
		return l.T(id, "Action", san)
	}
	return l.T(id, "Action", a.Coords())
}
