package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/pages"
)

// ratedGame has maker seek a rated game at clock, taker accept it, and
// the maker resign it: a win for the taker. It returns the game's id.
func (a *apiT) ratedGame(maker, taker, clock string) string {
	a.t.Helper()
	var k api.Seek
	a.decode(a.doAs(maker, http.MethodPost, "/api/seeks", `{"clock":"`+clock+`","rated":true,"color":"white"}`), 201, &k)
	var p api.Paired
	a.decode(a.doAs(taker, http.MethodPost, "/api/seeks/"+k.ID+"/accept", ""), 200, &p)
	// Each side's first action, then White resigns: a game resigned
	// before would be aborted instead, with no result.
	a.game(a.doAs(taker, http.MethodPost, "/api/games/"+p.Game+"/actions", `{"action":"b:e2e4"}`), 200)
	a.game(a.doAs(maker, http.MethodPost, "/api/games/"+p.Game+"/actions", `{"action":"m:d2d4"}`), 200)
	a.game(a.doAs(maker, http.MethodPost, "/api/games/"+p.Game+"/resign", `{"color":"white"}`), 200)
	return p.Game
}

// TestProfile: a player's page has their ratings, results and games,
// newest first, page by page; /players lists those with ten rated games.
func TestProfile(t *testing.T) {
	e := newServer()
	a := newAPIT(t, e)
	ann, bob := a.account("Ann"), a.account("Bob")
	var ids []string
	for range pages.ProfilePageSize + 1 {
		ids = append(ids, a.ratedGame(ann, bob, "5+3"))
	}
	c := newClientOn(t, e)
	d := c.get("/@/bob")
	if text(d, "h1") != "Bob" || d.Find(".results").AttrOr("data-wins", "") != "21" || d.Find(".results").AttrOr("data-losses", "") != "0" {
		t.Errorf("Bob's profile: %q, %q", text(d, "h1"), text(d, ".results"))
	}
	row := d.Find(`tr[data-speed="blitz"]`)
	if row.Length() != 1 || !strings.Contains(row.Text(), "Ban Chess") || !strings.Contains(row.Text(), "21") {
		t.Errorf("Bob's ratings: %q", text(d, ".ratings"))
	}
	played := d.Find("li[data-played]")
	if played.Length() != pages.ProfilePageSize || played.First().AttrOr("data-played", "") != kit.GamePath(ids[len(ids)-1]) ||
		played.First().Find(".mini-board").Length() != 1 || !strings.Contains(played.First().Text(), "Won with black against Ann") ||
		!strings.Contains(played.First().Text(), "blitz") || !strings.Contains(played.First().Text(), "rated +") {
		t.Fatalf("Bob's games: %d, the first %q", played.Length(), strings.Join(strings.Fields(played.First().Text()), " "))
	}
	next := d.Find("#older-games").AttrOr("href", "")
	d = c.get(next)
	if got := d.Find("li[data-played]"); got.Length() != 1 || got.AttrOr("data-played", "") != kit.GamePath(ids[0]) || d.Find("#older-games").Length() != 0 {
		t.Errorf("the second page: %d games, %q", got.Length(), got.AttrOr("data-played", ""))
	}
	if rec := c.do(http.MethodGet, "/@/nobody", nil, false); rec.Code != http.StatusNotFound || text(parse(t, rec), "h1") != "No such player" {
		t.Errorf("an unknown player: %d %q", rec.Code, text(parse(t, rec), "h1"))
	}
	if rec := c.do(http.MethodGet, "/@/bob?before=nonsense", nil, false); rec.Code != http.StatusBadRequest {
		t.Errorf("a bad cursor: %d", rec.Code)
	}
	// Both have 21 blitz games: both listed, Bob first; no one at rapid.
	d = c.get("/players")
	leaders := d.Find(`[data-speed="blitz"] li[data-leader]`)
	if leaders.Length() != 2 || leaders.First().AttrOr("data-leader", "") != "Bob" || d.Find(`[data-speed="rapid"] li`).Length() != 0 {
		t.Errorf("the blitz leaders: %q", text(d, `[data-speed="blitz"]`))
	}
	// A player with fewer rated games follows the established, marked.
	cat := a.account("Cat")
	a.ratedGame(cat, ann, "1+0")
	d = c.get("/players")
	if bullet := d.Find(`[data-speed="bullet"] li[data-leader]`); bullet.Length() != 2 || bullet.First().AttrOr("data-established", "") != "false" || !strings.Contains(bullet.First().Text(), "new") {
		t.Errorf("the bullet list, of new players only: %q", text(d, `[data-speed="bullet"]`))
	}
	if blitz := d.Find(`[data-speed="blitz"] li[data-leader]`); blitz.First().AttrOr("data-established", "") != "true" {
		t.Errorf("an established player is marked new: %q", text(d, `[data-speed="blitz"]`))
	}
	if got := strings.Join(d.Find(".variant-switch li").Map(func(_ int, s *goquery.Selection) string { return s.Text() }), ", "); !strings.HasPrefix(got, "Ban Chess, Classic") {
		t.Errorf("the variant switch reads %q, its names apart", got)
	}
	if rec := c.do(http.MethodGet, "/players?variant=nope", nil, false); rec.Code != http.StatusBadRequest {
		t.Errorf("leaders of no variant: %d", rec.Code)
	}
}

// TestRatingChangeShownAtTheEnd: a finished rated game shows by each
// name what it changed the rating by, the loser's down and the winner's
// up, and its PGN carries them (WhiteRatingDiff, BlackRatingDiff); a
// casual game shows none.
func TestRatingChangeShownAtTheEnd(t *testing.T) {
	e := newServer()
	a := newAPIT(t, e)
	ann, bob := a.account("Ann"), a.account("Bob")
	id := a.ratedGame(ann, bob, "5+3") // Ann (White) resigns
	c := newClientOn(t, e)
	d := c.get(kit.GamePath(id))
	white := d.Find(`[data-player="white"] .rating-diff`).AttrOr("data-rating-diff", "")
	black := d.Find(`[data-player="black"] .rating-diff`).AttrOr("data-rating-diff", "")
	if !strings.HasPrefix(white, "−") || !strings.HasPrefix(black, "+") {
		t.Errorf("the game's page shows White %q, Black %q: want the loser's rating down, the winner's up", white, black)
	}
	if strip := strings.Join(strings.Fields(text(d, `[data-player="black"]`)), " "); !strings.Contains(strip, "1500? "+black) {
		t.Errorf("Black's strip reads %q, want the rating before and its change (1500? %s)", strip, black)
	}
	pgn := c.do(http.MethodGet, kit.GamePath(id)+"/pgn", nil, false).Body.String()
	if !strings.Contains(pgn, `[WhiteRatingDiff "-`) || !strings.Contains(pgn, `[BlackRatingDiff "+`) {
		t.Errorf("the PGN has no rating changes:\n%s", pgn)
	}
	if r := a.doAs(ann, http.MethodGet, "/api/games/"+id+"/pgn", ""); !strings.Contains(string(r.body), `[BlackRatingDiff "+`) {
		t.Errorf("the API's PGN has no rating changes:\n%s", r.body)
	}
	// The game object, read and streamed, carries them too, and its PGN.
	var obj struct {
		PGN     string `json:"pgn"`
		Players struct{ White, Black struct{ RatingDiff *int } }
	}
	r := a.do(http.MethodGet, "/api/games/"+id, "")
	if err := json.Unmarshal(r.body, &obj); err != nil {
		t.Fatalf("GET /api/games/%s: %d %s", id, r.code, r.body)
	}
	if w, b := obj.Players.White.RatingDiff, obj.Players.Black.RatingDiff; w == nil || b == nil || *w >= 0 || *b <= 0 ||
		"−"+strconv.Itoa(-*w) != white || "+"+strconv.Itoa(*b) != black {
		t.Errorf("the game object's ratingDiff: White %v, Black %v; the page shows %s, %s", w, b, white, black)
	}
	if !strings.Contains(obj.PGN, `[BlackRatingDiff "+`) {
		t.Errorf("the game object's PGN has no rating changes:\n%s", obj.PGN)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second) // the stream's first event, then it is closed
	defer cancel()
	stream := httptest.NewRecorder()
	e.ServeHTTP(stream, httptest.NewRequestWithContext(ctx, http.MethodGet, "/api/games/"+id+"/events", nil))
	if !strings.Contains(stream.Body.String(), `"ratingDiff":`+strconv.Itoa(*obj.Players.Black.RatingDiff)) {
		t.Errorf("the game's stream carries no rating change:\n%.600s", stream.Body)
	}
	casual := c.start()
	if casual.Find(".rating-diff").Length() != 0 {
		t.Error("a game not rated shows a rating change")
	}
	r = a.do(http.MethodGet, "/api/games/"+casual.Find("#game").AttrOr("data-id", ""), "")
	if strings.Contains(string(r.body), "ratingDiff") {
		t.Errorf("a game not rated has a rating change in its object: %.300s", r.body)
	}
}
