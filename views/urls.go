package views

import (
	"net/url"
	"strconv"

	"github.com/a-h/templ"
	"github.com/banchess/banchess/rules"
)

// gamePath is the address of game id, under which its forms post: "/g/{id}",
// or "" for no game.
func gamePath(id string) string {
	if id == "" {
		return ""
	}
	return "/g/" + id
}

// GameURL returns the address of game id's page with o's orientation as
// URL query values, for links and redirects; extra pairs (key, value, …)
// are added. With no id it is the playground's ("/").
func (o Options) GameURL(id string, extra ...string) string {
	base := gamePath(id)
	if base == "" {
		base = "/"
	}
	return base + o.query(extra...)
}

// HistoryURL returns the address of the read-only view of game id after
// index plies, with o's orientation and extra query pairs.
func (o Options) HistoryURL(id string, index int, extra ...string) string {
	return gamePath(id) + "/history/" + strconv.Itoa(index) + o.query(extra...)
}

// query is the orientation and extra pairs as a query string: "" or
// "?flip=1…".
func (o Options) query(extra ...string) string {
	q := url.Values{}
	if o.Flip {
		q.Set("flip", "1")
	}
	if o.Auto {
		q.Set("auto", "1")
	}
	for i := 0; i+1 < len(extra); i += 2 {
		if extra[i+1] != "" {
			q.Set(extra[i], extra[i+1])
		}
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// url is the address of g's game page with its orientation and extra
// query pairs.
func (g Game) url(extra ...string) string { return g.Opts.GameURL(g.Info.ID, extra...) }

// Paths are the addresses under a game's path that its page posts to.
// Page, when set, is the address of the page itself, for a board that is
// not a game's (a lesson's, a puzzle's): cancelling a promotion goes
// back there.
type Paths struct {
	Select, Ply, Undo, Resign, Draw, Abort, Branch, PGN, Analysis, Export, Page templ.SafeURL
}

// pageURL is the address of the page g's board is on.
func (g Game) pageURL() string {
	if g.Paths.Page != "" {
		return string(g.Paths.Page)
	}
	return g.url()
}

// pathsOf works out the paths of game id, once per page.
func pathsOf(id string) Paths {
	base := gamePath(id)
	p := func(action string) templ.SafeURL { return templ.SafeURL(base + "/" + action) }
	return Paths{Select: p("select"), Ply: p("ply"), Undo: p("undo"), Resign: p("resign"), Draw: p("draw"), Abort: p("abort"), Branch: p("branch"), PGN: p("pgn"), Analysis: p("analysis"), Export: p("export")}
}

// Steps are the addresses of the positions around the one shown: the
// start, the ply before, the ply after, and the game as it is now; "" where
// there is none (the start has no ply before it).
type Steps struct{ First, Prev, Next, Last templ.SafeURL }

// stepsAt returns the steps through game id, shown with o, around the
// position after index of last plies (index = last: the game page itself).
func stepsAt(id string, o Options, index, last int) Steps {
	h := historyQuery(id, o)
	var s Steps
	if index > 0 {
		s.First, s.Prev = historyURL(0, h), historyURL(index-1, h)
	}
	if index < last {
		s.Next, s.Last = historyURL(index+1, h), templ.SafeURL(o.GameURL(id))
		if index+1 == last {
			s.Next = s.Last
		}
	}
	return s
}

// PieceURL is the image of a piece code such as "wP".
func PieceURL(code, asset string) string { return "/static/pieces/" + code + ".svg?v=" + asset }

// StaticURL is the versioned URL of an asset.
func StaticURL(name, asset string) string { return "/static/" + name + "?v=" + asset }

// historyLinks is what every history link of a page shares: the path
// before the ply index and the query after it, worked out once.
type historyLinks struct{ prefix, query string }

// historyQuery returns the history links of game id shown with o.
func historyQuery(id string, o Options) historyLinks {
	return historyLinks{prefix: gamePath(id) + "/history/", query: o.query()}
}

// listLinks are the links of g's history list: through its review view
// when it is one, else through its history views.
func (g Game) listLinks() historyLinks {
	if g.Review != nil {
		return historyLinks{prefix: gamePath(g.Info.ID) + "/review/", query: g.Opts.query()}
	}
	return historyQuery(g.Info.ID, g.Opts)
}

// historyURL is the read-only view after index plies.
func historyURL(index int, h historyLinks) templ.SafeURL {
	return templ.SafeURL(h.prefix + strconv.Itoa(index) + h.query)
}

// selName is the square picked on the board, "" for none.
func selName(o Options) string {
	if o.Sel.Valid() {
		return o.Sel.String()
	}
	return ""
}

// editPath opens the position g shows in the board editor: the game's now,
// or its history view's.
func editPath(g Game) string {
	if g.View != nil {
		return gamePath(g.Info.ID) + "/history/" + strconv.Itoa(g.View.Index) + "/edit"
	}
	return gamePath(g.Info.ID) + "/edit"
}

// watchURL is the absolute public link to g's game (anyone may watch),
// shown on its page; "" on a history view or without an origin.
func (g Game) watchURL() string {
	if g.View != nil || g.Info.Origin == "" || g.Info.ID == "" {
		return ""
	}
	return g.Info.Origin + gamePath(g.Info.ID)
}

// RulesURL is the address of v's rules: /rules for the variants played on
// chess's board (Ban Chess, Classic), /rules/{id} for another (EN-Chess's
// /rules/en).
func RulesURL(v rules.Variant) string {
	if v.Board() == rules.ChessBoard {
		return "/rules"
	}
	return "/rules/" + v.ID()
}

// eventsURL is the stream of changes of g's game, which its page follows
// live with JavaScript; "" on a history view.
func (g Game) eventsURL() string {
	if g.View != nil || g.Info.ID == "" {
		return ""
	}
	return gamePath(g.Info.ID) + "/events"
}

// stepsSwap says g's step links swap the history view in with htmx: on
// its own page (which follows it live, eventsURL) static/steps.js shows
// the positions in place instead, and the links are for pages without
// JavaScript.
func (g Game) stepsSwap() bool { return g.eventsURL() == "" }

// flipURL and autoURL toggle the orientation of g's page: flip for this
// game's page only, auto-flip remembered (so turning it off says so,
// auto=0).
func flipURL(g Game) string {
	o := g.Opts
	o.Flip = !o.Flip
	return o.GameURL(g.Info.ID)
}

func autoURL(g Game) string {
	o := g.Opts
	o.Auto = !o.Auto
	if !o.Auto {
		return o.GameURL(g.Info.ID, "auto", "0")
	}
	return o.GameURL(g.Info.ID)
}
