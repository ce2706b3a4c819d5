package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/store"
)

// downStore is a store whose database stops answering when down is set,
// as PostgreSQL's stores say so (errs.ErrUnavailable).
type downStore struct {
	testsite.Store
	down atomic.Bool
}

func (s *downStore) failure() error {
	if s.down.Load() {
		return fmt.Errorf("%w: dial tcp 127.0.0.1:5432: connect: connection refused", errs.ErrUnavailable)
	}
	return nil
}

func (s *downStore) Create(ctx context.Context, rec *games.Record) error {
	if err := s.failure(); err != nil {
		return err
	}
	return s.Store.Create(ctx, rec)
}

func (s *downStore) View(ctx context.Context, id string, fn func(*games.Record) error) error {
	if err := s.failure(); err != nil {
		return err
	}
	return s.Store.View(ctx, id, fn)
}

func (s *downStore) Update(ctx context.Context, id string, fn func(*games.Record) error) error {
	if err := s.failure(); err != nil {
		return err
	}
	return s.Store.Update(ctx, id, fn)
}

func (s *downStore) List(ctx context.Context, holder string, limit int) ([]games.Summary, error) {
	if err := s.failure(); err != nil {
		return nil, err
	}
	return s.Store.List(ctx, holder, limit)
}

// TestStoreDownIsUnavailable: while the database does not answer, every
// request that needs it is answered 503 store_down with Retry-After — on
// the API and the pages — not 500 internal (the probe's PostgreSQL outage),
// and a game's page does not call the game unreadable.
func TestStoreDownIsUnavailable(t *testing.T) {
	st := &downStore{Store: store.NewMemory()}
	e := echo.New()
	New(newService(st), apiClock).Register(e)
	a := newAPIT(t, e)
	g := a.create(`{}`)
	st.down.Store(true)
	for _, r := range []struct {
		method, path, body string
	}{
		{http.MethodGet, "/api/games/" + g.ID, ""},
		{http.MethodPost, "/api/games/" + g.ID + "/actions", `{"action":"b:e2e4"}`},
		{http.MethodPost, "/api/games", `{}`},
		{http.MethodGet, "/g/" + g.ID, ""},
		{http.MethodPost, "/g/" + g.ID + "/ply", ""},
	} {
		res := a.do(r.method, r.path, r.body)
		if res.code != http.StatusServiceUnavailable || res.hdr.Get("Retry-After") != "5" {
			t.Errorf("%s %s with the store down: %d (Retry-After %q) %.200s", r.method, r.path, res.code, res.hdr.Get("Retry-After"), res.body)
		}
		if r.method == http.MethodGet && r.path == "/api/games/"+g.ID && !contains(res.body, `"code":"store_down"`) {
			t.Errorf("the API's code: %s", res.body)
		}
		if contains(res.body, "could not be read") {
			t.Errorf("%s %s: the game is called unreadable", r.method, r.path)
		}
	}
	st.down.Store(false)
	a.game(a.do(http.MethodGet, "/api/games/"+g.ID, ""), http.StatusOK)
}

func contains(b []byte, s string) bool { return bytes.Contains(b, []byte(s)) }

// TestConflictCarriesTheGame: an action sent for a ply the game has left
// is answered 409 conflict with the game as it stands — as the message
// says, "here is the current position" — in the fields asked for.
func TestConflictCarriesTheGame(t *testing.T) {
	a := newAPI(t)
	g := a.create(`{}`)
	a.play(g.ID, "b:e2e4")
	for _, tc := range []struct {
		query  string
		fields int
	}{{"", len(gameFields)}, {"?fields=ply,fen", 2}} {
		r := a.do(http.MethodPost, "/api/games/"+g.ID+"/actions"+tc.query, `{"action":"b:d2d4","ply":1}`)
		var body struct {
			Code string         `json:"code"`
			Game map[string]any `json:"game"`
		}
		if err := json.Unmarshal(r.body, &body); err != nil || r.code != http.StatusConflict || body.Code != "conflict" {
			t.Fatalf("a stale ply: %d %s (%v)", r.code, r.body, err)
		}
		if ply, _ := body.Game["ply"].(float64); ply != 2 || len(body.Game) != tc.fields {
			t.Errorf("the stale ply's answer%s carries %v, want the game at ply 2 with %d members", tc.query, body.Game, tc.fields)
		}
	}
	// Other refusals carry no game.
	if r := a.do(http.MethodPost, "/api/games/"+g.ID+"/actions", `{"action":"zz"}`); contains(r.body, `"game"`) {
		t.Errorf("a bad action's answer carries a game: %s", r.body)
	}
}

// TestReadBudget: reads of games not in memory (each replayed from its
// row, about 7 µs a ply) are charged to their client, in plies; a client
// over its budget is refused (429 too_many_reads, Retry-After) while
// another reads on, and reads of games in memory cost nothing.
func TestReadBudget(t *testing.T) {
	st, err := store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"), store.Options{CacheSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := newService(st)
	e := echo.New()
	New(svc, apiClock, WithLimits(kit.Limits{ReadPliesPerSecond: 1, ReadPlyBurst: 500})).Register(e)
	a := newAPIT(t, e)
	var ids []string
	for range 3 {
		id, err := svc.Games.Create(context.Background(), issue(t, svc), longGame(t, 300))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	reader, other := from{a, "198.51.100.1"}, from{a, "198.51.100.2"}
	// The cache holds the last game created; the other two are replayed.
	for i, want := range []int{http.StatusOK, http.StatusOK, http.StatusTooManyRequests} {
		r := reader.get("/api/games/" + ids[i])
		if r.code != want {
			t.Fatalf("read %d: %d, want %d: %.200s", i+1, r.code, want, r.body)
		}
		if want == http.StatusTooManyRequests && (!contains(r.body, `"too_many_reads"`) || r.hdr.Get("Retry-After") == "") {
			t.Errorf("over the budget: %s (Retry-After %q)", r.body, r.hdr.Get("Retry-After"))
		}
	}
	if r := other.get("/api/games/" + ids[0]); r.code != http.StatusOK {
		t.Errorf("another address's read: %d", r.code)
	}
}

// failingViews is a store whose reads of games fail with err.
type failingViews struct {
	testsite.Store
	err atomic.Pointer[error]
}

func (s *failingViews) View(ctx context.Context, id string, fn func(*games.Record) error) error {
	if err := s.err.Load(); err != nil {
		return *err
	}
	return s.Store.View(ctx, id, fn)
}

// TestOnlyUndecodableIsUnreadable: a read of a game the store was too
// busy for (a lock or statement timeout, no connection free, a save
// waited behind that failed: errs.ErrBusy) is 503 busy with Retry-After,
// and a failure of the store's that says nothing of the record is 500
// internal; only a record that cannot be decoded (errs.ErrUnreadable) is
// "unreadable" (issue 45, item 16: a slow save made its game's readers
// "unreadable").
func TestOnlyUndecodableIsUnreadable(t *testing.T) {
	st := &failingViews{Store: store.NewMemory()}
	e := echo.New()
	New(newService(st), apiClock).Register(e)
	a := newAPIT(t, e)
	g := a.create(`{}`)
	for _, c := range []struct {
		err    error
		status int
		code   string
	}{
		{fmt.Errorf("game x: %w: canceling statement due to lock timeout (SQLSTATE 55P03)", errs.ErrBusy), http.StatusServiceUnavailable, "busy"},
		{fmt.Errorf("game x: %w: the game's last change could not be saved", errs.ErrBusy), http.StatusServiceUnavailable, "busy"},
		{errors.New("game x: something the store did not expect"), http.StatusInternalServerError, "internal"},
		{fmt.Errorf("game x: %w: decoding the game: unknown declared outcome", errs.ErrUnreadable), http.StatusInternalServerError, "unreadable"},
	} {
		st.err.Store(&c.err)
		res := a.do(http.MethodGet, "/api/games/"+g.ID, "")
		if res.code != c.status || !contains(res.body, `"code":"`+c.code+`"`) || c.status == http.StatusServiceUnavailable && res.hdr.Get("Retry-After") == "" {
			t.Errorf("a read failing with %q: %d (Retry-After %q) %s; want %d %s", c.err, res.code, res.hdr.Get("Retry-After"), res.body, c.status, c.code)
		}
		page := a.do(http.MethodGet, "/g/"+g.ID, "")
		if page.code != c.status || c.code != "unreadable" && contains(page.body, "could not be read") {
			t.Errorf("the page of a game failing with %q: %d, or called unreadable", c.err, page.code)
		}
	}
}
