package engine

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/banchess/banchess/rules"
)

// TestPoolBounds checks that a pool of one worker and one queue place
// refuses a third search while two are under way, and that a cancelled
// request leaves at once.
func TestPoolBounds(t *testing.T) {
	p := NewPool(1, 1, 1)
	g := rules.New(rules.BanChess{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := p.Analyse(ctx, g, Limits{})
			done <- err
		}()
	}
	p.waitFor(t, 1, 0) // one searching, one waiting
	if _, err := p.Analyse(context.Background(), g, Limits{Depth: 1}); !errors.Is(err, ErrBusy) {
		t.Errorf("third search: %v, want ErrBusy", err)
	}
	cancel()
	for range 2 {
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled search: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a cancelled search did not return")
		}
	}
	if res, err := p.Analyse(context.Background(), g, Limits{Depth: 2}); err != nil || res.Depth != 2 {
		t.Errorf("after the others: %+v, %v", res, err)
	}
}

// waitFor waits until analyses and plays are waiting for a worker.
func (p *Pool) waitFor(t *testing.T, analyses, plays int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		p.mu.Lock()
		a, b := len(p.queue), len(p.plays)
		p.mu.Unlock()
		if a == analyses && b == plays {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting: %d analyses and %d plays, want %d and %d", a, b, analyses, plays)
		}
	}
}

// TestPoolPlayFirst checks that the computer's ply is never refused and
// takes the next free worker before the analyses waiting longer.
func TestPoolPlayFirst(t *testing.T) {
	p := NewPool(1, 1, 1)
	g := rules.New(rules.BanChess{})
	stop := occupy(t, p, g)
	analysed := make(chan error, 1)
	go func() {
		_, err := p.Analyse(context.Background(), g, Limits{Depth: 1})
		analysed <- err
	}()
	p.waitFor(t, 1, 0)
	if _, err := p.Analyse(context.Background(), g, Limits{Depth: 1}); !errors.Is(err, ErrBusy) {
		t.Errorf("an analysis beyond the queue: %v, want ErrBusy", err)
	}
	playing, endPlay := context.WithCancel(context.Background())
	played := make(chan error, 1)
	go func() { // holds the worker it is given until endPlay
		_, err := p.Play(playing, g, Limits{})
		played <- err
	}()
	p.waitFor(t, 1, 1) // the full queue does not refuse it
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("the stopped search: %v", err)
	}
	// The freed worker went to the play: the analysis is still waiting.
	p.waitFor(t, 1, 0)
	endPlay()
	if err := <-played; !errors.Is(err, context.Canceled) {
		t.Errorf("the play: %v", err)
	}
	if err := <-analysed; err != nil {
		t.Errorf("the waiting analysis: %v", err)
	}
}

// TestPoolGivesUpWaiting checks that a waiting search whose context ends
// leaves its line, and the worker goes to the next one.
func TestPoolGivesUpWaiting(t *testing.T) {
	p := NewPool(1, 2, 1)
	g := rules.New(rules.BanChess{})
	stop := occupy(t, p, g)
	impatient, leave := context.WithCancel(context.Background())
	gone := make(chan error, 1)
	go func() {
		_, err := p.Play(impatient, g, Limits{Depth: 1})
		gone <- err
	}()
	p.waitFor(t, 0, 1)
	leave()
	if err := <-gone; !errors.Is(err, context.Canceled) {
		t.Errorf("the play that gave up: %v", err)
	}
	p.waitFor(t, 0, 0)
	stop()
	if res, err := p.Analyse(context.Background(), g, Limits{Depth: 1}); err != nil || res.Depth != 1 {
		t.Errorf("after: %+v, %v", res, err)
	}
}

// occupy starts a search on p's one worker that lasts until stop, which
// returns the search's error.
func occupy(t *testing.T, p *Pool, g *rules.Game) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	held := make(chan error, 1)
	go func() {
		_, err := p.Analyse(ctx, g, Limits{})
		held <- err
	}()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		p.mu.Lock()
		idle := len(p.idle)
		p.mu.Unlock()
		if idle == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the search never took the worker")
		}
	}
	return func() error {
		cancel()
		return <-held
	}
}
