package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/store"
)

// tripStore counts the trips made to the games it keeps: updates and
// reads.
type tripStore struct {
	testsite.Store
	updates, views atomic.Int64
}

func (s *tripStore) Update(ctx context.Context, id string, fn func(*games.Record) error) error {
	s.updates.Add(1)
	return s.Store.Update(ctx, id, fn)
}

func (s *tripStore) View(ctx context.Context, id string, fn func(*games.Record) error) error {
	s.views.Add(1)
	return s.Store.View(ctx, id, fn)
}

// trips returns the updates and reads made since the last call.
func (s *tripStore) trips() (updates, views int64) {
	return s.updates.Swap(0), s.views.Swap(0)
}

// TestOneTripPerPly: an htmx ply, undo, resignation or draw is one update of
// its game, its answer (a delta or the fragment) built from the record it
// committed; no read of the game follows. (Before, an htmx ply was an
// update and then a read, which could itself write.) A plain form's ply
// is one update too, and its redirect's page one read.
func TestOneTripPerPly(t *testing.T) {
	st := &tripStore{Store: store.NewMemory()}
	c := newClientOn(t, newServerOn(st))
	c.start()
	st.trips()
	plies := []url.Values{
		vals("from", "e2", "to", "e4", "ply", "1"),
		vals("from", "d2", "to", "d4", "ply", "2"),
		vals("text", "b:e7e5", "ply", "3"),
		vals("text", "d5", "ply", "4"),
	}
	for i, form := range plies {
		d := c.hxPost(c.path("ply"), form)
		if u, v := st.trips(); u != 1 || v != 0 {
			t.Errorf("htmx ply %d: %d updates and %d reads, want 1 and 0", i+1, u, v)
		}
		if want := "Ply " + form.Get("ply"); strings.Contains(text(d, "#status"), want) {
			t.Errorf("htmx ply %d: the answer still shows %q: %q", i+1, want, text(d, "#status"))
		}
	}
	rec := c.do("POST", c.path("ply"), vals("from", "g1", "to", "f3", "ply", "5"), false)
	if u, v := st.trips(); rec.Code != 303 || u != 1 || v != 0 {
		t.Errorf("plain ply: %d, %d updates and %d reads, want 303, 1 and 0", rec.Code, u, v)
	}
	c.get(c.page())
	st.trips()
	d := c.hxPost(c.path("undo"), vals("ply", "6"))
	if u, v := st.trips(); u != 1 || v != 0 {
		t.Errorf("htmx undo: %d updates and %d reads, want 1 and 0", u, v)
	}
	if got := text(d, "#announce"); !strings.Contains(got, "Took back") {
		t.Errorf("the undo's answer announces %q", got)
	}
	c.hxPost(c.path("ply"), vals("from", "g1", "to", "f3", "ply", "5"))
	st.trips()
	d = c.hxPost(c.path("resign"), vals("side", "white", "ply", "6"))
	if u, v := st.trips(); u != 1 || v != 0 {
		t.Errorf("htmx resignation: %d updates and %d reads, want 1 and 0", u, v)
	}
	if !strings.Contains(text(d, "#announce"), "resign") {
		t.Errorf("the resignation's answer announces %q", text(d, "#announce"))
	}
}

// TestStreamsReadNoStore: a game's page streams learn each change's
// revision from the feed, which the change's commit told: twenty plies
// watched by three page streams make twenty updates and not one read of
// the game (before, every stream read it at every change to learn the
// revision: sixty reads).
func TestStreamsReadNoStore(t *testing.T) {
	st := &tripStore{Store: store.NewMemory()}
	l := newLiveServerOn(t, st)
	var created api.Created
	l.post("", "/api/games", `{}`, http.StatusCreated, &created)
	var streams []*sseStream
	for range 3 {
		s, _ := l.openStream("/g/"+created.ID+"/events", "", "")
		if ev := s.next(); ev.name != "change" || ev.id != "1" {
			t.Fatalf("first event %+v, want change 1", ev)
		}
		streams = append(streams, s)
	}
	st.trips()
	plies := longGame(t, 21).Record().History()
	for n, info := range plies {
		l.post(created.Token, "/api/games/"+created.ID+"/actions", `{"action":"`+info.Action.String()+`"}`, http.StatusOK, nil)
		rev := strconv.Itoa(n + 2)
		for _, s := range streams {
			for ev := s.next(); ev.name != "change" || ev.id != rev; ev = s.next() {
				if ev.name != "presence" {
					t.Fatalf("after ply %d: event %+v, want change %s", n+1, ev, rev)
				}
			}
		}
	}
	if u, v := st.trips(); u != int64(len(plies)) || v != 0 {
		t.Errorf("%d plies watched by 3 page streams: %d updates and %d reads, want %d and 0", len(plies), u, v, len(plies))
	}
}
