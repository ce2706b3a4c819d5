package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// liveWait bounds how long a page may take to show what another page did:
// the issue asks for half a second; a busy test machine gets more.
const liveWait = 3 * time.Second

// browsers starts the server and one Chromium with n browser contexts,
// each with cookies of its own (n people on n devices). What any of them
// reports as going wrong fails the test at its end.
func browsers(t *testing.T, n int, js bool) (ctxs []context.Context, base string) {
	t.Helper()
	return browsersOn(t, n, js, playground(t))
}

// browsersOn is browsers on the playground serving svc.
func browsersOn(t *testing.T, n int, js bool, svc testsite.Site) (ctxs []context.Context, base string) {
	t.Helper()
	first, base, p := browserOn(t, js, svc)
	ctxs, all := []context.Context{first}, []*[]string{p}
	for range n - 1 {
		ctx, cancel := chromedp.NewContext(first, chromedp.WithNewBrowserContext())
		t.Cleanup(cancel)
		all = append(all, instrument(t, ctx, js))
		ctxs = append(ctxs, ctx)
	}
	t.Cleanup(func() {
		for i, p := range all {
			if len(*p) > 0 {
				t.Errorf("browser %d reported problems: %q", i, *p)
			}
		}
	})
	return ctxs, base
}

// friends starts n browsers (see browsers): the first creates a game with
// a friend as White, with clock, and the second joins it as Black. It
// returns the browsers and the game's watch link.
func friends(t *testing.T, n int, js bool, clock string) (ctxs []context.Context, watch string) {
	t.Helper()
	ctxs, base := browsers(t, n, js)
	invite, watch := inviteGame(t, ctxs[0], base, "white", clock)
	join(t, ctxs[1], invite)
	return ctxs, watch
}

// inviteGame has ctx create a game with a friend from the home page's
// "Play a friend" form, playing color with clock ("" for none; any value
// the server takes, not only the form's choices). It returns the invite
// link and the watch link.
func inviteGame(t *testing.T, ctx context.Context, base, color, clock string) (invite, watch string) {
	t.Helper()
	form := `.invite-form form`
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.Navigate(base + "/new"),
		chromedp.WaitVisible(form + ` select[name="color"]`),
		chromedp.SetValue(form+` select[name="color"]`, color),
	}
	if clock != "" {
		steps = append(steps, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(
			`document.querySelector(%q).add(new Option(%q, %q, true, true))`, form+` select[name="clock"]`, clock, clock)))
	}
	steps = append(steps, chromedp.Click(form+` button[type="submit"]`), chromedp.WaitReady(`[data-invite-link]`))
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("creating a game with a friend: %v", err)
	}
	invite, err := chromedp.Run(ctx, chromedp.Value(`[data-invite-link]`))
	if err != nil {
		t.Fatal(err)
	}
	watch, err = chromedp.Run(ctx, chromedp.Value(`[data-watch-link]`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(invite, "?invite=") || !strings.HasPrefix(pathOf(t, watch), "/g/") || pathOf(t, invite) != pathOf(t, watch) {
		t.Fatalf("invite link %q, watch link %q", invite, watch)
	}
	return invite, watch
}

// join opens the invite link in ctx and takes the free seat with the
// page's button (opening the link alone takes nothing).
func join(t *testing.T, ctx context.Context, invite string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(invite), chromedp.WaitReady(`#game`)); err != nil {
		t.Fatalf("opening the invite link: %v", err)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#join").length`)); n != 1 {
		t.Fatal("the invite page has no button to take the free seat")
	}
	if _, err := chromedp.RunResponse(ctx, chromedp.Click(`#join`)); err != nil {
		t.Fatalf("taking the free seat: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.WaitReady(`#game`)); err != nil {
		t.Fatalf("the game after taking the seat: %v", err)
	}
	if u, err := chromedp.Run(ctx, chromedp.Location()); err != nil || strings.Contains(u, "invite=") {
		t.Fatalf("after opening the invite link the page is %q (%v), not the game", u, err)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#watching, #join").length`)); n != 0 {
		t.Fatal("opening the invite link did not take the free seat")
	}
}

// waitFor waits at most d for sel on ctx's page.
func waitFor(ctx context.Context, sel string, d time.Duration) error {
	wctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return chromedp.Do(wctx, chromedp.WaitReady(sel))
}

// mark sets a marker on each page, which a reload would lose.
func mark(t *testing.T, ctxs ...context.Context) {
	t.Helper()
	for _, ctx := range ctxs {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.e2eMarker = true`)); err != nil {
			t.Fatal(err)
		}
	}
}

// marked reports whether ctx's page still has mark's marker.
func marked(ctx context.Context) bool {
	kept, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.e2eMarker === true`))
	return err == nil && kept
}

// shows checks that name's page (ctx) shows the result banner want, and
// was not reloaded since mark.
func shows(t *testing.T, name string, ctx context.Context, want string) {
	t.Helper()
	banner, err := chromedp.Run(ctx, chromedp.Text(`#banner`))
	if err != nil || banner != want {
		t.Errorf("%s's banner %q (%v), want %q", name, banner, err, want)
	}
	if !marked(ctx) {
		t.Errorf("%s's page reloaded", name)
	}
}

// TestLiveGameInBrowsers: two people on two devices play a game with a
// friend to a checkmate by ban by clicking, and a third watches; every ply
// shows on the other two pages without a reload, and the watcher can do
// nothing.
func TestLiveGameInBrowsers(t *testing.T) {
	long(t)
	ctxs, watch := friends(t, 3, true, "")
	white, black, watcher := ctxs[0], ctxs[1], ctxs[2]
	if err := chromedp.Do(watcher, chromedp.Navigate(watch), chromedp.WaitVisible(`#watching`)); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(white, `#status[data-ply="1"]`, liveWait); err != nil {
		t.Fatal(err)
	}
	// The players see that someone watches, without a reload.
	mark(t, white, black, watcher)
	if err := waitFor(white, `[data-spectators="1"]`, liveWait); err != nil {
		t.Errorf("White's page does not say one person watches: %v", err)
	}
	if err := waitFor(black, `[data-player="white"] .presence[data-connected="true"]`, liveWait); err != nil {
		t.Errorf("Black's page does not show White connected: %v", err)
	}
	flipped, err := chromedp.Run(black, chromedp.Evaluate[bool](`document.getElementById("board").classList.contains("flipped")`))
	if err != nil || !flipped {
		t.Errorf("Black sees the board from White's side (%v)", err)
	}

	// The watcher's clicks change nothing, and a POST is refused.
	for _, sel := range []string{"#board button", "#action-text", "#undo", "#resign", "#draw", "#offer-draw", "#offer-takeback"} {
		if n, err := chromedp.Run(watcher, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))); err != nil || n != 0 {
			t.Errorf("the watcher's page has %d %s (%v)", n, sel, err)
		}
	}
	if err := chromedp.Do(watcher, chromedp.Click(`#board [data-square="d7"]`), chromedp.Click(`#board [data-square="d5"]`)); err != nil {
		t.Fatal(err)
	}
	status, err := chromedp.Run(watcher, chromedp.Evaluate[int](`fetch(location.pathname + "/ply", {method: "POST",
			body: new URLSearchParams({text: "b:d2d4", ply: "1"})}).then(r => r.status)`, chromedp.EvalAwaitPromise))
	if err != nil || status != 403 {
		t.Errorf("the watcher's POST answered %d (%v), want 403", status, err)
	}
	for name, ctx := range map[string]context.Context{"White": white, "Black": black, "the watcher": watcher} {
		if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#board .selected").length + document.querySelectorAll('#status[data-ply="1"]').length`)); err != nil || n != 1 {
			t.Errorf("after the watcher's clicks %s's page changed (%v)", name, err)
		}
	}

	// The game, ply by ply: each shows on the two other pages.
	pages := map[string]context.Context{"white": white, "black": black, "watcher": watcher}
	for i, a := range mateLine {
		// Black bans first; then each side moves and bans the other's reply.
		actor := "black"
		if (i+1)/2%2 == 1 {
			actor = "white"
		}
		if err := play(pages[actor], i+1, a); err != nil {
			t.Fatal(err)
		}
		for name, ctx := range pages {
			if name == actor {
				continue
			}
			if err := waitFor(ctx, fmt.Sprintf(`#status[data-ply="%d"]`, i+2), liveWait); err != nil {
				t.Fatalf("%s's ply %d (%s) did not show on %s's page within %v: %v", actor, i+1, a, name, liveWait, err)
			}
		}
	}
	for name, ctx := range pages {
		shows(t, name, ctx, mateBanner)
	}
}

// TestLiveClockInBrowsers plays a game with a 6-second clock until Black's
// flag falls: no clock runs before each side's first action (Black's ban,
// White's move); then both pages show the result without a reload. A
// clock read from a page is a whole minute at least, so the game is made
// through the service, with White's browser holding White's credential as
// its cookie.
func TestLiveClockInBrowsers(t *testing.T) {
	long(t)
	white, black, _ := clockedGame(t, games.TimeControl{Initial: 6 * time.Second})
	for i, who := range []context.Context{black, white, white} {
		if n, err := chromedp.Run(white, chromedp.Evaluate[int](`document.querySelectorAll('.clock[data-running="true"]').length`)); i < 2 && (err != nil || n != 0) {
			t.Fatalf("before ply %d a clock runs on White's page (%d, %v)", i+1, n, err)
		}
		if err := play(who, i+1, mateLine[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := waitFor(white, `.clock[data-clock="black"][data-running="true"]`, liveWait); err != nil {
		t.Fatalf("Black's clock does not run on White's page: %v", err)
	}
	for name, ctx := range map[string]context.Context{"White": white, "Black": black} {
		running, err := chromedp.Run(ctx, chromedp.AttributeValue(`.clock[data-clock="black"]`, "data-running"))
		if err != nil || running.Value != "true" {
			t.Fatalf("%s's page: Black's clock running=%q (%v)", name, running.Value, err)
		}
	}
	want := "Black ran out of time — White wins, 1-0"
	for name, ctx := range map[string]context.Context{"White": white, "Black": black} {
		if err := waitFor(ctx, `#banner`, 6*time.Second+liveWait); err != nil {
			t.Fatalf("no result on %s's page after the flag fell: %v", name, err)
		}
		shows(t, name, ctx, want)
		if clock, err := chromedp.Run(ctx, chromedp.Text(`.clock[data-clock="black"]`)); err != nil || clock != "0:00.0" {
			t.Errorf("%s's page shows Black's clock at %q (%v)", name, clock, err)
		}
	}
}

// clockedGame starts a Ban Chess game between two browsers on clock tc:
// White's page (its creator's seat, set by cookie) and Black's (joined
// by the invite), both marked (see mark). It answers the game's id.
func clockedGame(t *testing.T, tc games.TimeControl) (white, black context.Context, id string) {
	t.Helper()
	svc := playground(t)
	ctxs, base := browsersOn(t, 2, true, svc)
	white, black = ctxs[0], ctxs[1]
	cred, _, err := svc.Players.NewPlayer(context.Background(), players.Cookie)
	if err != nil {
		t.Fatal(err)
	}
	id, code, _, err := svc.Games.CreateInvite(context.Background(), cred, rules.New(rules.BanChess{}),
		games.InviteSettings{Color: rules.White, Clock: &tc})
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(white, chromedp.Navigate(base+"/")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(white, network.SetCookie, network.SetCookieParams{Name: "banchess_player", Value: string(cred), URL: base}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(white, chromedp.Navigate(base+"/g/"+id), chromedp.WaitReady(`#game`)); err != nil {
		t.Fatal(err)
	}
	join(t, black, base+"/g/"+id+"?invite="+code)
	mark(t, white, black)
	return white, black, id
}

// TestWaitingPageRefreshesWithoutJS: with JavaScript off, White's page
// reloads itself while Black is to play, until it is White's turn.
func TestWaitingPageRefreshesWithoutJS(t *testing.T) {
	long(t)
	ctxs, _ := friends(t, 2, false, "")
	white, black := ctxs[0], ctxs[1]
	const refresh = `meta[http-equiv="refresh"]`
	// White's page reloads every few seconds, so it is looked for, not
	// counted once: a count taken mid-reload sees an empty document.
	if err := waitFor(white, refresh, 3*time.Second+liveWait); err != nil {
		t.Fatalf("White's page, waiting for Black, has no refresh: %v", err)
	}
	if n, err := chromedp.Run(black, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll(%q).length`, refresh))); err != nil || n != 0 {
		t.Errorf("Black's page, Black to play, has %d refresh (%v)", n, err)
	}
	mark(t, white)
	if err := play(black, 1, mateLine[0]); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(white, `#status[data-ply="2"]`, 3*time.Second+liveWait); err != nil {
		t.Fatalf("White's page did not refresh into White's turn: %v", err)
	}
	if marked(white) {
		t.Error("White's page changed without a reload, with JavaScript off")
	}
	if n, err := chromedp.Run(white, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll(%q).length`, refresh))); err != nil || n != 0 {
		t.Errorf("White's page, White to play, still refreshes (%d, %v)", n, err)
	}
	// White plays from the refreshed page.
	if err := play(white, 2, mateLine[1]); err != nil {
		t.Fatal(err)
	}
}
