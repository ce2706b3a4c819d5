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
		a, b := p.analyses, p.plays
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
	p := NewPool(1, 1, 1, WithYieldAfter(0)) // the analysis holds its worker
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
		_, err := p.Play(impatient, g, Limits{Time: time.Second}) // not quick: it waits for the worker
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

// runningFor reports which clients' searches run, plays and analyses.
func (p *Pool) runningFor() (plays, analyses []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for j := range p.running {
		if j.play {
			plays = append(plays, j.client)
		} else {
			analyses = append(analyses, j.client)
		}
	}
	return plays, analyses
}

// awaitRunning waits until the one search running is a play (or an
// analysis) of client.
func (p *Pool) awaitRunning(t *testing.T, play bool, client string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		plays, analyses := p.runningFor()
		got := analyses
		if play {
			got = plays
		}
		if len(got) == 1 && got[0] == client && len(plays)+len(analyses) == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("running: plays %q, analyses %q; want the %s of %q", plays, analyses, map[bool]string{true: "play", false: "analysis"}[play], client)
		}
	}
}

// held is a search that runs until its end is called.
type held struct {
	end  context.CancelFunc
	done chan error
}

// hold starts a search for client with no limit: a play or an analysis.
func hold(p *Pool, g *rules.Game, client string, play bool) *held {
	ctx, cancel := context.WithCancel(WithClient(context.Background(), client))
	h := &held{end: cancel, done: make(chan error, 1)}
	go func() {
		var err error
		if play {
			_, err = p.Play(ctx, g, Limits{})
		} else {
			_, err = p.Analyse(ctx, g, Limits{})
		}
		h.done <- err
	}()
	return h
}

// TestPoolPerClient: a client has one analysis at a time (another is
// refused, saying when to try again) while other clients queue as before;
// the server's own analyses (no client) are not bounded so.
func TestPoolPerClient(t *testing.T) {
	p := NewPool(1, 4, 1)
	g := rules.New(rules.BanChess{})
	a := hold(p, g, "a", false)
	p.awaitRunning(t, false, "a")
	actx := WithClient(context.Background(), "a")
	_, err := p.Analyse(actx, g, Limits{Depth: 1})
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Reason != ClientBusy || busy.Wait < time.Second || !errors.Is(err, ErrBusy) {
		t.Fatalf("a's second analysis: %v, want ClientBusy with a wait", err)
	}
	b := make(chan error, 1)
	go func() {
		_, err := p.Analyse(WithClient(context.Background(), "b"), g, Limits{Depth: 1})
		b <- err
	}()
	p.waitFor(t, 1, 0) // b waits its turn
	own := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := p.Analyse(context.Background(), g, Limits{Depth: 1})
			own <- err
		}()
	}
	p.waitFor(t, 3, 0)
	a.end()
	if err := <-a.done; !errors.Is(err, context.Canceled) {
		t.Fatalf("a's analysis: %v", err)
	}
	for _, ch := range []chan error{b, own, own} {
		if err := <-ch; err != nil {
			t.Errorf("a waiting analysis: %v", err)
		}
	}
	if _, err := p.Analyse(actx, g, Limits{Depth: 1}); err != nil {
		t.Errorf("a's analysis after its first ended: %v", err)
	}
}

// TestPoolClientRate: a client that has spent its share of the engine's
// time is refused until it has more; others are not.
func TestPoolClientRate(t *testing.T) {
	p := NewPool(1, 4, 1, WithClientRate(0.01, 400*time.Millisecond)) // 0.4 s at once, 0.6 s a minute
	g := rules.New(rules.BanChess{})
	actx := WithClient(context.Background(), "a")
	lim := Limits{Time: 350 * time.Millisecond} // searches at least half of it
	if _, err := p.Analyse(actx, g, lim); err != nil {
		t.Fatalf("a's first analysis: %v", err)
	}
	_, err := p.Analyse(actx, g, lim)
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Reason != ClientRate || busy.Wait < time.Second {
		t.Fatalf("a's second analysis, over its share: %v, want ClientRate with a wait", err)
	}
	if _, err := p.Analyse(WithClient(context.Background(), "b"), g, lim); err != nil {
		t.Errorf("b's analysis: %v", err)
	}
	// What an analysis does not use is given back: a short one leaves the
	// share for the next.
	cctx := WithClient(context.Background(), "c")
	for i := range 3 {
		if _, err := p.Analyse(cctx, g, Limits{Time: 300 * time.Millisecond, Depth: 1}); err != nil {
			t.Fatalf("c's analysis %d of depth 1: %v", i+1, err)
		}
	}
}

// TestPoolMaxWait: an analysis waits for a worker at most the pool's wait,
// then it is refused, saying when to try again.
func TestPoolMaxWait(t *testing.T) {
	p := NewPool(1, 4, 1, WithMaxWait(50*time.Millisecond))
	g := rules.New(rules.BanChess{})
	a := hold(p, g, "a", false)
	p.awaitRunning(t, false, "a")
	start := time.Now()
	_, err := p.Analyse(WithClient(context.Background(), "b"), g, Limits{Depth: 1})
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Reason != QueueFull || busy.Wait < time.Second {
		t.Fatalf("b's analysis behind a's: %v, want QueueFull with a wait", err)
	}
	if waited := time.Since(start); waited < 50*time.Millisecond || waited > 3*time.Second {
		t.Errorf("b waited %v, want about 50ms", waited)
	}
	p.waitFor(t, 0, 0) // b left the queue
	a.end()
	<-a.done
}

// TestPoolYield: the computer's ply waits for a long analysis only a
// moment — the analysis yields its worker with the result so far and
// ErrPreempted — and an analysis that starts while plies wait yields too.
func TestPoolYield(t *testing.T) {
	p := NewPool(1, 4, 1, WithYieldAfter(20*time.Millisecond))
	g := rules.New(rules.BanChess{})
	analysed := make(chan error, 1)
	var res Result
	go func() {
		var err error
		res, err = p.Analyse(WithClient(context.Background(), "a"), g, Limits{Time: time.Minute})
		analysed <- err
	}()
	p.awaitRunning(t, false, "a")
	time.Sleep(50 * time.Millisecond) // past the yield: it cuts at once
	start := time.Now()
	play := hold(p, g, "b", true)
	p.awaitRunning(t, true, "b")
	if waited := time.Since(start); waited > 2*time.Second {
		t.Errorf("the play waited %v behind a minute's analysis", waited)
	}
	if err := <-analysed; !errors.Is(err, ErrPreempted) || !errors.Is(err, ErrBusy) || res.Depth < 1 || res.Best == (rules.Action{}) {
		t.Fatalf("the analysis cut short: %+v, %v; want its result so far and ErrPreempted", res, err)
	}
	// More plies wait (b's and c's); an analysis gets its turn between
	// them, and yields after its 20 ms.
	more := []*held{hold(p, g, "b", true), hold(p, g, "c", true)}
	p.waitFor(t, 0, 2)
	go func() {
		var err error
		_, err = p.Analyse(WithClient(context.Background(), "d"), g, Limits{Time: time.Minute})
		analysed <- err
	}()
	p.waitFor(t, 1, 2)
	play.end()
	<-play.done
	// c and d have not been served: c came first.
	p.awaitRunning(t, true, "c")
	more[1].end()
	<-more[1].done
	p.awaitRunning(t, false, "d")
	if err := <-analysed; !errors.Is(err, ErrPreempted) {
		t.Fatalf("the analysis that started while a play waited: %v, want ErrPreempted", err)
	}
	p.awaitRunning(t, true, "b")
	more[0].end()
	<-more[0].done
}

// TestPoolFairPlays: one client's many plies make another's wait at most
// one search: the worker goes to the client served least recently.
func TestPoolFairPlays(t *testing.T) {
	p := NewPool(1, 4, 1)
	g := rules.New(rules.BanChess{})
	first := hold(p, g, "a", true)
	p.awaitRunning(t, true, "a")
	var as []*held
	for range 5 {
		as = append(as, hold(p, g, "a", true))
	}
	p.waitFor(t, 0, 5)
	b := hold(p, g, "b", true)
	p.waitFor(t, 0, 6)
	first.end()
	<-first.done
	p.awaitRunning(t, true, "b") // before a's five waiting longer
	b.end()
	<-b.done
	for _, h := range as {
		p.awaitRunning(t, true, "a")
		h.end()
		<-h.done
	}
	p.waitFor(t, 0, 0)
	if n := len(p.clients); n != 0 {
		t.Errorf("%d clients' lines left open", n)
	}
}

// TestPoolQuickPlies: a quick ply of the computer's (the lower levels')
// does not wait behind the long searches of others: it has a searcher of
// its own.
func TestPoolQuickPlies(t *testing.T) {
	for n := 1; n <= Levels; n++ {
		lim, _ := Level(n, 0)
		if Quick(lim) != (n <= 5) {
			t.Errorf("level %d (%+v): quick %v", n, lim, Quick(lim))
		}
	}
	p := NewPool(1, 4, 1)
	g := rules.New(rules.BanChess{})
	long := hold(p, g, "a", true)
	p.awaitRunning(t, true, "a")
	res, err := p.Play(WithClient(context.Background(), "b"), g, Limits{Depth: 1})
	if err != nil || res.Depth != 1 {
		t.Fatalf("a quick ply while a long one runs: %+v, %v", res, err)
	}
	p.awaitRunning(t, true, "a") // still running: the quick one did not wait for it
	long.end()
	<-long.done
}

// TestPoolAnalysesTakeTurns: a long analysis yields its worker to another
// client's analysis (not to the server's own), so a flood of 10-second
// analyses keeps no one waiting longer than the yield.
func TestPoolAnalysesTakeTurns(t *testing.T) {
	p := NewPool(1, 4, 1, WithYieldAfter(20*time.Millisecond))
	g := rules.New(rules.BanChess{})
	long := make(chan error, 1)
	go func() {
		_, err := p.Analyse(WithClient(context.Background(), "a"), g, Limits{Time: time.Minute})
		long <- err
	}()
	p.awaitRunning(t, false, "a")
	own := make(chan error, 1)
	go func() { // the server's own waits its turn, cutting nothing short
		_, err := p.Analyse(context.Background(), g, Limits{Depth: 1})
		own <- err
	}()
	p.waitFor(t, 1, 0)
	time.Sleep(60 * time.Millisecond)
	p.awaitRunning(t, false, "a")
	res, err := p.Analyse(WithClient(context.Background(), "b"), g, Limits{Depth: 2})
	if err != nil || res.Depth != 2 {
		t.Fatalf("b's analysis behind a's long one: %+v, %v", res, err)
	}
	if err := <-long; !errors.Is(err, ErrPreempted) {
		t.Errorf("a's long analysis: %v, want cut short", err)
	}
	if err := <-own; err != nil {
		t.Errorf("the server's own analysis: %v", err)
	}
}
