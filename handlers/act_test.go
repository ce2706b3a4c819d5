package handlers

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

func TestSelectWithoutJavaScript(t *testing.T) {
	c := newClient(t)
	c.start()
	rec := c.do(http.MethodPost, c.path("select"), vals("square", "g1", "from", ""), false)
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != c.page()+"?sel=g1" {
		t.Fatalf("select: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	d := c.get(c.page() + "?sel=g1")
	if !sq(d, "g1").HasClass("selected") {
		t.Error("g1 not selected")
	}
	for _, s := range []string{"f3", "h3"} {
		b := sq(d, s)
		if !b.HasClass("dest") || b.AttrOr("name", "") != "to" || b.AttrOr("formaction", "") != c.path("ply") {
			t.Errorf("%s is not a destination button: %v %q", s, b.AttrOr("class", ""), b.AttrOr("formaction", ""))
		}
	}
	if v, _ := d.Find(`#board input[name=from]`).Attr("value"); v != "g1" {
		t.Errorf("from = %q", v)
	}
	// Picking it again, or a square with nothing to do, clears it.
	for _, form := range []url.Values{vals("square", "g1", "from", "g1"), vals("square", "e5")} {
		rec = c.do(http.MethodPost, c.path("select"), form, false)
		if loc := rec.Header().Get("Location"); loc != c.page() {
			t.Errorf("select %v → %q, want %s", form, loc, c.page())
		}
	}
	// With htmx the fragment shows the selection at once.
	d = c.hxPost(c.path("select"), vals("square", "e2", "flip", "1"))
	if !sq(d, "e2").HasClass("selected") || !sq(d, "e4").HasClass("dest") {
		t.Error("hx select: no selection shown")
	}
	if d.Find(`#board input[name=flip][value="1"]`).Length() != 1 {
		t.Error("orientation not carried in the fragment's forms")
	}
}

func TestBanThenMove(t *testing.T) {
	for _, hx := range []bool{false, true} {
		c := newClient(t)
		c.start()
		post := c.post
		if hx {
			post = c.hxPost
		}
		d := post(c.path("ply"), vals("from", "e2", "to", "e4", "ply", "1"))
		if got := text(d, "#status"); !strings.Contains(got, "Move 1 · White to move — e2→e4 is banned") || shownPly(d) != "2" {
			t.Errorf("hx=%v status = %q", hx, got)
		}
		if banDrawn(d) != "e2e4" || d.Find("svg.ban-arrow line[x1]").Length() != 1 {
			t.Errorf("hx=%v: ban not marked", hx)
		}
		if d.Find(".status-bar.phase-move").Length() != 1 {
			t.Errorf("hx=%v: move phase not marked", hx)
		}
		if dests, _ := destsOf(d, "e2"); dests != "e3" {
			t.Errorf("hx=%v: e2 dests = %q, want e3 (e4 banned)", hx, dests)
		}
		d = post(c.path("ply"), vals("from", "d2", "to", "d4", "ply", "2"))
		if got := text(d, "#status"); !strings.Contains(got, "Move 1 · White bans a Black move") || shownPly(d) != "3" {
			t.Errorf("hx=%v status = %q", hx, got)
		}
		if boardMark(d, "last") != "d2d4" {
			t.Errorf("hx=%v: last move not marked", hx)
		}
		if hx {
			if got := text(d, "#announce"); got != "White played d4" {
				t.Errorf("announce = %q", got)
			}
		}
		// One row for move 1, White's cell the ban before its move: ⊘e4 d4
		// (its ⊘ drawn by the style).
		if hist := text(d, "#history #move-1 .side.white"); hist != "ban e4d4" {
			t.Errorf("hx=%v history's White cell = %q, want the ban (⊘, said \"ban\") e4 before d4", hx, hist)
		}
		if n := d.Find("[data-moves] [data-ply]").Length(); n != 2 || d.Find(`[data-moves] a.ban[data-ply="1"]`).Length() != 1 {
			t.Errorf("hx=%v: %d plies in the list, want 2 (the ban, the move)", hx, n)
		}
	}
}

func TestTypedActions(t *testing.T) {
	c := newClient(t)
	c.start()
	for _, step := range []struct{ text, ply, status string }{
		{"e2e4", "2", "Move 1 · White to move — e2→e4 is banned"},
		{"Nf3", "3", "Move 1 · White bans a Black move"},
		{"b:e7e5", "4", "Move 1 · Black to move — e7→e5 is banned"},
		{"M:D7D5", "5", "Move 2 · Black bans a White move"},      // BCN in any case
		{"Nc3", "6", "Move 2 · White to move — b1→c3 is banned"}, // SAN at a ban names the move to ban
	} {
		d := c.post(c.path("ply"), vals("text", step.text))
		if got := text(d, "#status"); !strings.Contains(got, step.status) || shownPly(d) != step.ply {
			t.Errorf("after %s status = %q at ply %s, want %q at ply %s", step.text, got, shownPly(d), step.status, step.ply)
		}
	}
}

// TestTypedInputQuoted: a refusal quotes typed input as it was typed.
func TestTypedInputQuoted(t *testing.T) {
	for _, hx := range []bool{false, true} {
		c := newClient(t)
		c.start()
		c.post(c.path("ply"), vals("text", "e2e4")) // Black bans e2→e4
		before := fen(c.get(c.page()))
		for typed, want := range map[string]string{"e4": "e4 (e2e4) is banned", "e4+": "e4+ (e2e4) is banned", "e2e4": "e2e4 is banned", "m:e2e4": "e2e4 is banned"} {
			rec := c.do(http.MethodPost, c.path("ply"), vals("text", typed, "ply", "2"), hx)
			msg := errorText(parse(t, rec))
			if rec.Code != http.StatusUnprocessableEntity || !strings.HasPrefix(msg, want) {
				t.Errorf("hx=%v: banned %q: %d %q, want %q…", hx, typed, rec.Code, msg, want)
			}
			if strings.Contains(msg, "E4") || strings.Contains(msg, "E2e4") {
				t.Errorf("hx=%v: %q is quoted as %q", hx, typed, msg)
			}
		}
		if got := fen(c.get(c.page())); got != before {
			t.Errorf("hx=%v: a banned move changed the game: %q", hx, got)
		}
	}
}

func TestCheckmateByBanAndUndo(t *testing.T) {
	for _, hx := range []bool{false, true} {
		c := newClient(t)
		c.get("/?fen=" + url.QueryEscape(mateFEN))
		post := c.post
		if hx {
			post = c.hxPost
		}
		post(c.path("ply"), vals("from", "a2", "to", "a3"))
		d := post(c.path("ply"), vals("from", "c4", "to", "f7"))
		if !sq(d, "e8").HasClass("check") {
			t.Errorf("hx=%v: checked king not marked", hx)
		}
		d = post(c.path("ply"), vals("from", "e8", "to", "e7"))
		if got := text(d, "#banner"); got != "Checkmate by ban: Black's only move, Ke7, was banned — White wins, 1-0" {
			t.Errorf("hx=%v banner = %q", hx, got)
		}
		if d.Find("#board-ply").AttrOr("data-dests", "") != "" || d.Find("#resign, #draw").Length() != 0 {
			t.Errorf("hx=%v: finished game still offers actions", hx)
		}
		if pgn := text(parse(t, c.do(http.MethodGet, c.path("export"), nil, true)), "#pgn"); !strings.Contains(pgn, "{banning: e8e7#} 1-0") {
			t.Errorf("hx=%v PGN = %q", hx, pgn)
		}
		rec := c.do(http.MethodPost, c.path("ply"), vals("from", "g8", "to", "h6"), hx)
		if rec.Code != http.StatusConflict || !strings.Contains(errorText(parse(t, rec)), "over") {
			t.Errorf("hx=%v: ply after the end: %d %q", hx, rec.Code, errorText(parse(t, rec)))
		}
		d = post(c.path("undo"), vals())
		if d.Find("#banner").Length() != 0 || !strings.Contains(text(d, "#status"), "Move 4 · White bans a Black move") {
			t.Errorf("hx=%v after undo: banner %q, status %q", hx, text(d, "#banner"), text(d, "#status"))
		}
		if hx && !strings.HasPrefix(text(d, "#announce"), "Took back: White banned Ke7 (e8–e7)") {
			t.Errorf("announce = %q", text(d, "#announce"))
		}
	}
}

func TestPromotionPicker(t *testing.T) {
	const promoFEN = "k7/4P3/8/8/8/8/8/4K3 w - - 0 1 1"
	for _, hx := range []bool{false, true} {
		c := newClient(t)
		c.get("/?fen=" + url.QueryEscape(promoFEN))
		// A ban needs no piece: it removes all four promotions.
		rec := c.do(http.MethodPost, c.path("ply"), vals("from", "e1", "to", "d1"), hx)
		if rec.Code != http.StatusSeeOther && rec.Code != http.StatusOK {
			t.Fatalf("ban: %d", rec.Code)
		}
		var d *goquery.Document
		if hx {
			d = c.hxPost(c.path("ply"), vals("from", "e7", "to", "e8"))
		} else {
			rec := c.do(http.MethodPost, c.path("ply"), vals("from", "e7", "to", "e8"), false)
			if loc := rec.Header().Get("Location"); loc != c.page()+"?sel=e7&to=e8" {
				t.Fatalf("promotion redirect %d %q", rec.Code, loc)
			}
			d = c.get(rec.Header().Get("Location"))
		}
		if n := d.Find("#promotion [data-promotion]").Length(); n != 4 {
			t.Fatalf("hx=%v: %d promotion choices", hx, n)
		}
		if d.Find(`#promotion[action="`+c.path("ply")+`"]`).Length() != 1 {
			t.Errorf("hx=%v: the picker does not post to the game", hx)
		}
		if d.Find(`.board-wrap #promotion.col-4.top`).Length() != 1 || d.Find(`#promotion button`).First().AttrOr("data-promotion", "") != "q" {
			t.Errorf("hx=%v: the picker does not hang from e8, the queen first", hx)
		}
		if shownPly(d) != "2" {
			t.Errorf("hx=%v: asking for a piece played something: %q", hx, text(d, "#status"))
		}
		if hx {
			d = c.hxPost(c.path("ply"), vals("from", "e7", "to", "e8", "promotion", "n"))
		} else {
			d = c.post(c.path("ply"), vals("from", "e7", "to", "e8", "promotion", "n"))
		}
		if p := sq(d, "e8").Find("[data-piece]").AttrOr("data-piece", ""); p != "wN" {
			t.Errorf("hx=%v: e8 holds %q, want wN", hx, p)
		}
	}
}

func TestControls(t *testing.T) {
	c := newClient(t)
	c.start()
	d := c.post(c.path("draw"), vals())
	if got := text(d, "#banner"); got != "Draw by agreement, 1/2-1/2" {
		t.Errorf("draw banner %q", got)
	}
	d = c.hxPost(c.path("undo"), vals())
	if d.Find("#banner").Length() != 0 {
		t.Error("undo did not withdraw the draw")
	}
	first := c.id
	d = c.hxPost("/new", vals("variant", "classic"))
	if got := text(d, "#status"); !strings.Contains(got, "Move 1 · White to move") || strings.Contains(got, "ban") || c.id == first {
		t.Errorf("classic status %q at %s", got, c.id)
	}
	if dests, _ := destsOf(d, "e2"); dests != "e3 e4" {
		t.Errorf("classic e2 dests %q", dests)
	}
	d = c.post("/new", vals("variant", "ban", "auto", "1"))
	// Auto-flip: Black bans first, so Black is at the bottom.
	if first, _ := d.Find("#board [data-square]").First().Attr("data-square"); first != "h1" {
		t.Errorf("auto-flip at Black's ban starts at %q", first)
	}
	if d.Find("#autoflip[aria-checked=true]").Length() != 1 {
		t.Error("auto-flip not shown as on")
	}
	d = c.post(c.path("ply"), vals("text", "e2e4", "auto", "1"))
	if first, _ := d.Find("#board [data-square]").First().Attr("data-square"); first != "a8" {
		t.Errorf("auto-flip at White's move starts at %q", first)
	}
	flip, _ := d.Find("#flip").Attr("href")
	if gameOf(flip) != c.id {
		t.Errorf("flip link %q leaves the game", flip)
	}
	d = c.get(flip)
	if first, _ := d.Find("#board [data-square]").First().Attr("data-square"); first != "h1" {
		t.Errorf("flip starts at %q", first)
	}
}

// Two tabs posting at once never interleave or lose a ply: every accepted
// ply is in the history.
func TestConcurrentPlies(t *testing.T) {
	c := newClient(t)
	c.start()
	actions := []string{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:g1f3", "m:c1f4", "b:g8f6", "m:c8f5"}
	var wg sync.WaitGroup
	var mu sync.Mutex
	accepted := 0
	for tab := 0; tab < 4; tab++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, a := range actions {
				for {
					form := vals("text", a, "ply", strconv.Itoa(i+1))
					req := c.request(http.MethodPost, c.path("ply"), form, false)
					rec := httptest.NewRecorder()
					c.e.ServeHTTP(rec, req)
					if rec.Code == http.StatusSeeOther {
						mu.Lock()
						accepted++
						mu.Unlock()
						break
					}
					if rec.Code != http.StatusConflict {
						t.Errorf("ply %d: %d", i+1, rec.Code)
						return
					}
					d, _ := goquery.NewDocumentFromReader(rec.Body)
					if now, _ := strconv.Atoi(d.Find("#status").AttrOr("data-ply", "")); now > i+1 {
						break // another tab played it
					}
				}
			}
		}()
	}
	wg.Wait()
	d := c.get(c.page())
	if accepted != len(actions) || shownPly(d) != "9" {
		t.Errorf("accepted %d plies, status %q", accepted, text(d, "#status"))
	}
}

// TestENChessPage: an EN-Chess board has 66 squares; its promotion picker
// offers a king, an Auror and staying a pawn; a side in partial checkmate
// gets a Pass button, which plays the pass.
func TestENChessPage(t *testing.T) {
	for _, hx := range []bool{false, true} {
		c := newClient(t)
		d := c.post("/new", vals("variant", "en"))
		if n := d.Find("#board [data-square]").Length(); n != 66 {
			t.Errorf("hx=%v: %d squares, want 66", hx, n)
		}
		if p := sq(d, "x0").Find("[data-piece]").AttrOr("data-piece", ""); p != "wA" || !sq(d, "x0").HasClass("x-bottom") || !sq(d, "x9").HasClass("x-top") {
			t.Errorf("hx=%v: x0 holds %q, classes %q", hx, p, sq(d, "x0").AttrOr("class", ""))
		}

		ply := func(form url.Values) *goquery.Document {
			if hx {
				return c.hxPost(c.path("ply"), form)
			}
			return c.post(c.path("ply"), form)
		}
		choices := func(d *goquery.Document) (out []string) {
			d.Find("#promotion [data-promotion]").Each(func(_ int, s *goquery.Selection) { out = append(out, s.AttrOr("data-promotion", "")) })
			return out
		}

		c.get("/?v=en&fen=" + url.QueryEscape("7k/3P3p/8/8/8/8/8/K7 w - - 0 1 --"))
		if got := choices(c.get(c.page() + "?sel=d7&to=d8")); !slices.Equal(got, []string{"k", "a", "p"}) {
			t.Errorf("hx=%v: promotion choices %v, want k a p", hx, got)
		}
		d = ply(vals("from", "d7", "to", "d8", "promotion", "p"))
		if p := sq(d, "d8").Find("[data-piece]").AttrOr("data-piece", ""); p != "wP" {
			t.Errorf("hx=%v: d8 holds %q, want the pawn that stayed", hx, p)
		}

		// A waiting pawn: promotion in place, or a capture onto x9 (no rook).
		c.get("/?v=en&fen=" + url.QueryEscape("3P3k/8/8/8/8/8/8/K7 w - - 0 1 -n"))
		for to, want := range map[string][]string{"d8": {"q", "r", "b", "n", "k", "a"}, "x9": {"q", "b", "n", "k", "a"}} {
			if got := choices(c.get(c.page() + "?sel=d8&to=" + to)); !slices.Equal(got, want) {
				t.Errorf("hx=%v: d8 to %s offers %v, want %v", hx, to, got, want)
			}
		}
		d = ply(vals("from", "d8", "to", "x9", "promotion", "n"))
		if p := sq(d, "x9").Find("[data-piece]").AttrOr("data-piece", ""); p != "wN" {
			t.Errorf("hx=%v: x9 holds %q, want wN", hx, p)
		}

		c.get("/?v=en&fen=" + url.QueryEscape("7K/8/8/rr6/8/7k/8/K7 w - - 0 1 --"))
		d = c.get(c.page())
		if d.Find("#pass").Length() != 1 || !strings.Contains(text(d, "#game"), "Partial checkmate") {
			t.Fatalf("hx=%v: no Pass button in a partial checkmate", hx)
		}
		d = ply(vals("text", "--"))
		if !strings.Contains(text(d, "#status"), "Black to move") || d.Find("#pass").Length() != 0 {
			t.Errorf("hx=%v: after the pass: %q", hx, text(d, "#status"))
		}
	}
}
