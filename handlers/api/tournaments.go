package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/stream"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/tournament"
)

// Tournaments are the tournaments as the API uses them
// (tournament.Service).
type Tournaments interface {
	List(ctx context.Context) (tournament.Lists, error)
	Tournament(ctx context.Context, id string) (*tournament.Tournament, error)
	Create(ctx context.Context, cred players.Credential, st tournament.Settings) (*tournament.Tournament, error)
	Join(ctx context.Context, id string, cred players.Credential) error
	Withdraw(ctx context.Context, id string, cred players.Credential) error
	Berserk(ctx context.Context, game string, cred players.Credential) error
	Paired(ctx context.Context, player string, since time.Time) ([]tournament.Paired, error)
	// Changed returns a channel closed at tournament id's next change.
	Changed(id string) <-chan struct{}
}

// tournamentsAPI serves the tournaments.
type tournamentsAPI struct {
	s *deps
	// encoded is each tournament's standings as its streams last sent
	// them, shared by its streams: one encoding a change, not one a
	// stream.
	mu      sync.Mutex
	encoded map[string]encodedTournament
}

// encodedTournament is a tournament's JSON with its standings at a
// revision.
type encodedTournament struct {
	rev  int64
	data []byte
}

// encode returns t's JSON with its standings, encoded once a revision.
func (a *tournamentsAPI) encode(t *tournament.Tournament) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if e, ok := a.encoded[t.ID]; ok && e.rev == t.Revision {
		return e.data
	}
	data, _ := json.Marshal(tournamentJSONOf(t, true))
	if a.encoded == nil || len(a.encoded) > 1000 {
		a.encoded = map[string]encodedTournament{}
	}
	a.encoded[t.ID] = encodedTournament{t.Revision, data}
	return data
}

// tournamentRoutes are the tournaments' routes; none when the server runs
// none. /tournament/{id} is /tournaments/{id} too.
func (a *tournamentsAPI) tournamentRoutes() []apiEndpoint {
	if a.s.tournaments == nil {
		return nil
	}
	var out []apiEndpoint
	for _, base := range []string{"/tournaments", "/tournament"} {
		out = append(out,
			apiEndpoint{http.MethodPost, base, a.create},
			apiEndpoint{http.MethodGet, base + "/:id", a.get},
			apiEndpoint{http.MethodGet, base + "/:id/events", a.events},
			apiEndpoint{http.MethodPost, base + "/:id/join", a.join},
			apiEndpoint{http.MethodPost, base + "/:id/withdraw", a.withdraw})
	}
	return append(out, apiEndpoint{http.MethodGet, "/tournaments", a.list}, apiEndpoint{http.MethodPost, "/games/:id/berserk", a.berserk})
}

// tournamentRequest is the body of POST /api/tournaments.
type tournamentRequest struct {
	Kind    field[string]  `json:"kind"`
	Name    field[string]  `json:"name"`
	Variant field[string]  `json:"variant"`
	Clock   field[string]  `json:"clock"`
	Minutes field[numeral] `json:"minutes"`
	Rated   field[boolean] `json:"rated"`
	Starts  field[string]  `json:"startsAt"`
	// A Swiss event's.
	Rounds   field[numeral] `json:"rounds"`
	Interval field[numeral] `json:"interval"`
}

// Tournament is a tournament as the API writes it.
type Tournament struct {
	ID        string         `json:"id"`
	Kind      string         `json:"kind"`
	Name      string         `json:"name"`
	Variant   string         `json:"variant"`
	Clock     string         `json:"clock"`
	Minutes   int            `json:"minutes"`
	Rated     bool           `json:"rated"`
	Status    string         `json:"status"`
	StartsAt  string         `json:"startsAt"`
	EndsAt    string         `json:"endsAt"`
	Players   int            `json:"players"`
	Standings []StandingJSON `json:"standings,omitempty"`
	// A Swiss event's: its rounds, the round paired last (0 before the
	// first) and the interval between rounds in seconds; 0 for an arena.
	Rounds   int `json:"rounds"`
	Round    int `json:"round"`
	Interval int `json:"interval"`
}

// StandingJSON is a row of a tournament's standings.
type StandingJSON struct {
	Rank        int     `json:"rank"`
	Name        string  `json:"name"`
	Rating      int     `json:"rating"`
	Score       int     `json:"score"`
	Performance int     `json:"performance"`
	Sheet       []int   `json:"sheet"`
	Berserk     []bool  `json:"berserk"` // by game of the sheet
	Fire        bool    `json:"fire"`
	Withdrawn   bool    `json:"withdrawn"`
	Game        *string `json:"game"` // playing now; null for none
	// A Swiss event's score and tiebreaks in points (score and sheet are
	// then in half-points: 1 a draw, 2 a win or the bye).
	Buchholz        *float64 `json:"buchholz,omitempty"`
	SonnebornBerger *float64 `json:"sonnebornBerger,omitempty"`
	Points          *float64 `json:"points,omitempty"`
}

func tournamentJSONOf(t *tournament.Tournament, standings bool) Tournament {
	j := Tournament{ID: t.ID, Kind: string(t.Kind), Name: t.Name, Variant: t.Variant, Clock: t.Clock.String(), Minutes: t.Minutes,
		Rated: t.Rated, Status: string(t.Status), StartsAt: t.Starts.UTC().Format(time.RFC3339), EndsAt: t.Ends().UTC().Format(time.RFC3339),
		Players: len(t.Players), Rounds: t.Rounds, Round: t.Round, Interval: t.Interval}
	if !standings {
		return j
	}
	j.Standings = []StandingJSON{}
	for _, r := range tournament.Standings(t) {
		row := StandingJSON{Rank: r.Rank, Name: r.Name, Rating: r.Rating, Score: r.Score, Performance: r.Performance,
			Sheet: []int{}, Berserk: []bool{}, Fire: r.Fire, Withdrawn: r.Paused}
		for _, m := range r.Sheet {
			row.Sheet, row.Berserk = append(row.Sheet, m.Points), append(row.Berserk, m.Berserk)
		}
		if r.Game != "" {
			g := r.Game
			row.Game = &g
		}
		if t.Kind == tournament.Swiss {
			pts, bh, sb := float64(r.Score)/2, float64(r.Buchholz)/2, float64(r.SonnebornBerger)/4
			row.Points, row.Buchholz, row.SonnebornBerger = &pts, &bh, &sb
		}
		j.Standings = append(j.Standings, row)
	}
	return j
}

// list answers the tournaments now, to come and finished.
func (a *tournamentsAPI) list(c echo.Context) error {
	l, err := a.s.tournaments.List(c.Request().Context())
	if err != nil {
		return err
	}
	out := map[string][]Tournament{"started": {}, "created": {}, "finished": {}}
	for key, ts := range map[string][]*tournament.Tournament{"started": l.Now, "created": l.Upcoming, "finished": l.Finished} {
		for _, t := range ts {
			out[key] = append(out[key], tournamentJSONOf(t, false))
		}
	}
	return c.JSON(http.StatusOK, out)
}

// get answers a tournament with its standings.
func (a *tournamentsAPI) get(c echo.Context) error {
	t, err := a.s.tournaments.Tournament(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, tournamentJSONOf(t, true))
}

// create creates a tournament by the bearer's player.
func (a *tournamentsAPI) create(c echo.Context) error {
	var req tournamentRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	st := tournament.Settings{Kind: tournament.Kind(req.Kind.val), Name: req.Name.val, Variant: req.Variant.val, Clock: req.Clock.val, Rated: bool(req.Rated.val)}
	if req.Minutes.ok {
		n, err := strconv.Atoi(string(req.Minutes.val))
		if err != nil {
			return errs.Errorf(errs.Invalid, "%q is not a number of minutes.", kit.TrimText(string(req.Minutes.val))).WithDetail(errs.BadDuration)
		}
		st.Minutes = n
	}
	for _, x := range []struct {
		f      field[numeral]
		to     *int
		what   string
		detail errs.Detail
	}{{req.Rounds, &st.Rounds, "rounds", errs.BadRounds}, {req.Interval, &st.Interval, "seconds", errs.BadInterval}} {
		if !x.f.ok {
			continue
		}
		n, err := strconv.Atoi(string(x.f.val))
		if err != nil {
			return errs.Errorf(errs.Invalid, "%q is not a number of %s.", kit.TrimText(string(x.f.val)), x.what).WithDetail(x.detail)
		}
		*x.to = n
	}
	if req.Starts.ok {
		at, err := time.Parse(time.RFC3339, req.Starts.val)
		if err != nil {
			return errs.Errorf(errs.Invalid, "%q is not an RFC 3339 time, such as 2026-12-24T18:00:00Z.", kit.TrimText(req.Starts.val)).WithDetail(errs.BadStart)
		}
		st.Starts = at
	}
	t, err := a.s.tournaments.Create(c.Request().Context(), kit.Bearer(c), st)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Location", "/api/tournaments/"+t.ID)
	return c.JSON(http.StatusCreated, tournamentJSONOf(t, true))
}

// join enters the bearer's player in a tournament.
func (a *tournamentsAPI) join(c echo.Context) error {
	return a.act(c, a.s.tournaments.Join)
}

// withdraw pauses the bearer's player in a tournament.
func (a *tournamentsAPI) withdraw(c echo.Context) error {
	return a.act(c, a.s.tournaments.Withdraw)
}

func (a *tournamentsAPI) act(c echo.Context, do func(ctx context.Context, id string, cred players.Credential) error) error {
	if err := readJSON(c, &emptyRequest{}); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := do(ctx, c.Param("id"), kit.Bearer(c)); err != nil {
		return err
	}
	t, err := a.s.tournaments.Tournament(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, tournamentJSONOf(t, true))
}

// berserk halves the bearer's time at a tournament's game before their
// first action.
func (a *tournamentsAPI) berserk(c echo.Context) error {
	if err := readJSON(c, &emptyRequest{}); err != nil {
		return err
	}
	if err := a.s.tournaments.Berserk(c.Request().Context(), c.Param("id"), kit.Bearer(c)); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"ok": true})
}

// eventsEvery is how often a tournament's stream reads it again when no
// change woke it (Changed): a change on another server without notices
// (SQLite's servers share no notices; PostgreSQL's NOTIFY wakes them).
const eventsEvery = 5 * time.Second

// events streams a tournament: "standings" (the tournament with its
// standings) at once and whenever it changes; with a bearer token,
// "paired" ({"game","tournament"}) for each game the token's player is
// paired into from the stream's start; "end" (the tournament) once it
// finished, and the stream ends.
func (a *tournamentsAPI) events(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("id")
	t, err := a.s.tournaments.Tournament(ctx, id)
	if err != nil {
		return err
	}
	me, err := a.s.players.Identify(ctx, kit.Bearer(c))
	if err != nil {
		return err
	}
	rev := int64(-1)
	told := map[string]bool{}
	if pr := t.Playing(me.ID); pr != nil && me.ID != "" {
		told[pr.Game] = true // paired before the stream began
	}
	changed := func() <-chan struct{} { return a.s.tournaments.Changed(id) }
	return a.s.streams.Polled(c, eventsEvery, changed, func(ctx context.Context) ([]stream.Event, bool) {
		t, err := a.s.tournaments.Tournament(ctx, id)
		if err != nil || t.Revision == rev {
			return nil, false
		}
		rev = t.Revision
		var evs []stream.Event
		if pr := t.Playing(me.ID); pr != nil && me.ID != "" && !told[pr.Game] {
			told[pr.Game] = true
			data, _ := json.Marshal(map[string]string{"game": pr.Game, "tournament": t.ID})
			evs = append(evs, stream.Event{Name: "paired", Data: data})
		}
		data := a.encode(t)
		if t.Status == tournament.Finished {
			return append(evs, stream.Event{Name: "end", Data: data}), true
		}
		return append(evs, stream.Event{Name: "standings", Data: data}), false
	})
}
