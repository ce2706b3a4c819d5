package views

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"
)

// Query returns the game's path with the orientation as URL query values,
// for links and redirects; extra pairs (key, value, …) are added.
func (o Options) Query(extra ...string) string {
	base := o.Base
	if base == "" {
		base = "/"
	}
	return base + o.query(extra...)
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

// Paths are the addresses under a game's path that its page posts to.
type Paths struct{ Select, Ply, Undo, Resign, Draw, PGN, Analysis, Export templ.SafeURL }

// pathsOf works out the paths of the game o shows, once per page.
func pathsOf(o Options) Paths {
	p := func(action string) templ.SafeURL { return templ.SafeURL(actionURL(o, action)) }
	return Paths{Select: p("select"), Ply: p("ply"), Undo: p("undo"), Resign: p("resign"), Draw: p("draw"), PGN: p("pgn"), Analysis: p("analysis"), Export: p("export")}
}

// Steps are the addresses of the positions around the one shown: the
// start, the ply before, the ply after, and the game as it is now; "" where
// there is none (the start has no ply before it).
type Steps struct{ First, Prev, Next, Last templ.SafeURL }

// stepsAt returns the steps around the position after index of last plies
// (index = last: the game page itself).
func stepsAt(o Options, index, last int) Steps {
	h := historyQuery(o)
	var s Steps
	if index > 0 {
		s.First, s.Prev = historyURL(0, h), historyURL(index-1, h)
	}
	if index < last {
		s.Next, s.Last = historyURL(index+1, h), templ.SafeURL(o.Query())
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

// historyQuery returns the history links of the game o shows.
func historyQuery(o Options) historyLinks {
	return historyLinks{prefix: o.Base + "/history/", query: o.query()}
}

// HistoryPath is the address of the read-only view of the game o shows
// after index plies, with o's orientation and extra query pairs.
func HistoryPath(o Options, index int, extra ...string) string {
	return o.Base + "/history/" + strconv.Itoa(index) + o.query(extra...)
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

// gameID is the id of the game o shows.
func gameID(o Options) string { return strings.TrimPrefix(o.Base, "/g/") }

// actionURL is the path of one of the game's forms, such as "ply".
func actionURL(o Options, action string) string { return o.Base + "/" + action }

// editPath opens the position g shows in the board editor: the game's now,
// or its history view's.
func editPath(g Game) string {
	if g.View != nil {
		return g.Opts.Base + "/history/" + strconv.Itoa(g.View.Index) + "/edit"
	}
	return g.Opts.Base + "/edit"
}

// flipURL and autoURL toggle the orientation; turning one off says so
// (flip=0), as the server remembers the choice.
func flipURL(o Options) string {
	o.Flip = !o.Flip
	if !o.Flip {
		return o.Query("flip", "0")
	}
	return o.Query()
}

func autoURL(o Options) string {
	o.Auto = !o.Auto
	if !o.Auto {
		return o.Query("auto", "0")
	}
	return o.Query()
}
