package handlers

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/views"
)

// pages serves the playground: full pages for plain forms (Post/Redirect/
// Get) and #game fragments for htmx requests.
type pages struct {
	s       *Server
	asset   string            // version of the static files, for cache busting
	initial map[string]string // each variant's initial extended FEN, by ID
}

// pageRoutes adds the playground's pages and fragments.
func (s *Server) pageRoutes(e *echo.Echo) {
	p := &pages{s: s, asset: assetVersion(), initial: map[string]string{}}
	for _, v := range rules.Variants() {
		p.initial[v.ID()] = rules.New(v).StartFEN()
	}
	e.GET("/", p.index)
	e.GET("/history/:index", p.history)
	e.GET("/game.pgn", p.downloadPGN)
	e.POST("/select", p.selectSquare)
	e.POST("/ply", p.ply)
	e.POST("/undo", p.undo)
	e.POST("/resign", p.resign)
	e.POST("/draw", p.draw)
	e.POST("/new", p.newGame)
	e.POST("/import", p.importGame)
	e.GET("/static/*", p.static)
	e.RouteNotFound("/*", p.notFound)
}

// userError is a request the user can correct: its message is shown.
type userError struct {
	status int
	msg    string
}

func (e *userError) Error() string { return e.msg }

// badRequest turns err (from the rules, or a form) into a 400 for the user.
func badRequest(err error) error {
	var ue *userError
	if errors.As(err, &ue) {
		return err
	}
	return &userError{http.StatusBadRequest, sentence(err.Error())}
}

func badRequestf(format string, args ...any) error {
	return &userError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// sentence capitalises msg and ends it with a full stop.
func sentence(msg string) string {
	if msg == "" {
		return msg
	}
	r := []rune(msg)
	r[0] = unicode.ToUpper(r[0])
	msg = string(r)
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

func isHX(c echo.Context) bool {
	h := c.Request().Header
	return h.Get("HX-Request") == "true" && h.Get("HX-History-Restore-Request") != "true"
}

// renderSize is room for a page or fragment in play: a fragment at ply 80
// is about 28 KB.
const renderSize = 48 << 10

// render writes t as HTML with status; pages change with every ply, so they
// are never cached.
func render(c echo.Context, status int, t templ.Component) error {
	var buf bytes.Buffer
	buf.Grow(renderSize) // one allocation for most pages instead of a dozen
	if err := t.Render(c.Request().Context(), &buf); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	h := c.Response().Header()
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Cache-Control", "no-store")
	h.Add("Vary", "HX-Request")
	return c.HTMLBlob(status, buf.Bytes())
}

// options reads the form (or query) and the view choices it carries.
func options(c echo.Context) (views.Options, error) {
	o := views.NoSelection()
	if err := c.Request().ParseForm(); err != nil {
		status, msg := formError(err)
		return o, &userError{status, msg}
	}
	f := c.Request().Form
	o.Flip = f.Get("flip") == "1"
	o.Auto = f.Get("auto") == "1"
	return o, nil
}

// square reads a square field; optional allows it to be empty.
func square(c echo.Context, field string, optional bool) (rules.Square, error) {
	v := strings.TrimSpace(c.Request().Form.Get(field))
	if v == "" && optional {
		return rules.NoSquare, nil
	}
	if v == "" {
		return rules.NoSquare, badRequestf("The form has no %q square.", field)
	}
	s, err := rules.ParseSquare(v)
	if err != nil || len(v) > 2 {
		return rules.NoSquare, badRequestf("%q is not a square: use a file a–h and a rank 1–8, such as e4.", trunc(v))
	}
	return s, nil
}

// trunc shortens echoed input.
func trunc(s string) string {
	if len(s) > 24 {
		return s[:24] + "…"
	}
	return s
}

// promotion reads the promotion field: "", q, r, b or n.
func promotion(c echo.Context) (rules.PieceKind, error) {
	switch v := c.Request().Form.Get("promotion"); strings.ToLower(v) {
	case "":
		return 0, nil
	case "q":
		return rules.Queen, nil
	case "r":
		return rules.Rook, nil
	case "b":
		return rules.Bishop, nil
	case "n":
		return rules.Knight, nil
	default:
		return 0, badRequestf("%q is not a promotion piece: use q, r, b or n.", trunc(v))
	}
}

// checkPly refuses a form made at another ply than the game's: the page was
// stale (another tab played), so acting on it could play the wrong ply.
func checkPly(c echo.Context, g *rules.Game) error {
	v := c.Request().Form.Get("ply")
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return badRequestf("%q is not a ply number.", trunc(v))
	}
	if n != g.Ply() {
		return &userError{http.StatusConflict, fmt.Sprintf(
			"This board was out of date: the game is now at ply %d, so nothing was played. Here is the current position.", g.Ply())}
	}
	return nil
}

// model describes game id for the page, under its lock.
func (p *pages) model(c echo.Context, id string, o views.Options) (views.Game, error) {
	var m views.Game
	err := p.s.store.View(c.Request().Context(), id, func(g *rules.Game) error {
		o.Asset = p.asset
		o.ShareURL = shareURL(p.s.scheme(c), c.Request().Host, g, p.initial[g.Variant().ID()])
		o.PGN = g.PGN(p.tags()...)
		m = views.NewGame(g, o)
		return nil
	})
	return m, err
}

func (p *pages) tags() []rules.Tag {
	return []rules.Tag{{Name: "Site", Value: "Ban Chess playground"}, {Name: "Date", Value: p.s.now().Format("2006.01.02")}}
}

// show renders the session's game with status: the whole page, or the #game
// fragment for htmx. A session without a (live) game gets a new one.
func (p *pages) show(c echo.Context, status int, o views.Options) error {
	id := sessionGame(c)
	m, err := p.model(c, id, o)
	if errors.Is(err, store.ErrNotFound) {
		if id, err = p.create(c, rules.New(rules.BanChess{})); err == nil {
			m, err = p.model(c, id, o)
		}
	}
	if err != nil {
		return p.internal(c, fmt.Errorf("show game: %w", err))
	}
	if isHX(c) {
		return render(c, status, views.Fragment(m))
	}
	return render(c, status, views.Page(m))
}

// create stores g as the session's new game, when the client may create
// one now (else the error is a *limitError).
func (p *pages) create(c echo.Context, g *rules.Game) (string, error) {
	if err := p.s.allowGame(c); err != nil {
		return "", err
	}
	id, err := p.s.store.Create(c.Request().Context(), g)
	if err != nil {
		return "", fmt.Errorf("create game: %w", err)
	}
	setSessionGame(c, id, p.s.scheme(c) == "https")
	return id, nil
}

// internal answers a failure that is not the user's to correct: a limit's
// refusal with its own status and message, or a server-side failure
// without its details (they go to the log).
func (p *pages) internal(c echo.Context, err error) error {
	var le *limitError
	if errors.As(err, &le) {
		return refuseLimit(c, le)
	}
	p.s.logFailure(c, "request failed", err)
	return refuse(c, http.StatusInternalServerError, "Something went wrong",
		"The server could not complete this request. Please try again.")
}

// fail answers a refused request: the game again, with the message.
func (p *pages) fail(c echo.Context, o views.Options, err error) error {
	var ue *userError
	if !errors.As(err, &ue) {
		return p.internal(c, err)
	}
	o.Error = ue.msg
	return p.show(c, ue.status, o)
}

// done answers a request that worked: the fragment for htmx, or a redirect
// to the page for a plain form (Post/Redirect/Get).
func (p *pages) done(c echo.Context, o views.Options, extra ...string) error {
	if isHX(c) {
		return p.show(c, http.StatusOK, o)
	}
	sel, to := "", ""
	if o.Sel.Valid() {
		sel = o.Sel.String()
	}
	if o.PromoTo.Valid() {
		to = o.PromoTo.String()
	}
	return c.Redirect(http.StatusSeeOther, o.Query(append([]string{"sel", sel, "to", to}, extra...)...))
}

// update runs fn on the session's game under its lock and answers.
func (p *pages) update(c echo.Context, fn func(g *rules.Game, o *views.Options) error) error {
	o, err := options(c)
	if err != nil {
		return p.fail(c, o, err)
	}
	id := sessionGame(c)
	err = p.s.store.Update(c.Request().Context(), id, func(g *rules.Game) error { return fn(g, &o) })
	if errors.Is(err, store.ErrNotFound) {
		o.Sel, o.PromoTo = rules.NoSquare, rules.NoSquare
		err = badRequestf("This session has no game on the server (it may have expired), so nothing was played. A new game has started.")
	}
	if err != nil {
		return p.fail(c, o, err)
	}
	return p.done(c, o)
}

// index shows the session's game; with fen, pgn or a (actions) in the query
// it opens that game first.
func (p *pages) index(c echo.Context) error {
	q := c.QueryParams()
	if q.Has("fen") || q.Has("pgn") || q.Has("a") {
		return p.open(c)
	}
	o, err := options(c)
	if err != nil {
		return p.fail(c, o, err)
	}
	if o.Sel, err = square(c, "sel", true); err != nil {
		return p.fail(c, o, err)
	}
	if o.PromoTo, err = square(c, "to", true); err != nil {
		return p.fail(c, o, err)
	}
	if q.Get("notice") == "chess" {
		o.Notice = chessNotice
	}
	return p.show(c, http.StatusOK, o)
}

const chessNotice = "This PGN has no bans: its moves were played as chess and the final position starts a new Ban Chess game."

// open starts a game from a link: /?fen=…, /?pgn=…, or a share link
// /?v=…&fen=…&a=b:e2e4,m:d2d4&end=….
func (p *pages) open(c echo.Context) error {
	o, err := options(c)
	if err != nil {
		return p.fail(c, o, err)
	}
	g, err := gameFromQuery(c.QueryParams(), p.s.limits)
	if err != nil {
		return refuse(c, http.StatusBadRequest, "This link does not open a game", sentence(err.Error()))
	}
	if _, err := p.create(c, g); err != nil {
		return p.internal(c, err)
	}
	notice := ""
	if g.FromChessGame() {
		notice = "chess"
	}
	return c.Redirect(http.StatusSeeOther, o.Query("notice", notice))
}

// gameFromQuery builds the game a link describes, within the limits.
func gameFromQuery(q url.Values, l Limits) (*rules.Game, error) {
	if pgn := q.Get("pgn"); q.Has("pgn") {
		if strings.TrimSpace(pgn) == "" {
			return nil, errors.New("the pgn parameter is empty")
		}
		return rules.FromPGN(pgn, l.pgnOptions(nil))
	}
	v, err := rules.VariantByID(q.Get("v"))
	if err != nil {
		return nil, err
	}
	var acts []string
	if a := q.Get("a"); a != "" {
		acts = strings.Split(a, ",")
	}
	if err := l.checkPlies(len(acts)); err != nil {
		return nil, err
	}
	fen := q.Get("fen")
	if q.Has("fen") && strings.TrimSpace(fen) == "" {
		return nil, errors.New("the fen parameter is empty")
	}
	if err := l.checkFEN(fen); err != nil {
		return nil, err
	}
	g, err := rules.Replay(v, fen, acts)
	if err != nil {
		return nil, err
	}
	switch end := q.Get("end"); end {
	case "":
	case "white-resigned":
		err = g.Resign(rules.White)
	case "black-resigned":
		err = g.Resign(rules.Black)
	case "draw":
		err = g.AgreeDraw()
	default:
		err = fmt.Errorf("%q is not an ending: use white-resigned, black-resigned or draw", trunc(end))
	}
	return g, err
}

// shareURL is an absolute link, on scheme://host, that rebuilds g from
// nothing but itself: the variant, the start position (unless it is initial,
// the variant's initial FEN), every action, and a resignation or agreed draw.
func shareURL(scheme, host string, g *rules.Game, initial string) string {
	q := url.Values{}
	if id := g.Variant().ID(); id != (rules.BanChess{}).ID() {
		q.Set("v", id)
	}
	if start := g.StartFEN(); start != initial {
		q.Set("fen", start)
	}
	var actions []byte
	for i, a := range g.Actions() {
		if i > 0 {
			actions = append(actions, ',')
		}
		actions, _ = a.AppendText(actions)
	}
	q.Set("a", string(actions))
	switch o := g.Outcome(); o.Reason {
	case rules.Resignation:
		q.Set("end", o.Winner.Other().String()+"-resigned")
	case rules.Agreement:
		q.Set("end", "draw")
	}
	return scheme + "://" + host + "/?" + q.Encode()
}

// selectSquare picks a square (the no-JavaScript way): the page comes back
// with its destinations marked. Picking the picked square again, or a square
// with nothing to do, clears the selection.
func (p *pages) selectSquare(c echo.Context) error {
	o, err := options(c)
	if err != nil {
		return p.fail(c, o, err)
	}
	sq, err := square(c, "square", false)
	if err != nil {
		return p.fail(c, o, err)
	}
	from, err := square(c, "from", true)
	if err != nil {
		return p.fail(c, o, err)
	}
	if sq != from {
		o.Sel = sq // views.NewGame drops a selection with no legal action
	}
	if !isHX(c) {
		if err := p.s.store.View(c.Request().Context(), sessionGame(c), func(g *rules.Game) error {
			if !canPick(g, sq) {
				o.Sel = rules.NoSquare
			}
			return nil
		}); err != nil && !errors.Is(err, store.ErrNotFound) {
			return p.internal(c, err)
		}
	}
	return p.done(c, o)
}

// canPick reports whether some legal action starts on sq.
func canPick(g *rules.Game, sq rules.Square) bool {
	for _, a := range g.Legal() {
		if a.From == sq {
			return true
		}
	}
	return false
}

// ply plays a ban or a move: from the board (from, to, promotion) or typed
// (text: "e2e4", "Nf3", "b:e2e4").
func (p *pages) ply(c echo.Context) error {
	return p.update(c, func(g *rules.Game, o *views.Options) error {
		if err := checkPly(c, g); err != nil {
			return err
		}
		a, err := p.action(c, g, o)
		if err != nil || o.PromoTo.Valid() {
			return err
		}
		if err := g.Play(a); err != nil {
			return badRequest(err)
		}
		return nil
	})
}

// action reads the action a ply form posts. A move that promotes without a
// piece chosen sets o to open the promotion picker instead.
func (p *pages) action(c echo.Context, g *rules.Game, o *views.Options) (rules.Action, error) {
	f := c.Request().Form
	if text := strings.TrimSpace(f.Get("text")); text != "" {
		a, err := typedAction(g, text)
		if err != nil {
			return a, badRequest(err)
		}
		return a, nil
	}
	from, err := square(c, "from", false)
	if err != nil {
		return rules.Action{}, err
	}
	to, err := square(c, "to", false)
	if err != nil {
		return rules.Action{}, err
	}
	promo, err := promotion(c)
	if err != nil {
		return rules.Action{}, err
	}
	if g.Turn().Phase == rules.PhaseBan {
		return rules.BanAction(from, to), nil // a ban removes every promotion: none is chosen
	}
	if promo == 0 && promotes(g, from, to) {
		o.Sel, o.PromoTo = from, to
		return rules.Action{}, nil
	}
	return rules.MoveAction(from, to, promo), nil
}

// promotes reports whether the legal move from→to is a promotion.
func promotes(g *rules.Game, from, to rules.Square) bool {
	for _, a := range g.Legal() {
		if a.From == from && a.To == to && a.Promotion != 0 {
			return true
		}
	}
	return false
}

// typedAction reads a typed action: BCN ("b:e2e4", "m:e7e8q"), or at a ban
// a pair ("e2e4") or the SAN of the move to ban ("Nf3"), or at a move SAN or
// coordinates.
func typedAction(g *rules.Game, text string) (rules.Action, error) {
	if len(text) > 16 {
		return rules.Action{}, fmt.Errorf("%q is too long for an action", trunc(text))
	}
	if strings.HasPrefix(text, "b:") || strings.HasPrefix(text, "m:") {
		return rules.ParseAction(text)
	}
	if g.Turn().Phase == rules.PhaseBan {
		if pair, err := rules.ParsePair(text); err == nil {
			return rules.BanAction(pair.From, pair.To), nil
		}
		return rules.Action{}, fmt.Errorf("%q is not a ban: type the from and to squares, such as e2e4", text)
	}
	return g.ParseMove(text)
}

// undo takes back the last ply (or a resignation or agreed draw).
func (p *pages) undo(c echo.Context) error {
	return p.update(c, func(g *rules.Game, o *views.Options) error {
		out := g.Outcome()
		hist := g.History()
		if err := g.Undo(); err != nil {
			return badRequest(err)
		}
		switch {
		case out.Reason == rules.Resignation || out.Reason == rules.Agreement:
			o.Announce = "Took back: " + views.Banner(out)
		case len(hist) > 0:
			o.Announce = views.TookBack(hist[len(hist)-1])
		}
		return nil
	})
}

// resign ends the game: side (white or black) resigns.
func (p *pages) resign(c echo.Context) error {
	return p.update(c, func(g *rules.Game, o *views.Options) error {
		side, err := rules.ParseColor(c.Request().Form.Get("side"))
		if err != nil {
			return badRequestf("%q is not a side: use white or black.", trunc(c.Request().Form.Get("side")))
		}
		if err := g.Resign(side); err != nil {
			return badRequest(err)
		}
		o.Announce = views.Banner(g.Outcome())
		return nil
	})
}

// draw ends the game as a draw by agreement.
func (p *pages) draw(c echo.Context) error {
	return p.update(c, func(g *rules.Game, o *views.Options) error {
		if err := g.AgreeDraw(); err != nil {
			return badRequest(err)
		}
		o.Announce = views.Banner(g.Outcome())
		return nil
	})
}

// newGame starts a new game of the chosen variant in this session.
func (p *pages) newGame(c echo.Context) error {
	o, err := options(c)
	if err != nil {
		return p.fail(c, o, err)
	}
	v, err := rules.VariantByID(c.Request().Form.Get("variant"))
	if err != nil {
		return p.fail(c, o, badRequest(err))
	}
	if _, err := p.create(c, rules.New(v)); err != nil {
		return p.internal(c, err)
	}
	o.Announce = "New " + v.Name() + " game"
	return p.done(c, o)
}

// importGame starts a game from a pasted FEN or PGN. A bad one keeps the
// current game and shows the reader's message beside the text.
func (p *pages) importGame(c echo.Context) error {
	o, err := options(c)
	if err != nil {
		return p.fail(c, o, err)
	}
	f := c.Request().Form
	text := strings.TrimSpace(f.Get("text"))
	o.ImportText = f.Get("text")
	g, err := importText(text, f.Get("variant"), p.s.limits)
	if err != nil {
		o.ImportError = sentence(err.Error())
		return p.show(c, http.StatusBadRequest, o)
	}
	o.ImportText = ""
	if _, err := p.create(c, g); err != nil {
		return p.internal(c, err)
	}
	notice := ""
	if g.FromChessGame() {
		notice, o.Notice = "chess", chessNotice
	}
	o.Announce = "Game loaded"
	return p.done(c, o, "notice", notice)
}

// importText reads text as a FEN (of variant) or a PGN, within the limits.
func importText(text, variant string, l Limits) (*rules.Game, error) {
	if text == "" {
		return nil, errors.New("paste a FEN or a PGN first")
	}
	if rules.LooksLikeFEN(text) {
		if err := l.checkFEN(text); err != nil {
			return nil, err
		}
		v, err := rules.VariantByID(variant)
		if err != nil {
			return nil, err
		}
		return rules.FromFEN(text, v)
	}
	return rules.FromPGN(text, l.pgnOptions(nil))
}

// history shows the board after the first index plies, read-only.
func (p *pages) history(c echo.Context) error {
	o, err := options(c)
	if err != nil {
		return p.fail(c, o, err)
	}
	index, err := strconv.Atoi(c.Param("index"))
	if err != nil {
		return refuse(c, http.StatusBadRequest, "No such ply", fmt.Sprintf("%q is not a ply number.", trunc(c.Param("index"))))
	}
	o.Asset = p.asset
	var m views.Game
	err = p.s.store.View(c.Request().Context(), sessionGame(c), func(g *rules.Game) error {
		o.PGN = g.PGN(p.tags()...)
		var err error
		m, err = views.NewHistoryView(g, index, o)
		return err
	})
	switch {
	case errors.Is(err, store.ErrNotFound):
		return refuse(c, http.StatusNotFound, "No game", "This session has no game to look back on.")
	case err != nil:
		return refuse(c, http.StatusNotFound, "No such ply", sentence(err.Error()))
	}
	if isHX(c) {
		return render(c, http.StatusOK, views.Fragment(m))
	}
	return render(c, http.StatusOK, views.Page(m))
}

// downloadPGN sends the game as a .pgn file.
func (p *pages) downloadPGN(c echo.Context) error {
	var pgn string
	err := p.s.store.View(c.Request().Context(), sessionGame(c), func(g *rules.Game) error {
		pgn = g.PGN(p.tags()...)
		return nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return refuse(c, http.StatusNotFound, "No game", "This session has no game to download.")
	}
	if err != nil {
		return p.internal(c, err)
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="banchess-`+p.s.now().Format("2006-01-02")+`.pgn"`)
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, "application/x-chess-pgn", []byte(pgn))
}

// notFound answers unknown paths: JSON under /api, a page elsewhere.
func (p *pages) notFound(c echo.Context) error {
	if isAPI(c) {
		return echo.ErrNotFound
	}
	return refuse(c, http.StatusNotFound, "Page not found", "There is nothing at "+trunc(c.Request().URL.Path)+".")
}
