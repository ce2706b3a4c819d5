package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// pairWait bounds how long the lobby may take: a seek shows on another
// page within 2 s, and both pages are in the game within 3 s.
const (
	seekWait = 2 * time.Second
	gameWait = 3 * time.Second
)

// present waits at most d for sel on ctx's page, asking the document each
// time: the lobby's live part is swapped whole when it changes, so a node
// found a moment ago may be gone, and a form's post loads a new document,
// in which the asking starts again.
func present(ctx context.Context, sel string, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		found, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`!!document.querySelector(%q)`, sel)))
		switch {
		case err == nil && found:
			return nil
		case time.Now().After(deadline):
			return fmt.Errorf("no %s within %v (%v)", sel, d, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// clickNow clicks sel as the page stands (see present), waiting for it
// at most gameWait. The click comes just after the page answers, so that
// the document it may replace is not the one asked.
func clickNow(ctx context.Context, sel string) error {
	if err := present(ctx, sel, gameWait); err != nil {
		return err
	}
	clicked, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(el => !!el && (setTimeout(() => el.click()), true))(document.querySelector(%q))`, sel)))
	if err == nil && !clicked {
		err = fmt.Errorf("%s went before it was clicked", sel)
	}
	return err
}

// chooseName has ctx choose name (and a password) on the account page.
func chooseName(t *testing.T, ctx context.Context, base, name string) {
	t.Helper()
	err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/account"),
		chromedp.SendKeys(`input[name="name"]`, name),
		chromedp.SendKeys(`input[name="password"]`, "password of "+name),
		chromedp.Click(`#choose-name`),
		chromedp.WaitVisible(fmt.Sprintf(`#account-name[data-name=%q]`, name)),
	)
	if err != nil {
		t.Fatalf("%s choosing a name: %v", name, err)
	}
}

// side is the colour the player of ctx's game page has.
func side(t *testing.T, ctx context.Context) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector(".strip.you[data-player]") || {}).dataset?.player || ""`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLobbyRatedGameInBrowsers: two people choose names; one makes a
// rated 5+3 seek; the other sees it within 2 s and accepts it; both are
// in one game within 3 s, on opposite colours, each other's name and
// rating shown; they play to a checkmate by ban; the winner's rating is
// above 1500 and the loser's below, one game each, and the game is on
// their profiles.
func TestLobbyRatedGameInBrowsers(t *testing.T) {
	ctxs, base := browsers(t, 2, true)
	ann, bob := ctxs[0], ctxs[1]
	chooseName(t, ann, base, "Ann")
	chooseName(t, bob, base, "Bob")
	if err := chromedp.Do(bob, chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible(`#make-seek`)); err != nil {
		t.Fatal(err)
	}
	mark(t, bob) // the seek must come live, not by a reload
	err := chromedp.Do(ann,
		chromedp.Navigate(base+"/"),
		chromedp.Click(`#lobby-link`),
		chromedp.WaitVisible(`#make-seek`),
		chromedp.SetValue(`.seek-form select[name="clock"]`, "5+3"),
		chromedp.SetValue(`.seek-form select[name="variant"]`, "ban"),
		chromedp.Click(`#make-seek`),
	)
	if err == nil {
		err = present(ann, `li.mine[data-seek]`, seekWait)
	}
	if err != nil {
		t.Fatalf("making the seek: %v", err)
	}
	made := time.Now()
	if err := present(bob, `li[data-seek] [data-accept]`, seekWait); err != nil {
		t.Fatalf("the seek did not show on the other page within %v: %v", seekWait, err)
	}
	if !marked(bob) {
		t.Error("the other page reloaded to show the seek")
	}
	row, err := chromedp.Run(bob, chromedp.Evaluate[string](`document.querySelector("li[data-seek]").textContent`))
	if err != nil || !strings.Contains(row, "Ann") || !strings.Contains(row, "1500?") || !strings.Contains(row, "5+3") || !strings.Contains(row, "Rated") {
		t.Errorf("the seek reads %q (%v)", row, err)
	}
	t.Logf("the seek showed on the other page %v after it was made", time.Since(made).Round(time.Millisecond))
	accepted := time.Now()
	if err := clickNow(bob, `li[data-seek] [data-accept]`); err != nil {
		t.Fatal(err)
	}
	for name, ctx := range map[string]context.Context{"Ann": ann, "Bob": bob} {
		if err := waitFor(ctx, `#game .strip.you[data-player]`, gameWait); err != nil {
			t.Fatalf("%s's page is not in the game within %v: %v", name, gameWait, err)
		}
	}
	t.Logf("both pages were in the game %v after the accept", time.Since(accepted).Round(time.Millisecond))
	annURL, _ := chromedp.Run(ann, chromedp.Location())
	bobURL, _ := chromedp.Run(bob, chromedp.Location())
	if pathOf(t, annURL) != pathOf(t, bobURL) {
		t.Fatalf("two games: %s and %s", annURL, bobURL)
	}
	pages := map[string]context.Context{side(t, ann): ann, side(t, bob): bob}
	if len(pages) != 2 || pages["white"] == nil || pages["black"] == nil {
		t.Fatalf("both on one side: %q and %q", side(t, ann), side(t, bob))
	}
	for name, ctx := range map[string]context.Context{"Ann": ann, "Bob": bob} {
		names, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".strip [data-player-name]")].map(e => e.dataset.playerName + " " + e.closest(".strip").querySelector(".rating").textContent)`))
		if err != nil || len(names) != 2 || !strings.Contains(strings.Join(names, ","), "Ann 1500?") || !strings.Contains(strings.Join(names, ","), "Bob 1500?") {
			t.Errorf("%s's page names %q (%v)", name, names, err)
		}
	}
	for i, a := range mateLine {
		actor := "black"
		if (i+1)/2%2 == 1 {
			actor = "white"
		}
		if err := play(pages[actor], i+1, a); err != nil {
			t.Fatal(err)
		}
		other := pages[map[string]string{"white": "black", "black": "white"}[actor]]
		if err := waitFor(other, fmt.Sprintf(`#status[data-ply="%d"]`, i+2), liveWait); err != nil {
			t.Fatalf("ply %d did not show on the other page: %v", i+1, err)
		}
	}
	winner, loser := "Ann", "Bob"
	if pages["white"] == bob {
		winner, loser = "Bob", "Ann"
	}
	for name, up := range map[string]bool{winner: true, loser: false} {
		res, err := http.Get(base + "/api/players/" + name)
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Ratings map[string]map[string]struct{ Rating, Games int }
		}
		json.NewDecoder(res.Body).Decode(&p)
		res.Body.Close()
		r := p.Ratings["ban"]["blitz"]
		if r.Games != 1 || up != (r.Rating > 1500) || r.Rating == 1500 {
			t.Errorf("%s after the game: %+v", name, p)
		}
		if err := chromedp.Do(ann, chromedp.Navigate(base+"/@/"+name), chromedp.WaitVisible(fmt.Sprintf(`li[data-played=%q]`, pathOf(t, annURL)))); err != nil {
			t.Errorf("%s's profile does not list the game: %v", name, err)
		}
	}
}

// TestLobbyPoolInBrowsers: two people pressing the same quick-pairing
// button end up in one game; a third waits.
func TestLobbyPoolInBrowsers(t *testing.T) {
	long(t)
	ctxs, base := browsers(t, 3, true)
	press := func(i int) {
		t.Helper()
		err := chromedp.Do(ctxs[i], chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible(`#make-seek`))
		if err == nil {
			err = clickNow(ctxs[i], `button[data-pool="3+2"]`)
		}
		if err != nil {
			t.Fatalf("browser %d pressing 3+2: %v", i, err)
		}
	}
	press(0)
	if err := present(ctxs[0], `form[data-pool="3+2"][data-waiting="true"]`, gameWait); err != nil {
		t.Fatalf("the first is not waiting: %v", err)
	}
	// The third opens the lobby while the first waits, and presses once the
	// first two are paired: a press at the moment of the pairing can land
	// on the pools' form as the live lobby swaps it away.
	if err := chromedp.Do(ctxs[2], chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible(`#make-seek`)); err != nil {
		t.Fatal(err)
	}
	press(1)
	var at [3]string
	for i := range 2 {
		if err := waitFor(ctxs[i], `#game .strip.you[data-player]`, gameWait); err != nil {
			t.Fatalf("browser %d is not in a game: %v", i, err)
		}
		at[i], _ = chromedp.Run(ctxs[i], chromedp.Location())
	}
	if pathOf(t, at[0]) != pathOf(t, at[1]) || side(t, ctxs[0]) == side(t, ctxs[1]) {
		t.Errorf("the first two are at %s (%s) and %s (%s)", at[0], side(t, ctxs[0]), at[1], side(t, ctxs[1]))
	}
	if err := clickNow(ctxs[2], `button[data-pool="3+2"]`); err != nil {
		t.Fatalf("the third pressing 3+2: %v", err)
	}
	if err := present(ctxs[2], `form[data-pool="3+2"][data-waiting="true"]`, gameWait); err != nil {
		t.Errorf("the third does not wait: %v", err)
	}
}

// TestSecondDeviceInBrowsers: a player signed in on a second device plays
// their seat there; signing out there leaves the first signed in.
func TestSecondDeviceInBrowsers(t *testing.T) {
	long(t)
	ctxs, base := browsers(t, 2, false)
	phone, laptop := ctxs[0], ctxs[1]
	if err := chromedp.Do(phone, hotSeat(base), chromedp.WaitVisible(`#status[data-ply="1"]`)); err != nil {
		t.Fatal(err)
	}
	game, _ := chromedp.Run(phone, chromedp.Location())
	chooseName(t, phone, base, "Ann")
	err := chromedp.Do(laptop,
		chromedp.Navigate(base+"/login"),
		chromedp.SendKeys(`input[name="name"]`, "ann"),
		chromedp.SendKeys(`input[name="password"]`, "password of Ann"),
		chromedp.Click(`#sign-in`),
		chromedp.WaitVisible(`#account-name[data-name="Ann"]`),
		chromedp.Navigate(game),
	)
	if err != nil {
		t.Fatalf("signing in on the second device: %v", err)
	}
	if err := play(laptop, 1, mateLine[0]); err != nil {
		t.Fatalf("the second device playing the player's seat: %v", err)
	}
	if err := chromedp.Do(laptop, chromedp.Navigate(base+"/account"), chromedp.Click(`#sign-out`), chromedp.WaitReady(`#home`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(phone, chromedp.Navigate(base+"/account"), chromedp.WaitVisible(`#account-name[data-name="Ann"]`)); err != nil {
		t.Errorf("signing out the second device signed out the first: %v", err)
	}
	if err := chromedp.Do(laptop, chromedp.Navigate(base+"/account"), chromedp.WaitVisible(`#choose-name`)); err != nil {
		t.Errorf("the signed-out device is still Ann: %v", err)
	}
}

// TestLobbyAccessibility audits the lobby, account, sign-in, profile and
// players pages with axe-core, light and dark.
func TestLobbyAccessibility(t *testing.T) {
	long(t)
	script := axeScript(t)
	for _, dark := range []bool{false, true} {
		t.Run(map[bool]string{false: "light", true: "dark"}[dark], func(t *testing.T) {
			ctxs, base := browsers(t, 2, true)
			ann, bob := ctxs[0], ctxs[1]
			scheme := map[bool]string{false: "light", true: "dark"}[dark]
			for _, ctx := range ctxs {
				if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
					t.Fatal(err)
				}
			}
			check := func(ctx context.Context, page string) {
				t.Helper()
				v, err := audit(ctx, script)
				if err != nil {
					t.Fatalf("%s: %v", page, err)
				}
				for _, s := range v {
					t.Errorf("%s: %s", page, s)
				}
			}
			if err := chromedp.Do(ann, chromedp.Navigate(base+"/account"), chromedp.WaitVisible(`#choose-name`)); err != nil {
				t.Fatal(err)
			}
			check(ann, "the account form")
			chooseName(t, ann, base, "Ann")
			check(ann, "a named account")
			if err := chromedp.Do(bob, chromedp.Navigate(base+"/login"), chromedp.WaitVisible(`#sign-in`)); err != nil {
				t.Fatal(err)
			}
			check(bob, "sign in")
			err := chromedp.Do(ann, chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible(`#make-seek`))
			if err == nil {
				err = clickNow(ann, `button[data-pool="5+3"]`)
			}
			if err == nil {
				err = present(ann, `[data-waiting="true"]`, gameWait)
			}
			if err == nil {
				err = clickNow(ann, `#make-seek`)
			}
			if err == nil {
				err = present(ann, `li.mine[data-seek]`, gameWait)
			}
			if err != nil {
				t.Fatal(err)
			}
			check(ann, "the lobby, waiting, with a seek")
			err = chromedp.Do(bob, chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible(`#make-seek`))
			if err == nil {
				err = present(bob, `li[data-seek] [data-accept]`, gameWait)
			}
			if err != nil {
				t.Fatal(err)
			}
			check(bob, "the lobby, a seek to accept")
			if err := chromedp.Do(ann, chromedp.Navigate(base+"/@/Ann"), chromedp.WaitVisible(`#profile`)); err != nil {
				t.Fatal(err)
			}
			check(ann, "a profile")
			if err := chromedp.Do(ann, chromedp.Navigate(base+"/players"), chromedp.WaitVisible(`#leaders`)); err != nil {
				t.Fatal(err)
			}
			check(ann, "the players")
		})
	}
}

// TestSeekFormRemembersInBrowsers (issue 37, item 12): a player who
// makes a Classic 10+5 casual seek as Black finds the lobby's form
// showing those choices again once the seek is made, and on the lobby's
// next visit — with JavaScript and without — as lichess keeps a
// player's last setup.
func TestSeekFormRemembersInBrowsers(t *testing.T) {
	long(t)
	withAndWithoutJS(t, func(t *testing.T, js bool) {
		ctxs, base := browsers(t, 1, js)
		ann := ctxs[0]
		chooseName(t, ann, base, "Ann")
		err := chromedp.Do(ann,
			chromedp.Navigate(base+"/lobby"),
			chromedp.WaitVisible(`#make-seek`),
			chromedp.SetValue(`.seek-form select[name="variant"]`, "classic"),
			chromedp.SetValue(`.seek-form select[name="clock"]`, "10+5"),
			chromedp.SetValue(`.seek-form select[name="color"]`, "black"),
			chromedp.Click(`.seek-form input[name="rated"]`),
			chromedp.Click(`#make-seek`),
		)
		if err == nil {
			err = present(ann, `li.mine[data-seek]`, seekWait)
		}
		if err != nil {
			t.Fatalf("making the seek: %v", err)
		}
		const read = `["variant", "clock", "color"].map(n => document.querySelector('.seek-form select[name="' + n + '"]').value).concat(document.querySelector('.seek-form input[name="rated"]').checked ? "rated" : "casual").join(" ")`
		want := "classic 10+5 black casual"
		if got, err := chromedp.Run(ann, chromedp.Evaluate[string](read)); err != nil || got != want {
			t.Errorf("after the seek the form shows %q (%v), want %q", got, err, want)
		}
		if err := chromedp.Do(ann, chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible(`#make-seek`)); err != nil {
			t.Fatal(err)
		}
		if got, err := chromedp.Run(ann, chromedp.Evaluate[string](read)); err != nil || got != want {
			t.Errorf("the lobby opened again shows %q (%v), want %q", got, err, want)
		}
	})
}
