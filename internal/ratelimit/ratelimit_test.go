package ratelimit

import (
	"fmt"
	"math"
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time                       { return c.t }
func (c *clock) add(d time.Duration)                  { c.t = c.t.Add(d) }
func newClock() *clock                                { return &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }
func (c *clock) limiter(rate, burst float64) *Limiter { return New(rate, burst, c.now) }

func TestTake(t *testing.T) {
	clk := newClock()
	l := clk.limiter(2, 3) // 2 a second, 3 at once
	for i := range 3 {
		if wait := l.Take("a", 1); wait != 0 {
			t.Fatalf("take %d within the burst: wait %v", i+1, wait)
		}
	}
	if wait := l.Take("a", 1); wait != 500*time.Millisecond {
		t.Fatalf("over the burst: wait %v, want 500ms", wait)
	}
	if wait := l.Take("b", 1); wait != 0 {
		t.Fatalf("another key: wait %v", wait)
	}
	clk.add(250 * time.Millisecond)
	if wait := l.Take("a", 1); wait != 250*time.Millisecond {
		t.Fatalf("a refusal spent a token: wait %v, want 250ms", wait)
	}
	clk.add(250 * time.Millisecond)
	if wait := l.Take("a", 1); wait != 0 {
		t.Fatalf("after the wait: %v", wait)
	}

	// Memory stays bounded: buckets full again are dropped.
	for i := range 1000 {
		l.Take(fmt.Sprint("client", i), 1)
	}
	if n := l.Len(); n != 1002 {
		t.Fatalf("%d buckets, want 1002", n)
	}
	clk.add(l.idle)
	l.Take("a", 1)
	if n := l.Len(); n != 1 {
		t.Fatalf("%d buckets after they filled up, want 1", n)
	}

	if got := clk.limiter(10, 0); got.burst != 20 {
		t.Errorf("default burst %v, want twice the rate", got.burst)
	}
	for _, rate := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if l := clk.limiter(rate, 5); l != nil || l.Take("x", 1) != 0 || l.Len() != 0 {
			t.Errorf("rate %v limits", rate)
		}
		l.Refund("x", 1) // a nil limiter takes refunds too
	}
}

// TestCost spends tokens by cost (seconds of a search, say) and gives back
// what was not used.
func TestCost(t *testing.T) {
	clk := newClock()
	l := clk.limiter(0.5, 60) // 30 a minute, 60 at once
	if wait := l.Take("a", 50); wait != 0 {
		t.Fatalf("50 of 60: wait %v", wait)
	}
	if wait := l.Take("a", 20); wait != 20*time.Second {
		t.Fatalf("20 more with 10 left: wait %v, want 20s", wait)
	}
	l.Refund("a", 45) // used 5 of the 50
	if wait := l.Take("a", 55); wait != 0 {
		t.Fatalf("55 of the 55 left after the refund: wait %v", wait)
	}
	l.Refund("a", 1000)
	if wait := l.Take("a", 61); wait != maxIdle {
		t.Fatalf("over the burst after a large refund: wait %v, want %v", wait, maxIdle)
	}
	l.Refund("a", -5) // not a refund
	if wait := l.Take("a", 60); wait != 0 {
		t.Fatalf("a negative refund took tokens: wait %v", wait)
	}
}

// TestCharge spends a cost known afterwards: the bucket goes into debt
// (down to minus its room), which Take(key, 0) waits out.
func TestCharge(t *testing.T) {
	clk := newClock()
	l := clk.limiter(10, 100) // 10 a second, 100 at once
	if wait := l.Take("a", 0); wait != 0 {
		t.Fatalf("a new bucket: wait %v", wait)
	}
	l.Charge("a", 150)
	if wait := l.Take("a", 0); wait != 5*time.Second {
		t.Fatalf("50 in debt at 10 a second: wait %v, want 5s", wait)
	}
	l.Charge("a", 1000)
	if wait := l.Take("a", 0); wait != 10*time.Second {
		t.Fatalf("a debt is at most the room: wait %v, want 10s", wait)
	}
	clk.add(10 * time.Second)
	if wait := l.Take("a", 0); wait != 0 {
		t.Fatalf("after the debt: wait %v", wait)
	}
	l.Charge("b", 150)
	clk.add(l.idle) // a is full again, b, 50 in debt, only after 15 s
	l.Take("c", 1)
	if n := l.Len(); n != 2 {
		t.Errorf("after the sweep %d buckets, want b (in debt) and c", n)
	}
}

// TestWindow: n events in any span of per, exactly; a refusal says how
// long until the oldest counted leaves the span; Untake forgets the
// latest; idle keys are dropped; nil limits nothing.
func TestWindow(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	w := NewWindow(3, 5*time.Second, func() time.Time { return now })
	at := func(d time.Duration) { now = now.Add(d) }
	for i := range 3 {
		if wait := w.Take("a"); wait != 0 {
			t.Fatalf("event %d waits %v", i, wait)
		}
		at(time.Second)
	}
	if wait := w.Take("a"); wait != 2*time.Second { // the first left at 5 s; it is 3 s
		t.Errorf("a fourth in 5 s waits %v, want 2s", wait)
	}
	if wait := w.Take("b"); wait != 0 {
		t.Errorf("another key waits %v", wait)
	}
	at(2 * time.Second) // 5 s after the first
	if wait := w.Take("a"); wait != 0 {
		t.Errorf("at 5 s: waits %v", wait)
	}
	if wait := w.Take("a"); wait != time.Second {
		t.Errorf("then: waits %v, want 1s (the second event's span)", wait)
	}
	w.Untake("a")
	at(time.Second)
	if wait := w.Take("a"); wait != 0 {
		t.Errorf("after an untaken event: waits %v", wait)
	}
	at(time.Hour)
	w.Take("c")
	if n := w.Keys(); n != 1 {
		t.Errorf("%d keys kept after an hour, want 1", n)
	}
	var none *Window
	if none.Take("a") != 0 || NewWindow(0, time.Second, nil) != nil || NewWindow(1, 0, nil) != nil {
		t.Error("a nil window limits")
	}
	none.Untake("a")
}
