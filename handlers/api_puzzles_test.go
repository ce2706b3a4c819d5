package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// puzzleObj is the API's puzzle object, every member named.
type puzzleObj struct {
	ID       string   `json:"id"`
	FEN      string   `json:"fen"`
	Themes   []string `json:"themes"`
	Rating   int      `json:"rating"`
	Color    string   `json:"color"`
	Plays    int      `json:"plays"`
	Solution []string `json:"solution"`
}

// attemptObj is the API's judgement of an attempt.
type attemptObj struct {
	Correct      bool     `json:"correct"`
	Solved       bool     `json:"solved"`
	FailedAt     *int     `json:"failedAt"`
	Reason       string   `json:"reason"`
	Refutation   []string `json:"refutation"`
	Solution     []string `json:"solution"`
	Rating       *int     `json:"rating"`
	RatingChange int      `json:"ratingChange"`
	Provisional  bool     `json:"provisional"`
	Rated        bool     `json:"rated"`
	PuzzleRating int      `json:"puzzleRating"`
}

// decodeStrict decodes r's JSON body (status 200) into v, refusing
// unknown members.
func decodeStrict(t *testing.T, r apiResp, v any) {
	t.Helper()
	if r.code != http.StatusOK {
		t.Fatalf("status %d: %s", r.code, r.body)
	}
	dec := json.NewDecoder(strings.NewReader(string(r.body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", r.body, err)
	}
}

// TestAPIPuzzlesDrawn is the trainer's promise through the API: 25
// puzzles drawn with /api/puzzles/next (each new, without its solution);
// each one's solution, asked for by id, is legal from its FEN and reaches
// what its themes say (puzzles.Describe replays it through the rules);
// for a mateIn1 no other first action ends the game at once; and a
// wrong first action is answered correct: false, failedAt 0, with a
// reason, and changes nothing stored but the ratings — the puzzle's and
// the player's (the puzzle, the player's games and lesson steps as
// they were).
func TestAPIPuzzlesDrawn(t *testing.T) {
	st := store.NewMemory()
	a := newAPIT(t, newTrainingServer(t, st))
	token := a.tokens[a.create(`{}`).ID]
	ctx := context.Background()
	player, err := plainService(st).Players.PlayerID(ctx, players.Credential(token))
	if err != nil || player == "" {
		t.Fatalf("the token's player: %q %v", player, err)
	}
	gamesBefore, _ := st.List(ctx, player, 100)
	rating, tried := 1500, 0
	seen := map[string]bool{}
	for i := range 25 {
		var drawn puzzleObj
		decodeStrict(t, a.doAs(token, http.MethodGet, "/api/puzzles/next", ""), &drawn)
		if seen[drawn.ID] || drawn.Solution != nil || drawn.Color == "" {
			t.Fatalf("draw %d: %+v (seen: %v)", i, drawn, seen[drawn.ID])
		}
		seen[drawn.ID] = true
		var p puzzleObj
		decodeStrict(t, a.do(http.MethodGet, "/api/puzzles/"+drawn.ID, ""), &p)
		if p.FEN != drawn.FEN || !slices.Equal(p.Themes, drawn.Themes) || len(p.Solution) == 0 {
			t.Fatalf("puzzle %s by id: %+v", drawn.ID, p)
		}
		themes, err := puzzles.Describe(p.FEN, p.Solution, puzzles.Theme(p.Themes[0]))
		if err != nil {
			t.Fatalf("puzzle %s: %v", p.ID, err)
		}
		if !slices.Equal(puzzles.ThemeKeys(themes), p.Themes) {
			t.Errorf("puzzle %s claims %v, its solution shows %v", p.ID, p.Themes, themes)
		}
		g, err := rules.FromFEN(p.FEN, rules.BanChess{})
		if err != nil {
			t.Fatal(err)
		}
		if g.Turn().Actor.String() != p.Color {
			t.Errorf("puzzle %s: color %s, %s acts", p.ID, p.Color, g.Turn().Actor)
		}
		var wrong string
		for _, act := range g.Legal() {
			if act.String() == p.Solution[0] {
				continue
			}
			g.Play(act)
			over := g.Outcome().Over()
			g.Undo()
			if over && p.Themes[0] == string(puzzles.MateIn1) {
				t.Errorf("mateIn1 %s: %s ends the game at once too", p.ID, act)
			}
			if !over && wrong == "" {
				wrong = act.String()
			}
		}
		if wrong == "" {
			continue // every other first action ends the game: nothing to try
		}
		var res attemptObj
		decodeStrict(t, a.doAs(token, http.MethodPost, "/api/puzzles/"+p.ID+"/attempt", `{"actions":["`+wrong+`"]}`), &res)
		if res.Correct || res.Solved || res.FailedAt == nil || *res.FailedAt != 0 || !strings.HasPrefix(res.Reason, "Not this: ") ||
			!slices.Equal(res.Solution, p.Solution) || !res.Rated || res.RatingChange >= 0 || res.Rating == nil || *res.Rating != rating+res.RatingChange {
			t.Fatalf("%s, wrong %s: %+v", p.ID, wrong, res)
		}
		rating = *res.Rating
		tried++
		var after puzzleObj
		decodeStrict(t, a.do(http.MethodGet, "/api/puzzles/"+p.ID, ""), &after)
		if after.Rating <= p.Rating || after.Plays != p.Plays+1 || after.Rating != res.PuzzleRating {
			t.Errorf("%s's rating %d → %d (plays %d → %d), attempt says %d", p.ID, p.Rating, after.Rating, p.Plays, after.Plays, res.PuzzleRating)
		}
		after.Rating, after.Plays = p.Rating, p.Plays
		if !equalPuzzles(after, p) {
			t.Errorf("%s changed: %+v, was %+v", p.ID, after, p)
		}
	}
	gamesAfter, _ := st.List(ctx, player, 100)
	l, _ := st.Learner(ctx, player)
	if len(gamesAfter) != len(gamesBefore) || len(l.Steps) != 0 || l.Puzzles != tried || tried < 20 || int(l.Rating.Rating+0.5) != rating {
		t.Errorf("games %d → %d, lesson steps %v, rated attempts %d of %d tried, rating %v (the API said %d)", len(gamesBefore), len(gamesAfter), l.Steps, l.Puzzles, tried, l.Rating, rating)
	}
}

func equalPuzzles(x, y puzzleObj) bool {
	return x.ID == y.ID && x.FEN == y.FEN && slices.Equal(x.Themes, y.Themes) && x.Rating == y.Rating && x.Color == y.Color &&
		x.Plays == y.Plays && slices.Equal(x.Solution, y.Solution)
}

// TestAPIPuzzleAttempts: a correct prefix is correct and unrated; the
// whole solution solves and rates the player up; again, it is judged and
// not rated; without a token an attempt is judged, its rating null.
func TestAPIPuzzleAttempts(t *testing.T) {
	a := newAPIT(t, newTrainingServer(t, nil))
	token := a.tokens[a.create(`{}`).ID]
	p := shippedWhere(t, banThenMove)
	path := "/api/puzzles/" + p.ID + "/attempt"
	var res attemptObj
	decodeStrict(t, a.doAs(token, http.MethodPost, path, `{"actions":["`+p.Solution[0]+`"]}`), &res)
	if !res.Correct || res.Solved || res.FailedAt != nil || res.Rated || res.Rating == nil || *res.Rating != 1500 {
		t.Errorf("a prefix: %+v", res)
	}
	whole := `{"actions":["` + p.Solution[0] + `","` + p.Solution[3] + `"]}`
	decodeStrict(t, a.doAs(token, http.MethodPost, path, whole), &res)
	if !res.Correct || !res.Solved || !res.Rated || res.RatingChange <= 0 || !res.Provisional {
		t.Errorf("the solution: %+v", res)
	}
	decodeStrict(t, a.doAs(token, http.MethodPost, path, whole), &res)
	if !res.Solved || res.Rated || res.RatingChange != 0 {
		t.Errorf("the solution again: %+v", res)
	}
	decodeStrict(t, a.doAs("", http.MethodPost, path, whole), &res)
	if !res.Solved || res.Rated || res.Rating != nil {
		t.Errorf("nobody's solution: %+v", res)
	}
	var daily puzzleObj
	decodeStrict(t, a.do(http.MethodGet, "/api/puzzles/daily", ""), &daily)
	set, _ := puzzles.Shipped()
	if want, _ := set.Daily(apiClock()); daily.ID != want.ID || daily.Solution != nil {
		t.Errorf("daily %+v, want %s", daily, want.ID)
	}
}

// TestAPIPuzzleRefutation: a wrong move's judgement carries its
// refutation, the engine's line up to the opponent's first action (the
// solver's ban before it); a right action's none.
func TestAPIPuzzleRefutation(t *testing.T) {
	a := newAPIT(t, refutedEcho(t))
	p := shippedWhere(t, moveFirstMate)
	wrong, after := wrongAndRefuted(t, p)
	hist := after.Record().History()
	var want []string
	for _, h := range hist[len(hist)-2:] {
		want = append(want, h.Action.String())
	}
	var res attemptObj
	decodeStrict(t, a.do(http.MethodPost, "/api/puzzles/"+p.ID+"/attempt", `{"actions":["`+wrong.String()+`"]}`), &res)
	if res.Correct || !slices.Equal(res.Refutation, want) {
		t.Errorf("a wrong move: refutation %q, want %q", res.Refutation, want)
	}
	r := a.do(http.MethodPost, "/api/puzzles/"+p.ID+"/attempt", `{"actions":["`+p.Solution[0]+`"]}`)
	res = attemptObj{}
	decodeStrict(t, r, &res)
	if !res.Correct || res.Refutation != nil || strings.Contains(string(r.body), "refutation") {
		t.Errorf("a right move: %s", r.body)
	}
}

// TestAPIPuzzleRefusals: every refusal of the puzzles' API, with its
// status and code.
func TestAPIPuzzleRefusals(t *testing.T) {
	a := newAPIT(t, newTrainingServer(t, nil))
	p := shippedWhere(t, banThenMove)
	attempt := "/api/puzzles/" + p.ID + "/attempt"
	for _, c := range []struct {
		name, token, method, path, body string
		status                          int
		code                            string
	}{
		{"bad theme", "", http.MethodGet, "/api/puzzles/next?theme=mateIn9", "", http.StatusBadRequest, "bad_theme"},
		{"unknown puzzle", "", http.MethodGet, "/api/puzzles/nope", "", http.StatusNotFound, "no_puzzle"},
		{"attempt at an unknown puzzle", "", http.MethodPost, "/api/puzzles/nope/attempt", `{"actions":["b:e2e4"]}`, http.StatusNotFound, "no_puzzle"},
		{"no actions", "", http.MethodPost, attempt, `{}`, http.StatusBadRequest, "bad_actions"},
		{"empty actions", "", http.MethodPost, attempt, `{"actions":[]}`, http.StatusBadRequest, "bad_actions"},
		{"not an action", "", http.MethodPost, attempt, `{"actions":["e2e4"]}`, http.StatusBadRequest, "bad_actions"},
		{"actions not a list", "", http.MethodPost, attempt, `{"actions":"b:e2e4"}`, http.StatusBadRequest, "bad_json"},
		{"unknown member", "", http.MethodPost, attempt, `{"actions":["b:e2e4"],"ply":3}`, http.StatusBadRequest, "unknown_field"},
		{"a token not issued", "not-a-token", http.MethodPost, attempt, `{"actions":["b:e2e4"]}`, http.StatusUnauthorized, "unauthorized"},
		{"a method not taken", "", http.MethodDelete, attempt, "", http.StatusMethodNotAllowed, "method_not_allowed"},
	} {
		t.Run(c.name, func(t *testing.T) { a.fail(a.doAs(c.token, c.method, c.path, c.body), c.status, c.code) })
	}
	req := a.request(http.MethodPost, attempt, `{"actions":["b:e2e4"]}`)
	req.Header.Set("Content-Type", "text/plain")
	a.fail(a.send(req), http.StatusUnsupportedMediaType, "not_json")
}
