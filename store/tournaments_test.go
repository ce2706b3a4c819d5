package store

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/tournament"
)

// tournamentStores open two views of one store: two servers sharing
// PostgreSQL, or one store twice.
var tournamentStores = []struct {
	name string
	open func(t *testing.T) (a, b tournament.Store)
}{
	{"memory", func(*testing.T) (tournament.Store, tournament.Store) {
		m := NewMemory()
		return m.Tournaments(), m.Tournaments()
	}},
	{"sqlite", func(t *testing.T) (tournament.Store, tournament.Store) {
		s := openSQLite(t, ":memory:", Options{})
		return s.Tournaments(), s.Tournaments()
	}},
	{"postgres", func(t *testing.T) (tournament.Store, tournament.Store) {
		url := pg.Server(t).Schema(t)
		return openPostgres(t, PostgresOptions{}, url).Tournaments(), openPostgres(t, PostgresOptions{}, url).Tournaments()
	}},
}

// TestTournamentStores: a tournament is kept whole and read back as
// saved; an id is taken once; racing updates all land (each over the
// revision it read); lists by status in their order; a claim holds a
// tournament for its owner until it lapses, then another server takes
// it; the save that finishes a tournament records each player's place.
func TestTournamentStores(t *testing.T) {
	for _, st := range tournamentStores {
		t.Run(st.name, func(t *testing.T) {
			if st.name == "postgres" && testing.Short() {
				t.Skip("starts PostgreSQL")
			}
			a, b := st.open(t)
			ctx := context.Background()
			at := time.UnixMilli(1_800_000_000_000).UTC()
			tr := &tournament.Tournament{Kind: tournament.Arena, Name: "Arena", Variant: "banchess", Minutes: 30, Starts: at, Status: tournament.Created,
				Clock: games.TimeControl{Initial: 3 * time.Minute, Increment: 2 * time.Second}}
			if err := a.CreateTournament(ctx, tr); err != nil || tr.ID == "" {
				t.Fatalf("create: %q, %v", tr.ID, err)
			}
			dup := *tr
			if err := b.CreateTournament(ctx, &dup); !isCode(err, errs.Conflict) {
				t.Errorf("an id taken twice: %v", err)
			}
			later := &tournament.Tournament{ID: "later", Kind: tournament.Arena, Name: "Later", Minutes: 20, Starts: at.Add(time.Hour), Status: tournament.Created}
			if err := a.CreateTournament(ctx, later); err != nil {
				t.Fatal(err)
			}
			if _, err := b.Tournament(ctx, "nope"); !isCode(err, errs.NotFound) {
				t.Errorf("an unknown id: %v", err)
			}
			// Racing joins from two servers all land.
			var wg sync.WaitGroup
			for i := range 8 {
				s := a
				if i%2 == 1 {
					s = b
				}
				wg.Go(func() {
					err := s.UpdateTournament(ctx, tr.ID, func(t *tournament.Tournament) error {
						t.Players = append(t.Players, tournament.Player{ID: string(rune('a' + i)), Name: "P", Joined: at})
						return nil
					})
					if err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			got, err := b.Tournament(ctx, tr.ID)
			if err != nil || len(got.Players) != 8 || got.Revision != 9 || got.Name != "Arena" || !got.Starts.Equal(at) || got.Clock != tr.Clock {
				t.Fatalf("after the joins: %+v, %v", got, err)
			}
			if err := a.UpdateTournament(ctx, tr.ID, func(*tournament.Tournament) error { return errs.Errorf(errs.Invalid, "no") }); !isCode(err, errs.Invalid) {
				t.Errorf("fn's refusal: %v", err)
			}
			// Claims: due ones only, one owner at a time.
			ids, err := a.ClaimTournaments(ctx, "one", at, at.Add(10*time.Second))
			if err != nil || len(ids) != 1 || ids[0] != tr.ID {
				t.Fatalf("claim: %v, %v", ids, err)
			}
			if ids, _ := b.ClaimTournaments(ctx, "two", at.Add(5*time.Second), at.Add(15*time.Second)); len(ids) != 0 {
				t.Errorf("claimed while held: %v", ids)
			}
			if ids, _ := a.ClaimTournaments(ctx, "one", at.Add(5*time.Second), at.Add(15*time.Second)); len(ids) != 1 {
				t.Errorf("its owner's claim renewed: %v", ids)
			}
			if ids, _ := b.ClaimTournaments(ctx, "two", at.Add(16*time.Second), at.Add(26*time.Second)); len(ids) != 1 {
				t.Errorf("not taken over once lapsed: %v", ids)
			}
			// Lists.
			if l, err := a.Tournaments(ctx, tournament.Created, 10); err != nil || len(l) != 2 || l[0].ID != tr.ID || l[1].ID != "later" {
				t.Errorf("created: %v, %v", l, err)
			}
			// Finishing records places.
			err = b.UpdateTournament(ctx, tr.ID, func(t *tournament.Tournament) error {
				t.Status = tournament.Finished
				t.Pairings = append(t.Pairings, tournament.Pairing{Game: "g", White: "c", Black: "a", Done: true, Winner: rules.White, Moves: 20})
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if l, _ := a.Tournaments(ctx, tournament.Finished, 10); len(l) != 1 || len(l[0].Pairings) != 1 || l[0].Pairings[0].Winner != rules.White {
				t.Errorf("finished: %+v", l)
			}
			res, err := a.TournamentResults(ctx, "c", 5)
			if err != nil || len(res) != 1 || res[0].Rank != 1 || res[0].Score != 2 || res[0].Players != 8 || res[0].Name != "Arena" || res[0].Kind != tournament.Arena || !res[0].Scheduled {
				t.Errorf("c's results: %+v, %v", res, err)
			}
			if res, _ := a.TournamentResults(ctx, "a", 5); len(res) != 1 || res[0].Rank != 8 && res[0].Rank < 2 {
				t.Errorf("a's results: %+v", res)
			}
			if ids, _ := a.ClaimTournaments(ctx, "one", at.Add(time.Minute), at.Add(2*time.Minute)); len(ids) != 0 {
				t.Errorf("a finished tournament claimed: %v", ids)
			}
		})
	}
}

func isCode(err error, c errs.Code) bool {
	var e *errs.Error
	return errors.As(err, &e) && e.Code == c
}

// TestTournamentNotices: on PostgreSQL, making a tournament and each
// update of it tell every server sharing the database
// (tournament.NoticeTournament), heard by another store's listener.
func TestTournamentNotices(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL")
	}
	url := pg.Server(t).Schema(t)
	opts := PostgresOptions{ConnWait: 10 * time.Second}
	a, b := openPostgres(t, opts, url), openPostgres(t, opts, url)
	notices := make(chan string, 100)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go a.Listen(ctx, func(string, int64) {}, func(n string) { notices <- n })
	hear := func(want string) bool {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for {
			select {
			case n := <-notices:
				if n == want {
					return true
				}
			case <-timeout:
				return false
			}
		}
	}
	at := time.UnixMilli(1_800_000_000_000).UTC()
	// The listener listens once it hears a tournament made after it began.
	var id string
	for deadline := time.Now().Add(10 * time.Second); id == "" && time.Now().Before(deadline); {
		tr := &tournament.Tournament{Kind: tournament.Arena, Name: "Heard", Minutes: 30, Starts: at, Status: tournament.Created}
		if err := b.Tournaments().CreateTournament(ctx, tr); err != nil {
			t.Fatal(err)
		}
		select {
		case n := <-notices:
			if n == tournament.NoticeTournament(tr.ID) {
				id = tr.ID
			}
		case <-time.After(200 * time.Millisecond):
		}
	}
	if id == "" {
		t.Fatal("the listener never heard a tournament made")
	}
	if err := b.Tournaments().UpdateTournament(ctx, id, func(t *tournament.Tournament) error { t.Name = "Renamed"; return nil }); err != nil {
		t.Fatal(err)
	}
	if !hear(tournament.NoticeTournament(id)) {
		t.Errorf("no notice of the update of %s", id)
	}
}
