package tournament_test

import (
	"testing"

	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/tournament"
)

// closed reports whether ch is closed.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// TestChangedWakes: a tournament's Changed channel closes at its change
// on this server and at a notice of it from another, not at another
// tournament's; the notice "" (notices missed) closes every one.
func TestChangedWakes(t *testing.T) {
	a := newArena(t, store.NewMemory())
	a.named("Ann")
	svc, ctx, cred := a.svc, a.ctx, a.creds["Ann"]
	tr, err := svc.Create(ctx, cred, tournament.Settings{Name: "Woken", Clock: "3+2", Minutes: 30})
	a.must(err)
	ch := svc.Changed(tr.ID)
	if closed(ch) {
		t.Fatal("closed before any change")
	}
	if err := svc.Join(ctx, tr.ID, cred); err != nil {
		t.Fatal(err)
	}
	if !closed(ch) {
		t.Error("a join here did not wake")
	}
	ch, other := svc.Changed(tr.ID), svc.Changed("other")
	svc.Notice(tournament.NoticeTournament("other"))
	if closed(ch) || !closed(other) {
		t.Errorf("another's notice: this one closed %v, the other %v", closed(ch), closed(other))
	}
	svc.Notice("lobby")
	if closed(ch) {
		t.Error("the lobby's notice woke a tournament")
	}
	svc.Notice(tournament.NoticeTournament(tr.ID))
	if !closed(ch) {
		t.Error("its notice did not wake")
	}
	x, y := svc.Changed(tr.ID), svc.Changed("other")
	svc.Notice("")
	if !closed(x) || !closed(y) {
		t.Error("notices missed did not wake every one")
	}
}
