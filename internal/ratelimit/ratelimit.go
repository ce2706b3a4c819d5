// Package ratelimit keeps a token bucket per key (a client's address, say):
// a steady rate of tokens with room for a burst, spent by requests of any
// cost.
package ratelimit

import (
	"math"
	"sync"
	"time"
)

// Limiter is a token bucket per key. A bucket left alone long enough to
// fill up again is the same as a new one, so it is dropped: memory follows
// the number of keys seen in that time. A nil *Limiter limits nothing.
type Limiter struct {
	rate  float64       // tokens added a second
	burst float64       // tokens a bucket holds at most
	idle  time.Duration // time to fill an empty bucket
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	last   time.Time // when tokens was counted
}

// maxIdle caps the time a bucket is kept, for very slow rates.
const maxIdle = 24 * time.Hour

// New returns a limiter of perSecond tokens a second with room for burst
// (zero or less: twice the rate, at least one), or nil when perSecond is
// not a positive finite number. now gives the time (nil: time.Now).
func New(perSecond, burst float64, now func() time.Time) *Limiter {
	if !(perSecond > 0) || math.IsInf(perSecond, 1) {
		return nil
	}
	if now == nil {
		now = time.Now
	}
	if !(burst > 0) {
		burst = max(1, math.Ceil(2*perSecond))
	}
	idle := maxIdle
	if secs := burst / perSecond; secs < maxIdle.Seconds() {
		idle = time.Duration(secs * float64(time.Second))
	}
	return &Limiter{rate: perSecond, burst: burst, idle: idle, now: now, buckets: map[string]bucket{}, swept: now()}
}

// Take spends cost tokens from key's bucket and returns 0, or, when the
// bucket holds fewer, spends nothing and returns how long until it holds
// cost (at most a day; a cost above the burst is never affordable, and
// waits a day). Take(key, 0) waits out a debt (see Charge).
func (l *Limiter) Take(key string, cost float64) time.Duration {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucket(key)
	var wait time.Duration
	if b.tokens >= cost {
		b.tokens -= cost
	} else if cost > l.burst {
		wait = maxIdle
	} else {
		wait = min(maxIdle, max(1, time.Duration((cost-b.tokens)/l.rate*float64(time.Second))))
	}
	l.buckets[key] = b
	return wait
}

// Charge spends cost tokens from key's bucket whatever it holds: a cost
// known only afterwards. The bucket may go into debt, down to minus its
// room, which Take(key, 0) then waits out.
func (l *Limiter) Charge(key string, cost float64) {
	if l == nil || !(cost > 0) {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucket(key)
	b.tokens = max(-l.burst, b.tokens-cost)
	l.buckets[key] = b
}

// Refund gives key's bucket back tokens it took and did not use (up to
// its room).
func (l *Limiter) Refund(key string, tokens float64) {
	if l == nil || !(tokens > 0) {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucket(key)
	b.tokens = min(l.burst, b.tokens+tokens)
	l.buckets[key] = b
}

// bucket returns key's bucket filled up to now; l.mu is held.
func (l *Limiter) bucket(key string) bucket {
	now := l.now()
	if now.Sub(l.swept) >= l.idle {
		l.sweep(now)
	}
	b, ok := l.buckets[key]
	switch {
	case !ok:
		b = bucket{tokens: l.burst, last: now}
	case now.After(b.last):
		b.tokens = min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
		b.last = now
	}
	return b
}

// sweep drops the buckets that have filled up again (a bucket in debt
// takes longer: it is kept until then).
func (l *Limiter) sweep(now time.Time) {
	for k, b := range l.buckets {
		if now.Sub(b.last).Seconds()*l.rate >= l.burst-b.tokens {
			delete(l.buckets, k)
		}
	}
	l.swept = now
}

// Len counts the buckets kept.
func (l *Limiter) Len() int {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

// Window allows each key at most n events in any span of per: a sliding
// window, exact where a token bucket lets through up to twice its room in
// a span as long as it takes to fill. It keeps each key's last n events'
// times, and drops a key once its events are all older than per. A nil
// *Window limits nothing.
type Window struct {
	n   int
	per time.Duration
	now func() time.Time

	mu     sync.Mutex
	events map[string][]time.Time // each key's latest events, oldest first
	swept  time.Time
}

// NewWindow returns a limiter of n events in any span of per, or nil when
// n or per is not positive. now gives the time (nil: time.Now).
func NewWindow(n int, per time.Duration, now func() time.Time) *Window {
	if n <= 0 || per <= 0 {
		return nil
	}
	if now == nil {
		now = time.Now
	}
	return &Window{n: n, per: per, now: now, events: map[string][]time.Time{}, swept: now()}
}

// Take counts an event of key now and returns 0, or, when key has had n
// events in the last span, counts nothing and returns how long until it
// may have another.
func (w *Window) Take(key string) time.Duration {
	if w == nil {
		return 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	if now.Sub(w.swept) >= w.per {
		for k, ev := range w.events {
			if now.Sub(ev[len(ev)-1]) >= w.per {
				delete(w.events, k)
			}
		}
		w.swept = now
	}
	ev := w.events[key]
	if len(ev) >= w.n {
		if wait := ev[len(ev)-w.n].Add(w.per).Sub(now); wait > 0 {
			return wait
		}
		ev = append(ev[:0], ev[len(ev)-w.n+1:]...)
	}
	w.events[key] = append(ev, now)
	return 0
}

// Untake forgets key's latest event: one counted that did not happen.
func (w *Window) Untake(key string) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	ev := w.events[key]
	switch len(ev) {
	case 0:
	case 1:
		delete(w.events, key)
	default:
		w.events[key] = ev[:len(ev)-1]
	}
}

// Keys counts the keys kept.
func (w *Window) Keys() int {
	if w == nil {
		return 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.events)
}
