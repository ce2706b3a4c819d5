package pages

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/banchess/banchess/players"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

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
	ctx = views.WithLook(ctx, lookOf(c))
	language := languageOf(c)
	ctx = i18n.With(ctx, language)
	if err := t.Render(ctx, &buf); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	h := c.Response().Header()
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Language", language.Code)
	h.Set("Vary", strings.Join(append(h.Values("Vary"), "HX-Request", "Accept-Language"), ", ")) // one line with the compressor's Accept-Encoding
	return c.HTMLBlob(status, buf.Bytes())
}

// show renders game id with status: for htmx, the parts that changed
// since the page the request came from (see pagePly and views.Delta),
// or the whole #game fragment; else the whole page (with the browser's
// list of games).
func (p *core) show(c echo.Context, id string, o views.Options, status int) error {
	return p.respond(c, id, o, status, kit.IsHX(c))
}

// respond is show, with fragment choosing between a fragment (a delta when
// the page's state allows one) and the whole page.
func (p *core) respond(c echo.Context, id string, o views.Options, status int, fragment bool) error {
	a := p.answerFor(c, id, &o, fragment)
	if err := p.s.games.View(c.Request().Context(), id, kit.Player(c), a.view); err != nil {
		return err
	}
	a.withChat()
	return a.write(status)
}

// answer is the answer to a request on a game's page, built under the
// game's lock by view: for a read, in a games.Service.View; for an action,
// in the same store call that commits it (its games.ViewFunc), so that an
// htmx ply costs one trip to the store.
type answer struct {
	p        *core
	c        echo.Context
	o        *views.Options
	fragment bool
	shown    int                // the ply the page shows, for a delta (0: none)
	list     []views.GameLink   // the browser's games, for a whole page
	daily    *views.DailyPuzzle // the day's puzzle, for a whole page
	rec      *games.Record      // the game read, for a whole page's chat
	seats    games.Seats
	m        views.Game  // the fragment or page
	d        views.Delta // the delta, when delta
	delta    bool
	info     views.Info
}

// answerFor starts the answer to c on game id with o, a fragment (a delta
// when the page's state allows one) or the whole page.
func (p *core) answerFor(c echo.Context, id string, o *views.Options, fragment bool) *answer {
	a := &answer{p: p, c: c, o: o, fragment: fragment}
	if fragment {
		a.shown = pagePly(c)
	} else {
		a.list = p.s.gameLinks(c.Request().Context(), languageOf(c), kit.Player(c), id)
		a.daily = p.s.dailyPuzzle(c.Request().Context())
	}
	return a
}

// view builds the answer from the game rec holds, for the viewer holding
// seats: a games.ViewFunc.
func (a *answer) view(rec *games.Record, seats games.Seats) {
	o := a.o
	a.info = a.p.gameInfo(a.c, rec, seats, *o)
	if o.JoinCode != "" && !a.info.Perm.Join && !seats.Any() {
		o.SeatTaken = true // the invite link opens no seat: say so
	}
	if a.shown > 0 {
		if a.d, a.delta = views.NewDelta(rec.Game, a.shown, a.info, *o); a.delta {
			return
		}
	}
	a.info.Games, a.info.Daily = a.list, a.daily
	a.rec, a.seats = rec, seats
	a.m = views.NewGame(rec.Game, a.info, *o)
}

// withChat adds the viewer's chat room to a whole page view built, once
// the game's lock is released: a page whose chat cannot be read is shown
// without it.
func (a *answer) withChat() {
	if a.fragment || a.delta || a.rec == nil {
		return
	}
	ch, err := a.p.chatPanel(a.c, a.rec, a.seats, kit.Player(a.c))
	if err != nil {
		a.p.s.kit.LogFailure(a.c, "reading a game's chat", err)
		return
	}
	if ch != nil {
		ch.Error, ch.Text = a.o.ChatError, a.o.ChatText
	}
	a.m.Info.Chat = ch
}

// write sends the answer view built, with status.
func (a *answer) write(status int) error {
	c := a.c
	switch {
	case a.delta:
		h := c.Response().Header()
		h.Set("HX-Reswap", "none")
		h.Set("Delta-Ply", strconv.Itoa(a.shown))                  // the ply the page must show for it to apply
		h.Set("Delta-Rev", strconv.FormatInt(a.info.Revision, 10)) // the game's revision it brings
		return renderIn(c, status, views.DeltaSwaps(a.d), deltaSize)
	case a.fragment:
		return render(c, status, views.Fragment(a.m))
	}
	return render(c, status, views.Page(a.m))
}

// act does an action on game id that describes the game after it (then):
// for htmx it answers from the record the action committed, in the same
// store call; else it redirects to the page (done). before, if not nil, is
// run under the lock first (it may set o's announcement).
func (p *core) act(c echo.Context, id string, o *views.Options, before games.ViewFunc, do func(then games.ViewFunc) error) error {
	if !kit.IsHX(c) {
		if err := do(before); err != nil {
			return err
		}
		return p.done(c, id, *o)
	}
	a := p.answerFor(c, id, o, true)
	err := do(func(rec *games.Record, seats games.Seats) {
		if before != nil {
			before(rec, seats)
		}
		a.view(rec, seats)
	})
	if err != nil {
		return err
	}
	return a.write(http.StatusOK)
}

// gameInfo describes the game rec holds for the viewer holding seats, as
// its pages show it with o: what they may do, who sits at the table, and
// the export panel's PGN and share link when o shows them. Every page of
// a game (the page, its fragments, its deltas, its history views) is
// built on it. Call it under the game's lock (in a games.ViewFunc).
func (p *core) gameInfo(c echo.Context, rec *games.Record, seats games.Seats, o views.Options) views.Info {
	var presence games.Presence
	if rec.Mode == games.Invite {
		presence = p.s.games.Presence(rec.ID)
	}
	info := views.Info{
		Site:     p.s.site(c),
		ID:       rec.ID,
		Revision: rec.ShownRevision(),
		Perm:     rec.Permissions(seats),
		Players:  p.withRatingDiffs(c, rec, playerStrips(languageOf(c), rec, seats, p.s.now(), presence)),
		Table:    p.table(c, rec, seats, presence),
		Bot:      rec.Bot,
	}
	if o.Export {
		info.ShareURL = info.Origin + "/?" + p.s.loader.Link(rec.Game)
		info.PGN = p.pgn(c.Request().Context(), rec)
	}
	return info
}

// pagePly is the ply the requesting page shows (its form's or query's
// ply field), for a delta; 0 when it does not say, or says it in a way
// that does not parse: the answer is then the whole #game.
func pagePly(c echo.Context) int {
	ply, err := seenPly(c)
	if err != nil {
		return 0
	}
	return ply
}

// done answers a request on game id that worked: the fragment for htmx,
// or a redirect to the page for a plain form (Post/Redirect/Get).
func (p *core) done(c echo.Context, id string, o views.Options, extra ...string) error {
	if kit.IsHX(c) {
		return p.show(c, id, o, http.StatusOK)
	}
	sel, to := "", ""
	if o.Sel.Valid() {
		sel = o.Sel.String()
	}
	if o.PromoTo.Valid() {
		to = o.PromoTo.String()
	}
	return c.Redirect(http.StatusSeeOther, o.GameURL(id, append([]string{"sel", sel, "to", to}, extra...)...))
}

// moveTo sends the browser to game id, with query after its address: a
// redirect, or for htmx the game's fragment with its address pushed.
func (p *core) moveTo(c echo.Context, id string, o views.Options, query ...string) error {
	if kit.IsHX(c) {
		c.Response().Header().Set("HX-Push-Url", o.GameURL(id, query...))
		return p.show(c, id, o, http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, o.GameURL(id, query...))
}

// created moves the browser to game id, which it just started from g,
// with g's notices, seen from the side the player's seat gives (a flip
// is a view of one game). With atStart, a game with plies opens at its
// start, read-only.
func (p *core) created(c echo.Context, id string, o views.Options, g *rules.Game, atStart bool) error {
	notice := notices(g)
	o.Notice = noticeText(notice)
	o.Sel, o.PromoTo = rules.NoSquare, rules.NoSquare
	if c.Request().Method != http.MethodGet {
		// A form posted from another game's page carries that page's
		// flip, which was a view of that game; a link that opens a game
		// (GET /?fen=…&flip=1) asks for its own.
		o.Flip = false
	}
	if !atStart || g.Ply() == g.StartPly() {
		return p.moveTo(c, id, o, "notice", notice)
	}
	start := o.HistoryURL(id, 0, "notice", notice)
	if kit.IsHX(c) {
		c.Response().Header().Set("HX-Push-Url", start)
		return p.showHistory(c, id, 0, o)
	}
	return c.Redirect(http.StatusSeeOther, start)
}

// chessNotice is the notice an import of a chess game leaves, named
// "chess" in the new game's address.
const chessNotice = "This PGN has no bans: it is a Classic game of all its moves. Step through it, and play Ban Chess from any position with \u201cPlay Ban Chess from here\u201d."

// notices names the notices of an imported game g, for its address (""
// or "chess").
func notices(g *rules.Game) string {
	if g.Record().FromChessGame() {
		return "chess"
	}
	return ""
}

// noticeText is the text of the notices an address names.
func noticeText(names string) string {
	var out []string
	for name := range strings.SplitSeq(names, ",") {
		if name == "chess" {
			out = append(out, chessNotice)
		}
	}
	return strings.Join(out, " ")
}

// site is what every page of the server shares, for the request c.
func (s *deps) site(c echo.Context) views.Site {
	return views.Site{Asset: s.asset, Origin: s.kit.Origin(c), Variants: s.variants}
}

// gameLinks lists the browser's games for its page; a failure to list
// them is logged and leaves the list out rather than the game.
func (s *deps) gameLinks(ctx context.Context, l *i18n.Language, cred players.Credential, current string) []views.GameLink {
	list, err := s.games.Games(ctx, cred, listSize)
	if err != nil {
		s.log.ErrorContext(ctx, "listing the browser's games", "err", err)
		return nil
	}
	links := make([]views.GameLink, 0, len(list))
	me, err := s.players.Identify(ctx, cred)
	if err != nil {
		s.log.ErrorContext(ctx, "identifying the browser's player", "err", err)
	}
	holder := me.ID
	for _, sum := range list {
		link := s.gameLink(l, sum, holder)
		if sum.ID == current {
			// The page itself shows this game, and htmx plies do not
			// reload the list: it would soon be out of date.
			link.Current, link.Title, link.Status, link.Board = true, l.T("games.thisGame", "Variant", s.variantName(sum.Variant)), l.T("games.onBoard"), ""
		}
		links = append(links, link)
	}
	return links
}

// gameLink describes game sum for a list of player holder's games.
func (s *deps) gameLink(l *i18n.Language, sum games.Summary, holder string) views.GameLink {
	placement, fields, _ := strings.Cut(sum.FEN, " ")
	return views.GameLink{
		URL:      kit.GamePath(sum.ID),
		HideURL:  kit.GamePath(sum.ID) + "/hide",
		Title:    l.T("games.title", "Variant", s.variantName(sum.Variant), "Move", fullmove(fields)),
		Status:   summaryStatus(l, sum),
		FEN:      sum.FEN,
		Board:    placement,
		Opponent: opponent(l, sum, holder),
	}
}

// variantName is the name of the variant with id among those the server
// plays, or the id.
func (s *deps) variantName(id string) string {
	if v, err := s.loader.Variant(id); err == nil {
		return v.Name()
	}
	return id
}

// fullmove is the fullmove number among a FEN's fields after the
// placement ("w KQkq - 0 12 …": "12"), "1" where there is none.
func fullmove(fields string) string {
	f := strings.Fields(fields)
	if len(f) < 5 {
		return "1"
	}
	return f[4]
}

// opponent says whom a listed game of holder's is against: "vs
// Computer · level 3", "vs Ann", "vs Anonymous", "waiting for a player", or "on
// this device" for a game whose seats holder holds both.
func opponent(l *i18n.Language, s games.Summary, holder string) string {
	switch {
	case s.Bot != nil:
		return l.T("games.vsComputer", "Level", s.Bot.Level)
	case s.Mode != games.Invite:
		return l.T("games.hotseat")
	}
	other, e := s.Black, s.BlackPlayer
	if s.Black == holder {
		other, e = s.White, s.WhitePlayer
	}
	switch {
	case other == "":
		return l.T("presence.waiting")
	case e.Named():
		return l.T("games.vs", "Name", e.Name)
	}
	return l.T("games.vsAnonymous")
}

// summaryStatus says where a listed game stands: "White to ban", "1-0".
func summaryStatus(l *i18n.Language, s games.Summary) string {
	switch {
	case s.Phase == "over" && s.Result == "*":
		return l.T("games.aborted")
	case s.Phase == "over":
		return l.T("games.finished", "Result", s.Result)
	}
	c, err := rules.ParseColor(s.Actor)
	if err != nil {
		return ""
	}
	if s.Phase == "ban" {
		return l.T(byColor(c, "games.toBan.w", "games.toBan.b"))
	}
	return l.T(byColor(c, "games.toMove.w", "games.toMove.b"))
}
