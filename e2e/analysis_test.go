package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/banchess/banchess/rules"
)

// analysisWait bounds how long the live panel takes to show a position's
// analysis: a 150 ms pause, a 400 ms search, and a loaded machine.
const analysisWait = 30 * time.Second

// panelShown is what the live panel and the shown board's arrow show.
type panelShown struct {
	Ply, FEN, From, To, Kind string // the panel's
	Arrow                    string // the board's arrow: "kind from to", "" for none
	Best                     string // the best action in words
}

// readPanel waits for the live panel to show the analysis of ply, and
// reads it.
func readPanel(t *testing.T, ctx context.Context, ply int) panelShown {
	t.Helper()
	if err := waitFor(ctx, fmt.Sprintf(`#analysis-result[data-ply="%d"]`, ply), analysisWait); err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.getElementById("analysis-body") || {}).innerHTML || "no panel"`))
		t.Fatalf("the panel did not show ply %d: %v; it shows %s", ply, err, got)
	}
	p, err := chromedp.Run(ctx, chromedp.Evaluate[panelShown](`(() => {
		const r = document.getElementById("analysis-result").dataset, a = (document.getElementById("view-board") || document.getElementById("board")).querySelector(".board > #analysis-arrow-board"); // the board shown: an earlier position's, browsed in place, or the game's
		return {Ply: r.ply, FEN: r.fen, From: r.from, To: r.to, Kind: r.kind,
			Arrow: a ? [a.dataset.kind, a.dataset.from, a.dataset.to].join(" ") : "",
			Best: (document.getElementById("analysis-best") || {}).textContent || ""};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if p.From == "" || p.Best == "" {
		t.Fatalf("ply %d: the panel shows no best action: %+v", ply, p)
	}
	if want := p.Kind + " " + p.From + " " + p.To; p.Arrow != want {
		t.Errorf("ply %d: the board's arrow is %q, want the panel's %q", ply, p.Arrow, want)
	}
	return p
}

// action is the panel's best action in BCN, without a promotion piece.
func (p panelShown) action() string {
	return map[string]string{"ban": "b:", "move": "m:"}[p.Kind] + p.From + p.To
}

// legalIn checks that the panel's best action is legal in its position,
// by the rules.
func legalIn(t *testing.T, p panelShown) {
	t.Helper()
	g, err := rules.FromFEN(p.FEN, rules.BanChess{})
	if err != nil {
		t.Fatalf("the panel's FEN %q: %v", p.FEN, err)
	}
	if !slices.ContainsFunc(g.Legal(), func(a rules.Action) bool { return strings.HasPrefix(a.String(), p.action()) }) {
		t.Errorf("ply %s: the best action %s is not legal in %s", p.Ply, p.action(), p.FEN)
	}
}

// apiGame reads game id's FEN and legal actions from the API.
func apiGame(t *testing.T, base, id string) (fen string, legal []string) {
	t.Helper()
	resp, err := http.Get(base + "/api/games/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var g struct {
		FEN   string
		Legal []string
	}
	if err := json.NewDecoder(resp.Body).Decode(&g); err != nil {
		t.Fatal(err)
	}
	return g.FEN, g.Legal
}

// gameID is the game the page shows, from its address.
func gameID(t *testing.T, ctx context.Context) string {
	t.Helper()
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(pathOf(t, loc), "/")
	if len(parts) < 3 || parts[1] != "g" {
		t.Fatalf("not a game's address: %s", loc)
	}
	return parts[2]
}

// TestAnalysisPanelInBrowser turns the live analysis on beside a game: its
// best action is drawn on the board and is legal in the position shown; it
// follows the player's plies and the steps through the history, and the
// choice stays across pages until turned off.
func TestAnalysisPanelInBrowser(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?fen="+url.QueryEscape(startFEN)), chromedp.WaitVisible(`#status`)); err != nil {
		t.Fatal(err)
	}
	for i, a := range []string{"b:e2e4", "m:d2d4", "b:e7e5"} {
		if err := play(ctx, i+1, a); err != nil {
			t.Fatal(err)
		}
	}
	id := gameID(t, ctx)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`#analysis-toggle[aria-pressed="false"]`), chromedp.Click(`#analysis-toggle`)); err != nil {
		t.Fatal(err)
	}
	p := readPanel(t, ctx, 4)
	fen, legal := apiGame(t, base, id)
	if p.FEN != fen || p.Kind != "move" || !slices.ContainsFunc(legal, func(a string) bool { return strings.HasPrefix(a, p.action()) }) {
		t.Errorf("ply 4: the panel shows %s in %q; the game is at %q with %v", p.action(), p.FEN, fen, legal)
	}
	if pressed, _ := chromedp.Run(ctx, chromedp.AttributeValue(`#analysis-toggle`, "aria-pressed")); pressed.Value != "true" {
		t.Errorf("the toggle is pressed %q", pressed.Value)
	}

	// Back one ply, shown in place: White to ban.
	if err := chromedp.Do(ctx, chromedp.Click(`#step-prev`), chromedp.WaitReady(`#view-board[data-shown-ply="2"]`)); err != nil {
		t.Fatal(err)
	}
	p = readPanel(t, ctx, 3)
	attr, err := chromedp.Run(ctx, chromedp.AttributeValue(`#view-board`, "data-fen"))
	if err != nil {
		t.Fatal(err)
	}
	shown := attr.Value
	if p.FEN != shown || p.Kind != "ban" {
		t.Errorf("ply 3: the panel analyses %q (%s), the page shows %q", p.FEN, p.Kind, shown)
	}
	legalIn(t, p)
	// Another ply back by the keyboard: White's move.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.activeElement && document.activeElement.blur()`), chromedp.KeyEvent(kb.ArrowLeft), chromedp.WaitReady(`#history a[aria-current="step"][data-ply="1"]`)); err != nil {
		t.Fatal(err)
	}
	p = readPanel(t, ctx, 2)
	if p.Kind != "move" {
		t.Errorf("ply 2: the best action is a %s", p.Kind)
	}
	legalIn(t, p)

	// Back to the game, and a ply: the panel follows the delta. Ply 4 was
	// analysed already: the panel shows it again without asking.
	asked := func() int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`performance.getEntriesByType("resource").filter(e => e.name.includes("panel=1")).length`))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := asked()
	if err := chromedp.Do(ctx, chromedp.Click(`#step-last`), chromedp.WaitReady(`#status[data-ply="4"]`)); err != nil {
		t.Fatal(err)
	}
	readPanel(t, ctx, 4)
	if n := asked(); n != before {
		t.Errorf("back at ply 4, analysed before: the panel asked the server %d more times", n-before)
	}
	if err := play(ctx, 4, "m:d7d5"); err != nil {
		t.Fatal(err)
	}
	p = readPanel(t, ctx, 5)
	fen, legal = apiGame(t, base, id)
	if p.FEN != fen || p.Kind != "ban" || !slices.ContainsFunc(legal, func(a string) bool { return strings.HasPrefix(a, p.action()) }) {
		t.Errorf("ply 5: the panel shows %s in %q; the game is at %q with %v", p.action(), p.FEN, fen, legal)
	}

	// The choice stays across pages; turned off, the panel and arrow go.
	if err := chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitReady(`#analysis-toggle[aria-pressed="true"]`)); err != nil {
		t.Fatal(err)
	}
	readPanel(t, ctx, 5)
	script := axeScript(t)
	check := func(state string) {
		t.Helper()
		v, err := audit(ctx, script)
		if err != nil {
			t.Fatalf("%s: %v", state, err)
		}
		for _, s := range v {
			t.Errorf("%s: %s", state, s)
		}
	}
	check("the live panel")
	screenshot(t, ctx, "analysis-panel.png", 1280, 800)
	// On a phone the panel goes below the board, which keeps its size.
	screenshot(t, ctx, "analysis-panel-phone.png", 390, 844)
	b, err := boxOf(ctx, "#board .board")
	if err != nil {
		t.Fatal(err)
	}
	panel, err := boxOf(ctx, "#analysis-panel")
	if err != nil {
		t.Fatal(err)
	}
	if b.Width < 330 || panel.Top < b.Bottom || panel.Right > 390 {
		t.Errorf("on a phone the board is %+v, the panel %+v", b, panel)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Sleep(300*time.Millisecond)); err != nil { // board.js fits the board anew
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`#analysis-toggle`), chromedp.WaitReady(`#analysis-toggle[aria-pressed="false"]`)); err != nil {
		t.Fatal(err)
	}
	left, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[document.getElementById("analysis-panel").hidden, !!document.getElementById("analysis-arrow-board")].join(" ")`))
	if err != nil || left != "true false" {
		t.Errorf("turned off: panel hidden, arrow drawn: %q (%v)", left, err)
	}
	// The analysis page, the way without scripts.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/g/"+id+"/analysis?ply=3"), chromedp.WaitVisible(`#analysis-best`)); err != nil {
		t.Fatal(err)
	}
	check("the analysis page")
	if len(*problems) > 0 {
		t.Errorf("browser reported problems: %q", *problems)
	}
}

// TestAnalysisPanelFollowsComputer: against the computer, the panel moves
// on to the position after the computer's answer, which comes live.
func TestAnalysisPanelFollowsComputer(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/new"), chromedp.WaitVisible(`.bot-form`),
		chromedp.SetValue(`.bot-form select[name="color"]`, "white"),
		chromedp.SetValue(`.bot-form select[name="level"]`, "1"),
		chromedp.Click(`.bot-form button[type="submit"]`),
	); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(ctx, `#status[data-ply="2"]`, botWait); err != nil {
		t.Fatalf("the computer's first ban did not show: %v", err)
	}
	id := gameID(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Click(`#analysis-toggle`)); err != nil {
		t.Fatal(err)
	}
	legalIn(t, readPanel(t, ctx, 2))
	playFirst(t, ctx, base, id, 2)
	playFirst(t, ctx, base, id, 3)
	if err := waitFor(ctx, `#status[data-ply="6"]`, botWait+analysisWait); err != nil {
		t.Fatalf("the computer's answer did not show: %v", err)
	}
	p := readPanel(t, ctx, 6)
	fen, _ := apiGame(t, base, id)
	if p.FEN != fen {
		t.Errorf("after the computer's ply the panel analyses %q, the game is at %q", p.FEN, fen)
	}
	legalIn(t, p)
	if len(*problems) > 0 {
		t.Errorf("browser reported problems: %q", *problems)
	}
}

// TestAnalysisWithoutJS steps through a game's analyses with plain links,
// goes back to the position in the game, and analyses the board editor's
// position, all with JavaScript off.
func TestAnalysisWithoutJS(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, false)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?v=ban&a=b:e2e4,m:d2d4,b:e7e5"), chromedp.WaitVisible(`#status[data-ply="4"]`)); err != nil {
		t.Fatal(err)
	}
	id := gameID(t, ctx)
	// step follows a link to the analysis of ply want (the page it
	// leaves may be another ply's analysis: the wait is for want's).
	step := func(link, want string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Click(link)); err != nil {
			t.Fatalf("%s: %v", link, err)
		}
		for deadline := time.Now().Add(analysisWait); ; {
			// Asked while the page navigates, the question may fail: ask again.
			got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.getElementById("analysis-ply") || {}).title || ""`))
			if err == nil && got == "Ply "+want { // the text says "Move 1 · Black to move …"; the title names the ply
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: no analysis of ply %s: %q (%v)", link, want, got, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	disabled := func(ids ...string) {
		t.Helper()
		for _, id := range ids {
			if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("span#`+id+`[aria-disabled='true']").length`)); n != 1 {
				t.Errorf("#%s is not disabled", id)
			}
		}
	}
	if err := unfold(ctx, "share-fold"); err != nil { // Analyse is in the folded Share / export panel
		t.Fatal(err)
	}
	step(`#analyse`, "4")
	disabled("step-next", "step-last")
	step(`#step-prev`, "3")
	step(`#step-first`, "1")
	disabled("step-first", "step-prev")
	step(`#step-next`, "2")
	best, err := chromedp.Run(ctx, chromedp.Text(`#analysis-best`))
	if err != nil || !strings.HasPrefix(best, "White plays ") {
		t.Errorf("ply 2: best %q (%v)", best, err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`#analysis-game`), chromedp.WaitVisible(`#status[data-phase="view"]`)); err != nil {
		t.Fatal(err)
	}
	if loc, _ := chromedp.Run(ctx, chromedp.Location()); pathOf(t, loc) != "/g/"+id+"/history/1" {
		t.Errorf("the position in the game is %s", loc)
	}

	// The board editor's position.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/editor"), chromedp.Click(`#editor-clear`), fenIs("8/8/8/8/8/8/8/8 w - - 0 1")); err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct{ code, sq string }{{"wK", "e1"}, {"bK", "e8"}, {"wQ", "d1"}} {
		if err := chromedp.Do(ctx, chromedp.Click(`[data-pick="`+s.code+`"]`), chromedp.WaitReady(`[data-pick="`+s.code+`"].selected`),
			chromedp.Click(`.editor-board [data-square="`+s.sq+`"]`),
			chromedp.WaitReady(`.editor-board [data-square="`+s.sq+`"] img`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Click(`#editor-analyse`), chromedp.WaitVisible(`#analysis-fen`)); err != nil {
		t.Fatal(err)
	}
	got, _ := chromedp.Run(ctx, chromedp.Text(`#analysis-fen`))
	best, _ = chromedp.Run(ctx, chromedp.Text(`#analysis-best`))
	if got != "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 1" || !strings.HasPrefix(best, "Black bans ") {
		t.Errorf("the editor's analysis: %q, best %q", got, best)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#steps, #analysis-play, #analysis-edit").length`)); n != 2 {
		t.Errorf("a position's analysis should have no steps, a link to play and one to edit: %d", n)
	}
	if len(*problems) > 0 {
		t.Errorf("browser reported problems: %q", *problems)
	}
}

// TestEditorAnalysisAsEdited: with JavaScript, "Analyse this position"
// carries the editor's fields as they stand, a typed ban not yet sent.
func TestEditorAnalysisAsEdited(t *testing.T) {
	ctx, base, problems := browser(t, true)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/editor"), fenIs("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1"),
		chromedp.SetValue(`#editor-act`, "move"),
		fenIs("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2"), // the change's answer has landed (it replaces the form)
	); err != nil {
		t.Fatal(err)
	}
	// Typed, not yet sent: chromedp's SetValue would fire the change that
	// sends the form (whose answer then replaces the link being clicked),
	// so the value is set as typing leaves it, without one.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("editor-ban").value = "e2e4"`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`#editor-analyse`), chromedp.WaitVisible(`#analysis-best`)); err != nil {
		t.Fatal(err)
	}
	fen, _ := chromedp.Run(ctx, chromedp.Text(`#analysis-fen`))
	best, _ := chromedp.Run(ctx, chromedp.Text(`#analysis-best`))
	if fen != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2:e2e4" || !strings.HasPrefix(best, "White plays ") || best == "White plays e4" {
		t.Errorf("analysed %q, best %q", fen, best)
	}
	if len(*problems) > 0 {
		t.Errorf("browser reported problems: %q", *problems)
	}
}

// TestAnalysisBoardPlayedInBrowser: the analysis page draws the game page's
// board at the game page's size, and plays on it as the game page does —
// a click, the keyboard, a drag — each ply drawn on its square and then
// analysed, the engine's line beside the board; the final position of a
// finished game is shown with its result, not refused.
func TestAnalysisBoardPlayedInBrowser(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(base+"/?v=ban&a=b:e2e4,m:d2d4,b:e7e5,m:d7d5"), chromedp.WaitVisible(`#status[data-ply="5"]`)); err != nil {
		t.Fatal(err)
	}
	id := gameID(t, ctx)
	game, err := boxOf(ctx, "#board .board")
	if err != nil {
		t.Fatal(err)
	}
	// White's move after Black's first ban.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/g/"+id+"/analysis?ply=2"), chromedp.WaitVisible(`#analysis-line`)); err != nil {
		t.Fatal(err)
	}
	board, err := boxOf(ctx, "#board .board")
	if err != nil {
		t.Fatal(err)
	}
	if board.Width < 400 || math.Abs(board.Width-game.Width) > 0.05*game.Width || math.Abs(board.Height-board.Width) > 1 {
		t.Errorf("the analysis board is %.0f×%.0f, the game page's %.0f×%.0f", board.Width, board.Height, game.Width, game.Height)
	}
	engine := func(ply int) {
		t.Helper()
		if err := waitFor(ctx, fmt.Sprintf(`#status[data-ply="%d"]`, ply), analysisWait); err != nil {
			at, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + " at ply " + (document.getElementById("status") || {dataset: {}}).dataset.ply`))
			t.Fatalf("ply %d: the page did not come: %v (the page: %s)", ply, err, at)
		}
		line, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[document.getElementById("analysis-line").textContent, (document.querySelector("#board .board > #analysis-arrow-board") || {dataset: {}}).dataset.kind].join(" | ")`))
		if err != nil || line == "" || line[0] < '1' || line[0] > '9' || strings.HasSuffix(line, " | ") {
			t.Errorf("ply %d: no engine line beside the board, or no arrow on it: %q (%v)", ply, line, err)
		}
	}
	engine(2)

	// A click on the knight, a click on f3: drawn at once, then answered.
	clicked := time.Now()
	if err := clicks(ctx, "g1", "f3"); err != nil {
		t.Fatal(err)
	}
	if piece, err := pieceOn(ctx, "f3"); err != nil || piece != "wN" {
		t.Errorf("after the click, f3 holds %q (%v)", piece, err)
	}
	engine(3)
	t.Logf("a ply on the analysis board: answered with its analysis in %v", time.Since(clicked).Round(time.Millisecond))
	if piece, _ := pieceOn(ctx, "f3"); piece != "wN" {
		t.Errorf("answered, f3 holds %q", piece)
	}
	if cur, _ := chromedp.Run(ctx, chromedp.Text(`#lines [aria-current="step"]`)); cur != "Nf3" {
		t.Errorf("the list's current ply is %q, want Nf3", cur)
	}
	if loc, _ := chromedp.Run(ctx, chromedp.Location()); !strings.Contains(loc, "line=1.0") {
		t.Errorf("the address does not follow the board: %s", loc)
	}

	// White's ban of a Black move by the keyboard: the focus came back
	// to the board with the answer.
	if err := keyboardPly(ctx, 3, rules.Action{Phase: rules.PhaseBan, From: sq("e7"), To: sq("e5")}); err != nil {
		t.Fatal(err)
	}
	engine(4)
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#ban-line rect").length`)); n != 2 {
		t.Errorf("the ban is not framed: %d squares", n)
	}

	// Black's move by a drag.
	if err := touchDrag(ctx, sqSel("d7"), sqSel("d5")); err != nil {
		t.Fatal(err)
	}
	engine(5)
	if piece, _ := pieceOn(ctx, "d5"); piece != "bP" {
		t.Errorf("after the drag, d5 holds %q", piece)
	}
	if got, _ := chromedp.Run(ctx, chromedp.Text(`#lines`)); !strings.Contains(got, "(1. Nf3 ⊘e5 d5 )") {
		t.Errorf("the list: %q", got)
	}
	screenshot(t, ctx, "analysis-board.png", 1280, 800)
	// On a phone the board fills the width, the analysis below it.
	screenshot(t, ctx, "analysis-board-phone.png", 390, 844)
	phone, err := boxOf(ctx, "#board .board")
	if err != nil {
		t.Fatal(err)
	}
	if side, err := boxOf(ctx, "#engine-lines"); err != nil || phone.Width < 330 || side.Top < phone.Bottom || side.Right > 390 {
		t.Errorf("on a phone the board is %+v, the engine's lines %+v (%v)", phone, side, err)
	}
	// Back one ply by the step link: the position before the drag.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), settled(`#step-prev`), chromedp.Click(`#step-prev`)); err != nil {
		t.Fatal(err)
	}
	engine(4)
	if piece, _ := pieceOn(ctx, "d7"); piece != "bP" {
		t.Errorf("one ply back, d7 holds %q", piece)
	}

	// A game mated by a ban: its final position, shown with its result.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?v=ban&fen="+url.QueryEscape("7k/8/p4n2/bpP5/2K5/4q3/8/8 w - b6 0 1")+"&a=b:c5b6"), chromedp.WaitVisible(`#status[data-phase="over"]`)); err != nil {
		t.Fatal(err)
	}
	id = gameID(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/g/"+id+"/analysis"), chromedp.WaitVisible(`#analysis-message`)); err != nil {
		t.Fatal(err)
	}
	end, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[document.getElementById("banner").textContent, document.querySelectorAll("#board .board [data-square] img").length, !!document.getElementById("analysis-best")].join(" | ")`))
	if err != nil || !strings.Contains(end, "heckmate") || !strings.HasSuffix(end, "| 8 | false") {
		t.Errorf("the mate's final position: %q (%v)", end, err)
	}
	if len(*problems) > 0 {
		t.Errorf("browser reported problems: %q", *problems)
	}
}

// TestAnalysisBoardWithoutJS plays a ban on the analysis board with
// JavaScript off: the square picked is a form post that marks where it
// may go, and the destination's post plays it.
func TestAnalysisBoardWithoutJS(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, false)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?v=ban&a=b:e2e4,m:d2d4"), chromedp.WaitVisible(`#status[data-ply="3"]`)); err != nil {
		t.Fatal(err)
	}
	id := gameID(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/g/"+id+"/analysis?ply=1"), chromedp.WaitVisible(`#analysis-line`),
		chromedp.Click(sqSel("d2")), chromedp.WaitVisible(`#sq-d4.dest`),
		chromedp.Click(`#sq-d4`), chromedp.WaitVisible(`#status[data-ply="2"]`),
	); err != nil {
		t.Fatal(err)
	}
	if ban, _ := banAt(ctx); ban != "3,6 3,4" {
		t.Errorf("the ban drawn: %q, want d2 and d4 framed", ban)
	}
	if got, _ := chromedp.Run(ctx, chromedp.Text(`#lines`)); !strings.Contains(got, "(1. ⊘d4 )") {
		t.Errorf("the list: %q", got)
	}
	if len(*problems) > 0 {
		t.Errorf("browser reported problems: %q", *problems)
	}
}
