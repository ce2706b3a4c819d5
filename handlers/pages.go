package handlers

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// listSize is how many of a browser's games its list shows.
const listSize = 20

// pages serves the playground: full pages for plain forms (Post/Redirect/
// Get) and #game fragments for htmx requests. Every game has its own
// address, /g/{id}; the forms that act on it post under that address.
type pages struct {
	s     *Server
	files *staticFiles
}

// pageRoutes adds the playground's pages and fragments.
func (s *Server) pageRoutes(e *echo.Echo) {
	p := &pages{s: s, files: newStaticFiles()}
	get := func(path string, h echo.HandlerFunc) { e.Match([]string{http.MethodGet, http.MethodHead}, path, h) }
	get("/", p.index)
	e.POST("/new", p.newGame)
	e.POST("/import", p.importGame)
	get("/g/:id", p.onGame(p.game))
	get("/g/:id/delta", p.delta)
	get("/g/:id/export", p.export)
	get("/g/:id/history/:index", p.history)
	get("/g/:id/pgn", p.downloadPGN)
	get("/g/:id/analysis", p.analysisPage)
	get("/g/:id/edit", p.editPosition)
	get("/g/:id/history/:index/edit", p.editPosition)
	e.POST("/g/:id/select", p.onGame(p.selectSquare))
	e.POST("/g/:id/ply", p.onGame(p.ply))
	e.POST("/g/:id/undo", p.onGame(p.undo))
	e.POST("/g/:id/resign", p.onGame(p.resign))
	e.POST("/g/:id/draw", p.onGame(p.draw))
	e.POST("/g/:id/hide", p.hide)
	p.liveRoutes(e)
	e.POST("/settings", p.saveSettings)
	e.POST("/g/:id/branch", p.onGame(p.branch))
	get("/static/*", p.static)
	get(imagePrefix+"*", p.image)
	get("/editor", p.editorPage)
	get("/analysis", p.positionAnalysis)
	e.RouteNotFound("/*", p.notFound)
}

// gamePath is the address of game id.
func gamePath(id string) string { return "/g/" + id }

func isHX(c echo.Context) bool {
	h := c.Request().Header
	return h.Get("HX-Request") == "true" && h.Get("HX-History-Restore-Request") != "true"
}

// onGame serves a request on game id (its path's) made from the game's
// page: h gets the view options the request carries, and a refusal — h's,
// or of a form that cannot be read — shows the game again with its
// message, at the refusal's status. A browser cannot present another
// credential than its cookie, so "unauthorized" is answered as 403. A
// refusal that leaves no game to show (an unknown game, a limit, a server
// failure, a form that never arrived) gets its error page.
func (p *pages) onGame(h func(c echo.Context, id string, o *views.Options) error) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Param("id")
		o, err := p.options(c)
		if err == nil {
			err = h(c, id, &o)
		}
		if err == nil {
			return nil
		}
		switch errorOf(err).Code {
		case games.Timeout, games.NotFound, games.TooMany, games.Unavailable, games.Internal:
			return err
		case games.Unauthorized:
			err = &games.Error{Code: games.Forbidden, Msg: "You are watching this game: only its players can play it, so nothing changed."}
		}
		return shown(err, func(status int, e *games.Error) error {
			o.Error = e.Msg
			return p.show(c, id, o, status)
		})
	}
}

// options reads the form (or query) and the view choices: those the
// settings cookie remembers, and a flip or auto the request carries,
// which are remembered in turn.
func (p *pages) options(c echo.Context) (views.Options, error) {
	o := views.NoSelection()
	if err := c.Request().ParseForm(); err != nil {
		return o, bodyError(err, "The form could not be read: "+err.Error())
	}
	readSettings(c, &o)
	f := c.Request().Form
	was := o
	for _, name := range []string{"flip", "auto"} {
		if v := f.Get(name); v == "0" || v == "1" {
			applySettings(url.Values{name: {v}}, &o)
		}
	}
	if o.Flip != was.Flip || o.Auto != was.Auto {
		p.s.writeSettings(c, o)
	}
	return o, nil
}

// invalidf is a request the user can correct.
func invalidf(format string, args ...any) error {
	return &games.Error{Code: games.Invalid, Msg: fmt.Sprintf(format, args...)}
}

// square reads a square field; optional allows it to be empty.
func square(c echo.Context, field string, optional bool) (rules.Square, error) {
	v := strings.TrimSpace(c.Request().Form.Get(field))
	if v == "" && optional {
		return rules.NoSquare, nil
	}
	if v == "" {
		return rules.NoSquare, invalidf("The form has no %q square.", field)
	}
	s, err := rules.ParseSquare(v)
	if err != nil || len(v) > 2 {
		return rules.NoSquare, invalidf("%q is not a square: use a file a–h and a rank 1–8, such as e4.", trimText(v))
	}
	return s, nil
}

// promotion reads the promotion field: "", q, r, b or n, and EN-Chess's
// k, a and p (the pawn stays a pawn).
func promotion(c echo.Context) (rules.PieceKind, error) {
	switch v := c.Request().Form.Get("promotion"); strings.ToLower(v) {
	case "":
		return 0, nil
	case "k":
		return rules.King, nil
	case "a":
		return rules.Auror, nil
	case "p":
		return rules.Pawn, nil
	case "q":
		return rules.Queen, nil
	case "r":
		return rules.Rook, nil
	case "b":
		return rules.Bishop, nil
	case "n":
		return rules.Knight, nil
	default:
		return 0, invalidf("%q is not a promotion piece: use q, r, b or n (in EN-Chess also k, a, or p to stay a pawn).", trimText(v))
	}
}

// seenPly reads the ply the form was made at (0 when it does not say).
func seenPly(c echo.Context) (int, error) {
	v := c.Request().Form.Get("ply")
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, invalidf("%q is not a ply number.", trimText(v))
	}
	return n, nil
}

// boardInput reads the ply a form posts: typed text, or squares.
func boardInput(c echo.Context) (games.Input, error) {
	var in games.Input
	var err error
	if in.Ply, err = seenPly(c); err != nil {
		return in, err
	}
	if in.Text = strings.TrimSpace(c.Request().Form.Get("text")); in.Text != "" {
		return in, nil
	}
	if in.From, err = square(c, "from", false); err != nil {
		return in, err
	}
	if in.To, err = square(c, "to", false); err != nil {
		return in, err
	}
	in.Promotion, err = promotion(c)
	return in, err
}

// colorField reads a colour as the forms and the API name it: exactly
// "white" or "black"; with random, "" and "random" too, which name none
// (the server draws one).
func colorField(v string, random bool) (rules.Color, bool) {
	switch v {
	case "white":
		return rules.White, true
	case "black":
		return rules.Black, true
	case "", "random":
		return 0, random
	}
	return 0, false
}

// validID reports whether id could name a game: URL-safe and short.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// notFound answers unknown paths: JSON under /api, a page elsewhere.
func (p *pages) notFound(c echo.Context) error {
	if isAPI(c) {
		return apiNotFound()
	}
	return titled("Page not found", &games.Error{Code: games.NotFound, Msg: "There is nothing at " + trimText(c.Request().URL.Path) + "."})
}

// renderSize is room for a page or fragment in play: a fragment at ply 80
// is about 28 KB. deltaSize is room for most of a ply's deltas (3 KB at
// the median; docs/fragments.md).
const (
	renderSize = 48 << 10
	deltaSize  = 4 << 10
)

// render writes t as HTML with status; pages change with every ply, so they
// are never cached.
func render(c echo.Context, status int, t templ.Component) error {
	return renderIn(c, status, t, renderSize)
}

// renderIn is render into a buffer that starts with room for size bytes:
// one allocation for most answers instead of a dozen, and no more.
func renderIn(c echo.Context, status int, t templ.Component, size int) error {
	var buf bytes.Buffer
	buf.Grow(size)
	ctx := c.Request().Context()
	if ctx.Err() != nil {
		// The request was cancelled (its body timed out, say), but its
		// answer may still reach the client: render it all the same.
		ctx = context.WithoutCancel(ctx)
	}
	if err := t.Render(ctx, &buf); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	h := c.Response().Header()
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Cache-Control", "no-store")
	h.Add("Vary", "HX-Request")
	return c.HTMLBlob(status, buf.Bytes())
}

// show renders game id with status: for htmx, the parts that changed
// since the page the request came from (see pagePly and views.Delta),
// or the whole #game fragment; else the whole page (with the browser's
// list of games).
func (p *pages) show(c echo.Context, id string, o views.Options, status int) error {
	return p.respond(c, id, o, status, isHX(c))
}

// respond is show, with fragment choosing between a fragment (a delta when
// the page's state allows one) and the whole page.
func (p *pages) respond(c echo.Context, id string, o views.Options, status int, fragment bool) error {
	ctx := c.Request().Context()
	cred := player(c)
	o.Asset, o.Base = p.s.asset, gamePath(id)
	origin := p.s.origin(c)
	o.WatchURL, o.Origin = origin+o.Base, origin
	if !fragment {
		o.Games = p.s.gameLinks(ctx, cred, id)
	}
	shown := 0
	if fragment {
		shown = pagePly(c)
	}
	var (
		m     views.Game
		d     views.Delta
		delta bool
	)
	err := p.s.games.View(ctx, id, cred, func(rec *games.Record, seats games.Seats) {
		o.Seats = views.Seats{White: seats.White, Black: seats.Black}
		o.Revision, o.EventsURL = rec.Revision, o.Base+"/events"
		o.Table = p.table(c, rec, seats, o)
		o.EngineLocked = rec.EngineLocked()
		o.Computer = computer(rec)
		if o.JoinCode != "" && (seats.Any() || rec.White != "" && rec.Black != "") {
			o.JoinCode = "" // nothing to join: seated already, or no seat free
		}
		if shown > 0 {
			if d, delta = views.NewDelta(rec.Game, shown, o); delta {
				return
			}
		}
		if o.Export {
			o.ShareURL = origin + "/?" + p.s.games.Link(rec.Game)
			o.PGN = p.pgn(rec)
		}
		m = views.NewGame(rec.Game, o)
	})
	switch {
	case err != nil:
		return err
	case delta:
		c.Response().Header().Set("HX-Reswap", "none")
		c.Response().Header().Set("Delta-Ply", strconv.Itoa(shown))               // the ply the page must show for it to apply
		c.Response().Header().Set("Delta-Rev", strconv.FormatInt(o.Revision, 10)) // the game's revision it brings
		return renderIn(c, status, views.DeltaSwaps(d), deltaSize)
	case fragment:
		return render(c, status, views.Fragment(m))
	}
	return render(c, status, views.Page(m))
}

// pagePly is the ply the requesting page shows (its form's or query's
// ply field), for a delta; 0 when it does not say, or says it in a way
// that does not parse: the answer is then the whole #game.
func pagePly(c echo.Context) int {
	ply, err := strconv.Atoi(c.Request().Form.Get("ply"))
	if err != nil || ply < 1 {
		return 0
	}
	return ply
}

// done answers a request on game id that worked: the fragment for htmx,
// or a redirect to the page for a plain form (Post/Redirect/Get).
func (p *pages) done(c echo.Context, id string, o views.Options, extra ...string) error {
	if isHX(c) {
		return p.show(c, id, o, http.StatusOK)
	}
	o.Base = gamePath(id)
	sel, to := "", ""
	if o.Sel.Valid() {
		sel = o.Sel.String()
	}
	if o.PromoTo.Valid() {
		to = o.PromoTo.String()
	}
	return c.Redirect(http.StatusSeeOther, o.Query(append([]string{"sel", sel, "to", to}, extra...)...))
}

// moveTo sends the browser to game id, with query after its address: a
// redirect, or for htmx the game's fragment with its address pushed.
func (p *pages) moveTo(c echo.Context, id string, o views.Options, query ...string) error {
	o.Base = gamePath(id)
	if isHX(c) {
		c.Response().Header().Set("HX-Push-Url", o.Query(query...))
		return p.show(c, id, o, http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, o.Query(query...))
}

// created moves the browser to game id, which it just started from g,
// with g's notices. With atStart, a game with plies opens at its start,
// read-only.
func (p *pages) created(c echo.Context, id string, o views.Options, g *rules.Game, atStart bool) error {
	notice := notices(g)
	o.Notice = noticeText(notice)
	o.Sel, o.PromoTo = rules.NoSquare, rules.NoSquare
	if !atStart || g.Ply() == g.StartPly() {
		return p.moveTo(c, id, o, "notice", notice)
	}
	o.Base = gamePath(id)
	start := views.HistoryPath(o, 0, "notice", notice)
	if isHX(c) {
		c.Response().Header().Set("HX-Push-Url", start)
		return p.showHistory(c, id, 0, o)
	}
	return c.Redirect(http.StatusSeeOther, start)
}

// The notices an import leaves, named in the new game's address.
const (
	chessNotice      = "This PGN has no bans: it is a Classic game of all its moves. Step through it, and play Ban Chess from any position with \u201cPlay Ban Chess from here\u201d."
	variationsNotice = "The PGN's variations were dropped: the game keeps its main line."
)

// notices names the notices of an imported game g, for its address ("",
// "chess", "variations" or both joined by a comma).
func notices(g *rules.Game) string {
	var n []string
	if g.FromChessGame() {
		n = append(n, "chess")
	}
	if g.DroppedVariations() > 0 {
		n = append(n, "variations")
	}
	return strings.Join(n, ",")
}

// noticeText is the text of the notices an address names.
func noticeText(names string) string {
	var out []string
	for name := range strings.SplitSeq(names, ",") {
		switch name {
		case "chess":
			out = append(out, chessNotice)
		case "variations":
			out = append(out, variationsNotice)
		}
	}
	return strings.Join(out, " ")
}

// origin is scheme://host for absolute links: the base URL when the server
// has one (WithBaseURL), else the request's, whose Host any client sets.
func (s *Server) origin(c echo.Context) string {
	if s.baseURL != "" {
		return s.baseURL
	}
	return s.scheme(c) + "://" + c.Request().Host
}

// gameLinks lists the browser's games for its page; a failure to list
// them is logged and leaves the list out rather than the game.
func (s *Server) gameLinks(ctx context.Context, cred games.Credential, current string) []views.GameLink {
	list, err := s.games.Games(ctx, cred, listSize)
	if err != nil {
		s.log.ErrorContext(ctx, "listing the browser's games", "err", err)
		return nil
	}
	links := make([]views.GameLink, 0, len(list))
	for _, sum := range list {
		name := sum.Variant
		if v, err := rules.VariantByID(sum.Variant); err == nil {
			name = v.Name()
		}
		placement, _, _ := strings.Cut(sum.FEN, " ")
		link := views.GameLink{
			URL:     gamePath(sum.ID),
			HideURL: gamePath(sum.ID) + "/hide",
			Title:   fmt.Sprintf("%s · ply %d", name, sum.Ply),
			Status:  summaryStatus(sum),
			FEN:     sum.FEN,
			Board:   placement,
		}
		if sum.ID == current {
			// The page itself shows this game, and htmx plies do not
			// reload the list: it would soon be out of date.
			link.Current, link.Title, link.Status, link.Board = true, name+" · this game", "On the board above", ""
		}
		links = append(links, link)
	}
	return links
}

// summaryStatus says where a listed game stands: "White to ban", "1-0".
func summaryStatus(s games.Summary) string {
	if s.Phase == "over" {
		return "Finished, " + s.Result
	}
	c, err := rules.ParseColor(s.Actor)
	if err != nil {
		return ""
	}
	return c.Name() + " to " + s.Phase
}

// index sends the browser to its current game, the one it played last,
// or starts one; with fen, pgn or a (a share link) in the query it opens
// that game as a new one.
func (p *pages) index(c echo.Context) error {
	q := c.QueryParams()
	if games.IsLink(q) {
		return p.open(c)
	}
	o, err := p.options(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	cred := player(c)
	if old, ok := legacyGame(c); ok {
		held := false
		if old != "" {
			cred = p.s.ensurePlayer(c)
			var err error
			held, err = p.s.games.Claim(ctx, old, cred)
			if err != nil && games.ErrorOf(err).Code != games.NotFound {
				return err
			}
		}
		dropLegacy(c)
		if held {
			o.Base = gamePath(old)
			return c.Redirect(http.StatusSeeOther, o.Query())
		}
	}
	current, err := p.readableGame(ctx, cred) // skipping games that cannot be read
	if err != nil {
		return err
	}
	if current != "" {
		o.Base = gamePath(current)
		return c.Redirect(http.StatusSeeOther, o.Query())
	}
	g, _ := p.s.games.NewGame("")
	id, err := p.create(c, g)
	if err != nil {
		return err
	}
	o.Base = gamePath(id)
	return c.Redirect(http.StatusSeeOther, o.Query())
}

// readableGame returns the most recently played of the browser's games
// that can be read, skipping those that cannot (a damaged record, a game
// removed since it was listed), or "" when it has none. When it has games
// and none can be read, the error is the last one's.
func (p *pages) readableGame(ctx context.Context, cred games.Credential) (string, error) {
	list, err := p.s.games.Games(ctx, cred, listSize)
	if err != nil {
		return "", err
	}
	var last error
	for _, sum := range list {
		err := p.s.games.View(ctx, sum.ID, cred, func(*games.Record, games.Seats) {})
		if err == nil {
			return sum.ID, nil
		}
		switch e := games.ErrorOf(err); {
		case e.Detail == games.Unreadable:
			last = err
		case e.Code != games.NotFound: // busy, cancelled: the next would fare no better
			return "", err
		}
	}
	return "", last
}

// create stores g as a new game held by this browser, when it may create
// one now.
func (p *pages) create(c echo.Context, g *rules.Game) (string, error) {
	if err := p.s.allowGame(c); err != nil {
		return "", err
	}
	return p.s.games.Create(c.Request().Context(), p.s.ensurePlayer(c), g)
}

// open starts a game from a link: /?fen=…, /?pgn=…, or a share link
// /?v=…&fen=…&a=b:e2e4,m:d2d4&end=….
func (p *pages) open(c echo.Context) error {
	o, err := p.options(c)
	if err != nil {
		return err
	}
	g, err := p.s.games.FromLink(c.QueryParams())
	if err != nil {
		return titled("This link does not open a game", err)
	}
	id, err := p.create(c, g)
	if err != nil {
		return err
	}
	return p.created(c, id, o, g, false)
}

// newGame starts a new game of the chosen variant.
func (p *pages) newGame(c echo.Context) error {
	o, err := p.options(c)
	if err != nil {
		return err
	}
	switch mode := c.Request().Form.Get("mode"); mode {
	case "", "hotseat":
	case "invite":
		return p.newInvite(c, o)
	case "bot":
		return p.newBot(c, o)
	default:
		return invalidf("%q is not a way to play: use hotseat, invite or bot.", trimText(mode))
	}
	g, err := p.s.games.NewGame(c.Request().Form.Get("variant"))
	if err != nil {
		return err
	}
	id, err := p.create(c, g)
	if err != nil {
		return err
	}
	o.Announce = "New " + g.Variant().Name() + " game"
	return p.created(c, id, o, g, false)
}

// importGame starts a game from a pasted FEN or PGN, of the variant
// chosen beside it ("" lets the text decide), opened at its end or, with
// at=start, at its start. A PGN of several games asks which one first
// (pgn_game). A bad text leaves every game as it was and shows the
// reader's message beside it, on the game the form was posted from.
func (p *pages) importGame(c echo.Context) error {
	o, err := p.options(c)
	if err != nil {
		return err
	}
	f := c.Request().Form
	text, variant := strings.TrimSpace(f.Get("text")), f.Get("variant")
	o.ImportText, o.ImportVariant, o.ImportAtStart = f.Get("text"), variant, f.Get("at") == "start"
	var g *rules.Game
	switch {
	case text == "" || rules.LooksLikeFEN(text):
		g, err = p.s.games.FromText(text, variant)
	default:
		var n int
		if n, err = p.pgnGame(f.Get("pgn_game"), text, &o); err == nil && o.ImportGames == nil {
			g, err = p.s.games.FromPGNGame(text, variant, n)
		}
	}
	if err != nil || g == nil {
		return p.importRefused(c, f.Get("game"), o, err)
	}
	id, err := p.create(c, g)
	if err != nil {
		return err
	}
	o.Announce = "Game loaded"
	return p.created(c, id, o, g, o.ImportAtStart)
}

// pgnGame reads which game of a PGN to import: the form's choice, or the
// only one. For a PGN of several games and no choice, it sets o's list of
// them to choose from instead.
func (p *pages) pgnGame(choice, text string, o *views.Options) (int, error) {
	list, err := p.s.games.PGNGames(text)
	if err != nil || len(list) < 2 {
		return 0, err
	}
	if choice == "" {
		o.ImportGames = views.ImportChoices(list)
		return 0, nil
	}
	n, err := strconv.Atoi(choice)
	if err != nil || n < 0 || n >= len(list) {
		return 0, invalidf("%q is not one of the PGN's %d games.", trimText(choice), len(list))
	}
	return n, nil
}

// importRefused shows the import box again on game from: with the
// reader's message (err), or with the PGN's games to choose from (err
// nil).
func (p *pages) importRefused(c echo.Context, from string, o views.Options, err error) error {
	switch {
	case err == nil && validID(from):
		return p.show(c, from, o, http.StatusOK)
	case err == nil:
		return titled("Choose a game", invalidf("This PGN holds several games: import it from a game's page to choose one."))
	case errorOf(err).Code == games.Internal:
		return err
	case validID(from):
		return shown(err, func(status int, e *games.Error) error {
			o.ImportError = e.Msg
			return p.show(c, from, o, status)
		})
	}
	return titled("This text does not open a game", err)
}

// branch starts a new game (form field variant, Ban Chess by default)
// from the position after the first index plies of game id, which stays
// as it is. Anyone who can see the game may.
func (p *pages) branch(c echo.Context, id string, o *views.Options) error {
	f := c.Request().Form
	index, err := strconv.Atoi(f.Get("index"))
	if err != nil {
		return invalidf("%q is not a ply number.", trimText(f.Get("index")))
	}
	var g *rules.Game
	var fromErr error
	err = p.s.games.View(c.Request().Context(), id, player(c), func(rec *games.Record, _ games.Seats) {
		g, fromErr = p.s.games.FromPly(rec.Game, index, f.Get("variant"))
	})
	if err == nil {
		err = fromErr
	}
	if err != nil {
		return err
	}
	nid, err := p.create(c, g)
	if err != nil {
		return err
	}
	o.Announce = "New " + g.Variant().Name() + " game from this position"
	return p.created(c, nid, *o, g, false)
}

// game shows game id at /g/{id}.
func (p *pages) game(c echo.Context, id string, o *views.Options) error {
	var err error
	if o.Sel, err = square(c, "sel", true); err != nil {
		return err
	}
	if o.PromoTo, err = square(c, "to", true); err != nil {
		return err
	}
	o.Notice = noticeText(c.QueryParam("notice"))
	if code := c.QueryParam("invite"); code != "" {
		return p.openInvite(c, id, code, o)
	}
	o.Export = c.QueryParam("export") == "1"
	return p.show(c, id, *o, http.StatusOK)
}

// selectSquare picks a square (the no-JavaScript way): the page comes back
// with its destinations marked. Picking the picked square again, or a square
// with nothing to do, clears the selection.
func (p *pages) selectSquare(c echo.Context, id string, o *views.Options) error {
	sq, err := square(c, "square", false)
	if err != nil {
		return err
	}
	from, err := square(c, "from", true)
	if err != nil {
		return err
	}
	if sq != from {
		o.Sel = sq // views.NewGame drops a selection with no legal action
	}
	if !isHX(c) {
		// The redirect carries the selection: keep only one the viewer may
		// act on, and send no one to the address of a game that is not
		// there (the fragment of htmx checks both as it renders).
		err := p.s.games.View(c.Request().Context(), id, player(c), func(rec *games.Record, seats games.Seats) {
			if !seats.Has(rec.Game.Turn().Actor) || !canPick(rec.Game, sq) {
				o.Sel = rules.NoSquare
			}
		})
		if err != nil {
			return err
		}
	}
	return p.done(c, id, *o)
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
// (text: "e2e4", "Nf3", "b:e2e4"). A move that promotes without a piece
// chosen opens the promotion picker instead.
func (p *pages) ply(c echo.Context, id string, o *views.Options) error {
	in, err := boardInput(c)
	if err != nil {
		return err
	}
	err = p.s.games.Play(c.Request().Context(), id, player(c), in, nil)
	if in.Text == "" && games.IsPromotionNeeded(err) {
		o.Sel, o.PromoTo = in.From, in.To
		return p.done(c, id, *o)
	}
	if err != nil {
		return err
	}
	return p.done(c, id, *o)
}

// undo takes back the last ply (or a resignation or agreed draw).
func (p *pages) undo(c echo.Context, id string, o *views.Options) error {
	undone, err := p.s.games.Undo(c.Request().Context(), id, player(c), nil)
	if err != nil {
		return err
	}
	if undone.Declared.Over() {
		o.Announce = "Took back: " + views.Banner(undone.Declared)
	} else {
		o.Announce = views.TookBack(undone.Ply)
	}
	return p.done(c, id, *o)
}

// resign ends the game: side (white or black) resigns.
func (p *pages) resign(c echo.Context, id string, o *views.Options) error {
	v := c.Request().Form.Get("side")
	side, ok := colorField(v, false)
	if !ok {
		return invalidf("%q is not a side: use white or black.", trimText(v))
	}
	if err := p.s.games.Resign(c.Request().Context(), id, player(c), side, announce(o, ending)); err != nil {
		return err
	}
	return p.done(c, id, *o)
}

// draw ends the game as a draw by agreement.
func (p *pages) draw(c echo.Context, id string, o *views.Options) error {
	if err := p.s.games.Draw(c.Request().Context(), id, player(c), announce(o, ending)); err != nil {
		return err
	}
	return p.done(c, id, *o)
}

// announce is a change's view that sets o's announcement to what news
// says of the game after it.
func announce(o *views.Options, news func(*games.Record) string) games.ViewFunc {
	return func(rec *games.Record, _ games.Seats) { o.Announce = news(rec) }
}

// ending words how the game rec holds ended.
func ending(rec *games.Record) string { return views.Banner(rec.Game.Outcome()) }

// hide removes the game from the browser's list, and goes back to the
// page the form was on (a game's page, if that game is still there; else
// the current game).
func (p *pages) hide(c echo.Context) error {
	id := c.Param("id")
	if _, err := p.options(c); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := p.s.games.Hide(ctx, id, player(c)); err != nil {
		return err
	}
	back := "/"
	if from := c.Request().Form.Get("back"); from != id && validID(from) {
		if p.s.games.View(ctx, from, "", func(*games.Record, games.Seats) {}) == nil {
			back = gamePath(from)
		}
	}
	return c.Redirect(http.StatusSeeOther, back)
}

// delta answers GET /g/{id}/delta?ply=N (with the page's view options,
// flip and auto, and optionally from, the square picked on its board):
// what changed since the page that shows the game at ply N, as htmx
// out-of-band swaps with HX-Reswap: none, or the whole #game when the page
// is too far behind (see docs/fragments.md). Live pages ask for it when
// the game changes.
func (p *pages) delta(c echo.Context) error {
	o, err := p.options(c)
	if err != nil {
		return err
	}
	return p.respond(c, c.Param("id"), o, http.StatusOK, true)
}

// export shows the game's PGN and share link: for htmx, the export panel's
// part that holds them; else the game's page with them shown.
func (p *pages) export(c echo.Context) error {
	o, err := p.options(c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	o.Export, o.Base = true, gamePath(id)
	if !isHX(c) {
		return c.Redirect(http.StatusSeeOther, o.Query("export", "1"))
	}
	var m views.Game
	err = p.s.games.View(c.Request().Context(), id, player(c), func(rec *games.Record, _ games.Seats) {
		o.EngineLocked = rec.EngineLocked()
		o.ShareURL = p.s.origin(c) + "/?" + p.s.games.Link(rec.Game)
		o.PGN = p.pgn(rec)
		m = views.NewGame(rec.Game, o)
	})
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ExportFragment(m))
}

// history shows the board after the first index plies, read-only.
func (p *pages) history(c echo.Context) error {
	o, err := p.options(c)
	if err != nil {
		return err
	}
	index, err := strconv.Atoi(c.Param("index"))
	if err != nil {
		return titled("No such ply", invalidf("%q is not a ply number.", trimText(c.Param("index"))))
	}
	o.Notice = noticeText(c.QueryParam("notice"))
	return p.showHistory(c, c.Param("id"), index, o)
}

// showHistory renders the read-only view of game id after index plies.
func (p *pages) showHistory(c echo.Context, id string, index int, o views.Options) error {
	o.Asset, o.Base, o.Origin = p.s.asset, gamePath(id), p.s.origin(c)
	var m views.Game
	var viewErr error
	err := p.s.games.View(c.Request().Context(), id, player(c), func(rec *games.Record, _ games.Seats) {
		o.EngineLocked = rec.EngineLocked()
		m, viewErr = views.NewHistoryView(rec.Game, index, o)
	})
	switch {
	case err != nil:
		return err
	case viewErr != nil:
		return noSuchPly(games.Sentence(viewErr.Error()))
	}
	if isHX(c) {
		return render(c, http.StatusOK, views.Fragment(m))
	}
	return render(c, http.StatusOK, views.Page(m))
}

// noSuchPly refuses a ply a game does not have.
func noSuchPly(msg string) error {
	return titled("No such ply", &games.Error{Code: games.NotFound, Msg: msg})
}

// editPosition opens in the board editor the position that game id's page
// shows (/g/{id}/edit), or its history view after index plies
// (/g/{id}/history/{index}/edit). The page's link is the same after every
// ply, so a ply's delta need not carry it.
func (p *pages) editPosition(c echo.Context) error {
	index := -1
	if v := c.Param("index"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return titled("No such ply", invalidf("%q is not a ply number.", trimText(v)))
		}
		index = n
	}
	var fen, variant string
	found := true
	err := p.s.games.View(c.Request().Context(), c.Param("id"), player(c), func(rec *games.Record, _ games.Seats) {
		g := rec.Game
		variant, fen = g.Variant().ID(), g.FEN()
		if index >= 0 {
			fen, found = g.FENAfter(index)
		}
	})
	switch {
	case err != nil:
		return err
	case !found:
		return noSuchPly("This game has no ply " + strconv.Itoa(index) + ".")
	}
	return c.Redirect(http.StatusSeeOther, views.EditURL(fen, variant))
}

// downloadPGN sends the game as a .pgn file.
func (p *pages) downloadPGN(c echo.Context) error {
	id := c.Param("id")
	var pgn string
	err := p.s.games.View(c.Request().Context(), id, player(c), func(rec *games.Record, _ games.Seats) {
		pgn = p.pgn(rec)
	})
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="banchess-`+id+`.pgn"`)
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, "application/x-chess-pgn", []byte(pgn))
}

// pgn writes the PGN of the game rec holds, with the playground's Site and
// Date if it created the game (see exportPGN).
func (p *pages) pgn(rec *games.Record) string {
	return recordPGN(rec, rules.Tag{Name: "Site", Value: "Ban Chess playground"}, rules.Tag{Name: "Date", Value: p.s.now().Format("2006.01.02")})
}

// recordPGN writes the game rec holds as PGN (see exportPGN) with its
// table's: the time control, and the clock's time left after each ply.
func recordPGN(rec *games.Record, own ...rules.Tag) string {
	if rec.Clock == nil {
		return exportPGN(rec.Game, own...)
	}
	return rec.Game.AnnotatedPGN(rec.Clock.ClkComment, slices.Concat(own, tableTags(rec))...)
}

// exportPGN writes g's PGN: a game imported with tags keeps them as they
// were; one the server created gets the server's own tags.
func exportPGN(g *rules.Game, own ...rules.Tag) string {
	if len(g.Tags()) > 0 {
		return g.PGN()
	}
	return g.PGN(own...)
}

// tableTags are the PGN tags a game's table adds: its time control.
func tableTags(rec *games.Record) []rules.Tag {
	if rec.Clock == nil {
		return nil
	}
	return []rules.Tag{{Name: "TimeControl", Value: rec.Clock.Control.PGN()}}
}
