package handlers

import (
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"github.com/banchess/banchess/internal/race"
	"github.com/banchess/banchess/internal/vectors"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// loadRefGames reads the reference games of rules/testdata.
func loadRefGames(t *testing.T) []apiRefGame {
	t.Helper()
	games, err := refGames()
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// refGames reads the reference games once for the package's tests, which
// only read them: decoding them took 2.5 s a test under the race detector.
var refGames = sync.OnceValues(func() ([]apiRefGame, error) { return vectors.Read[apiRefGame]("../" + vectors.File) })

// gameHTML is what a page shows of its game: #game and the announcement,
// each element's attributes in name order (HTML gives their order no
// meaning, and the parser reorders some: an <a> parsed at the top of an
// answer keeps the order it is written in, one inside a page does not).
func gameHTML(t *testing.T, d *goquery.Document) string {
	t.Helper()
	d.Find("*").Each(func(_ int, s *goquery.Selection) {
		slices.SortFunc(s.Nodes[0].Attr, func(a, b html.Attribute) int { return strings.Compare(a.Key, b.Key) })
	})
	var b strings.Builder
	for _, sel := range []string{"main#game", "#announce"} {
		h, err := goquery.OuterHtml(d.Find(sel))
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(h)
	}
	return b.String()
}

// shownPly is the ply a page shows.
func shownPly(d *goquery.Document) string { return d.Find("#status").AttrOr("data-ply", "") }

// TestDeltaEqualsPage plays reference games to their end through the
// board's form, with htmx (each answer applied to the tab's page as htmx
// applies it: see applySwaps) and without, and after every ply compares
// the tab's page with the page rendered fresh. Every few plies another tab
// of the browser plays first, so that the tab's ply is refused as stale
// and its answer catches the page up from further back; and a spectator's
// page follows the game through GET /g/{id}/delta, every third ply and
// once after a long gap (the whole #game). It plays every 30th game,
// every 90th with -short, and under the race detector only the first, with
// htmx, its first 160 plies compared every fourth (CI runs it whole
// without).
func TestDeltaEqualsPage(t *testing.T) {
	refs := loadRefGames(t)
	every := 30
	switch {
	case race.Enabled: // a sample: CI checks them all without the race detector
		every = 240
	case testing.Short():
		every = 90
	}
	for i, ref := range refs {
		if i%every != 0 || ref.Start == illegalStart {
			continue
		}
		view := [][]string{nil, {"flip", "1"}, {"auto", "1"}}[i/every%3]
		for _, hx := range []bool{false, true} {
			if race.Enabled && !hx {
				continue
			}
			t.Run(strconv.Itoa(i)+map[bool]string{false: "", true: "/htmx"}[hx], func(t *testing.T) {
				playReference(t, ref, view, hx)
			})
		}
	}
}

func playReference(t *testing.T, ref apiRefGame, view []string, hx bool) {
	c := newClient(t)
	q := url.Values{"fen": {ref.Start}}
	for j := 0; j+1 < len(view); j += 2 {
		q.Set(view[j], view[j+1])
	}
	c.get("/?" + q.Encode())
	viewQuery := url.Values{}
	for j := 0; j+1 < len(view); j += 2 {
		viewQuery.Set(view[j], view[j+1])
	}
	fresh := func(cl *client) *goquery.Document {
		u := cl.page()
		if len(viewQuery) > 0 {
			u += "?" + viewQuery.Encode()
		}
		return parse(t, cl.do(http.MethodGet, u, nil, false))
	}
	watcher := c.session()
	watcher.id = c.id
	watcher.get(c.page() + "?" + viewQuery.Encode())
	other := c.tab()
	for n, p := range ref.Plies {
		if race.Enabled && n >= 160 {
			break // the sample's first 160 plies (CI plays them all without the race detector)
		}
		a, err := rules.ParseAction(p.Play)
		if err != nil {
			t.Fatal(err)
		}
		form := vals("from", a.From.String(), "to", a.To.String(), "ply", shownPly(c.shown))
		if a.Promotion != 0 {
			form.Set("promotion", strings.ToLower(string(a.Promotion.Letter())))
		}
		for j := 0; j+1 < len(view); j += 2 {
			form.Set(view[j], view[j+1])
		}
		stale := hx && n%7 == 3
		if stale {
			// Another tab plays this ply first: this tab's is refused, and
			// its answer brings it up to date, with the refusal.
			if rec := other.do(http.MethodPost, other.path("ply"), form, false); rec.Code != http.StatusSeeOther {
				t.Fatalf("ply %d from the other tab: %d", n+1, rec.Code)
			}
			rec := c.do(http.MethodPost, c.path("ply"), form, true)
			if rec.Code != http.StatusConflict || rec.Header().Get("HX-Reswap") != "none" {
				t.Fatalf("stale ply %d: %d %q, want 409 and a delta", n+1, rec.Code, rec.Header().Get("HX-Reswap"))
			}
			applySwaps(t, c.shown, rec)
			if text(c.shown, "#notes #error") == "" {
				t.Fatalf("stale ply %d: no refusal shown", n+1)
			}
			c.shown.Find("#notes #error").Remove() // the fresh page has no refusal
		} else if hx {
			c.hxPost(c.path("ply"), form)
		} else {
			c.post(c.path("ply"), form)
			if n%5 != 0 {
				continue // the page after the redirect is the page: checked now and then
			}
		}
		last := n == len(ref.Plies)-1
		// Under the race detector the page is compared every fourth ply
		// (a delta gone wrong stays wrong) and after every refusal.
		if compare := !race.Enabled || n%4 == 0 || stale || last; compare {
			if got, want := gameHTML(t, c.shown), gameHTML(t, fresh(c)); got != want {
				t.Fatalf("after ply %d (%s), hx=%v, the page differs from the page rendered fresh:\n%s\nwant\n%s", n+1, p.Play, hx, got, want)
			}
		}
		if hx && (n%3 == 2 || last) && (n < 20 || n > 20+views.MaxDeltaPlies) {
			u := c.path("delta") + "?" + viewQuery.Encode() + "&ply=" + shownPly(watcher.shown)
			rec := watcher.do(http.MethodGet, u, nil, true)
			if rec.Code != http.StatusOK {
				t.Fatalf("GET %s: %d", u, rec.Code)
			}
			applySwaps(t, watcher.shown, rec)
			if got, want := gameHTML(t, watcher.shown), gameHTML(t, fresh(watcher)); got != want {
				t.Fatalf("after ply %d, the spectator's page differs from the page rendered fresh:\n%s\nwant\n%s", n+1, got, want)
			}
		}
	}
}

// TestDeltaLiveTable: at a game between two browsers, a ply's delta (the
// board turns read-only for the one who played) and the other's GET
// /g/{id}/delta both carry the players' panel (#table), and leave each page
// as it renders fresh.
func TestDeltaLiveTable(t *testing.T) {
	e := newServer()
	white, invite := inviteGame(t, e, "white", "")
	id := white.id
	black := newClientOn(t, e)
	if rec := black.join(invite); rec.Code != http.StatusSeeOther {
		t.Fatalf("joining: %d", rec.Code)
	}
	black.get(kit.GamePath(id))
	white.get(kit.GamePath(id))
	fresh := func(c *client) string {
		return gameHTML(t, parse(t, c.do(http.MethodGet, kit.GamePath(id), nil, false)))
	}

	rec := black.do(http.MethodPost, kit.GamePath(id)+"/ply", vals("from", "e2", "to", "e4", "ply", shownPly(black.shown)), true)
	if rec.Code != http.StatusOK || rec.Header().Get("HX-Reswap") != "none" || !strings.Contains(rec.Body.String(), `<section id="table" class="table-panel" aria-label="Players" hx-swap-oob="true"`) {
		t.Fatalf("Black's ban: %d %q, no #table swapped: %.300s", rec.Code, rec.Header().Get("HX-Reswap"), rec.Body.String())
	}
	applySwaps(t, black.shown, rec)
	if got, want := gameHTML(t, black.shown), fresh(black); got != want {
		t.Fatalf("Black's page after the ban differs from the page rendered fresh:\n%s\nwant\n%s", got, want)
	}
	rec = white.do(http.MethodGet, kit.GamePath(id)+"/delta?ply="+shownPly(white.shown), nil, true)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `id="table"`) {
		t.Fatalf("White's delta: %d %.300s", rec.Code, rec.Body.String())
	}
	applySwaps(t, white.shown, rec)
	if got, want := gameHTML(t, white.shown), fresh(white); got != want {
		t.Fatalf("White's page after the delta differs from the page rendered fresh:\n%s\nwant\n%s", got, want)
	}
	if white.shown.Find("#board-ply").AttrOr("data-dests", "") == "" {
		t.Error("White, to move, has no square to pick after the delta")
	}
}

// TestDeltaVariants plays random games of every variant through the typed
// form with htmx (EN-Chess has squares beyond the 64 and a pass), and
// after every ply compares the tab's page with the page rendered fresh:
// 120 plies of each, 40 under the race detector (CI runs it whole
// without).
func TestDeltaVariants(t *testing.T) {
	plies := 120
	if race.Enabled {
		plies = 40
	}
	for _, v := range rules.Variants() {
		t.Run(v.ID(), func(t *testing.T) {
			c := newClient(t)
			c.start()
			c.hxPost("/new", vals("variant", v.ID()))
			g := rules.New(v)
			rng := rand.New(rand.NewPCG(uint64(len(v.ID())), 7))
			for n := 0; n < plies && !g.Outcome().Over(); n++ {
				legal := g.Legal()
				a := legal[rng.IntN(len(legal))]
				c.hxPost(c.path("ply"), vals("text", a.String(), "ply", shownPly(c.shown)))
				if err := g.Play(a); err != nil {
					t.Fatal(err)
				}
				if got, want := gameHTML(t, c.shown), gameHTML(t, parse(t, c.do(http.MethodGet, c.page(), nil, false))); got != want {
					t.Fatalf("after ply %d (%s), the page differs from the page rendered fresh:\n%s\nwant\n%s", n+1, a, got, want)
				}
			}
		})
	}
}
