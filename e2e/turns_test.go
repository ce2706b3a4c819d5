package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// TestYourGamesInPlay: /games shows the correspondence game where it is
// the player's turn first, before a game played more recently that awaits
// the opponent, with its board, "Your turn" and the days left; the header
// counts the one game awaiting the player. /games and a correspondence
// game's page with its forecast panel open pass axe-core's audit.
func TestYourGamesInPlay(t *testing.T) {
	long(t)
	svc := playground(t)
	ctx, base, problems := browserOn(t, true, svc)
	bg := context.Background()
	issue := func() players.Credential {
		cred, _, err := svc.Players.NewPlayer(bg, players.Cookie)
		if err != nil {
			t.Fatal(err)
		}
		return cred
	}
	me, other := issue(), issue()
	// invite starts a game other creates as creator, which me joins.
	invite := func(creator rules.Color, tc games.TimeControl) string {
		t.Helper()
		id, code, _, err := svc.Games.CreateInvite(bg, other, rules.New(rules.BanChess{}), games.InviteSettings{Color: creator, Clock: &tc})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Games.Join(bg, id, me, code); err != nil {
			t.Fatal(err)
		}
		return id
	}
	mine := invite(rules.White, games.DaysPerMove(3)) // I am Black, who bans first
	time.Sleep(5 * time.Millisecond)
	theirs := invite(rules.Black, games.DaysPerMove(1)) // I am White: Black (them) to ban, and played later
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{Name: "banchess_player", Value: string(me), URL: base}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/games"), chromedp.WaitVisible(`#turns .turns-list`)); err != nil {
		t.Fatal(err)
	}
	type item struct {
		ID, Text, Left string
		Turn           bool
		Board          int
	}
	items, err := chromedp.Run(ctx, chromedp.Evaluate[[]item](`[...document.querySelectorAll("#turns .turns-list li")].map(li => ({
		ID: li.dataset.gameId, Text: li.textContent, Turn: li.classList.contains("your-turn"),
		Left: (li.querySelector(".game-left") || {}).textContent || "", Board: li.querySelectorAll(".mini-board").length}))`))
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[0].ID != mine || items[1].ID != theirs {
		t.Fatalf("the games in play: %+v, want %s then %s", items, mine, theirs)
	}
	if first := items[0]; !first.Turn || first.Left != "3 days left" || first.Board != 1 {
		t.Errorf("the game awaiting me: %+v", first)
	}
	if items[1].Turn || items[1].Left != "1 day left" {
		t.Errorf("the game awaiting them: %+v", items[1])
	}
	count, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("awaiting-count").textContent`))
	if err != nil || count != "1" {
		t.Errorf("the header counts %q (%v), want 1", count, err)
	}
	if v, err := audit(ctx, axeScript(t)); err != nil || len(v) > 0 {
		t.Errorf("/games: %v %v", v, err)
	}
	// The first game's link opens it, where I ban.
	if err := chromedp.Do(ctx, chromedp.Click(`#turns .turns-list li:first-child a`), chromedp.WaitVisible(`#status[data-phase="ban"]`)); err != nil {
		t.Fatal(err)
	}
	// The other game, where they are to act, offers me forecasts.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/g/"+theirs), chromedp.WaitReady(`#forecast summary`), chromedp.Click(`#forecast summary`)); err != nil {
		t.Fatal(err)
	}
	if v, err := audit(ctx, axeScript(t)); err != nil || len(v) > 0 {
		t.Errorf("a correspondence game's page: %v %v", v, err)
	}
	if len(*problems) > 0 {
		t.Errorf("page problems: %v", *problems)
	}
}
