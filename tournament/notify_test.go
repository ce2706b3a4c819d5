package tournament_test

import (
	"testing"
	"time"

	"github.com/banchess/banchess/notify"
	"github.com/banchess/banchess/tournament"
)

// TestArenaStartingNotifies: the tick that starts a tournament tells
// its players once (tournament.WithStarted, wired as main does).
func TestArenaStartingNotifies(t *testing.T) {
	a := newArena(t, nil)
	a.named("Ann", "Bob")
	tr, err := a.svc.Create(a.ctx, a.creds["Ann"], tournament.Settings{Name: "Evening arena", Clock: "3+2", Minutes: 20, Starts: epoch.Add(time.Minute)})
	a.must(err)
	a.id = tr.ID
	for _, n := range []string{"Ann", "Bob"} {
		a.must(a.svc.Join(a.ctx, tr.ID, a.creds[n]))
	}
	told := func() int {
		in, err := a.site.Notify.Inbox(a.ctx, a.creds["Bob"])
		a.must(err)
		n := 0
		for _, x := range in.Notifications {
			if x.Kind == notify.TournamentStarting && x.Link == "/tournament/"+tr.ID {
				n++
			}
		}
		return n
	}
	a.tick()
	if n := told(); n != 0 {
		t.Fatalf("told %d times before the start", n)
	}
	a.clk.advance(time.Minute)
	a.tick()
	a.tick()
	if n := told(); n != 1 {
		t.Errorf("told %d times of the start, want once", n)
	}
}
