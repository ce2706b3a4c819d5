package engine

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/banchess/banchess/rules"
)

// ErrBusy is returned when every worker is searching and the queue is full.
var ErrBusy = errors.New("engine: busy: every worker is searching and the queue is full")

// Pool runs searches on a fixed number of workers, each with its own
// transposition table, so that searches cannot take more of the machine
// than the workers. Analyses beyond the workers wait in a short queue;
// beyond that they are refused with ErrBusy. The computer's plies (Play)
// are never refused and take the next free worker before any analysis:
// a game against the computer goes on however many people analyse.
type Pool struct {
	mu    sync.Mutex
	idle  []*Searcher      // workers free now
	plays []chan *Searcher // Play calls waiting for a worker, oldest first
	queue []chan *Searcher // Analyse calls waiting, oldest first
	room  int              // how many Analyse calls may wait
}

// NewPool returns a pool of workers (at least 1) with queue places for
// analyses, each worker with a table of ttMB MiB.
func NewPool(workers, queue, ttMB int) *Pool {
	p := &Pool{room: max(queue, 0)}
	for range max(workers, 1) {
		p.idle = append(p.idle, NewSearcher(ttMB))
	}
	return p
}

// Analyse searches g's current moment within lim on a free worker,
// waiting for one in the queue (ErrBusy when it is full); ctx ends the
// wait and the search at once.
func (p *Pool) Analyse(ctx context.Context, g *rules.Game, lim Limits) (Result, error) {
	return p.search(ctx, g, lim, false)
}

// Play is Analyse for the computer's ply in a game: it waits for the next
// free worker ahead of every analysis, and is never refused.
func (p *Pool) Play(ctx context.Context, g *rules.Game, lim Limits) (Result, error) {
	return p.search(ctx, g, lim, true)
}

func (p *Pool) search(ctx context.Context, g *rules.Game, lim Limits, play bool) (Result, error) {
	st, err := FromGame(g)
	if err != nil {
		return Result{}, err
	}
	s, err := p.acquire(ctx, play)
	if err != nil {
		return Result{}, err
	}
	defer p.release(s)
	return s.Search(ctx, st, lim)
}

// acquire takes a free worker, or waits for one in its line.
func (p *Pool) acquire(ctx context.Context, play bool) (*Searcher, error) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		s := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return s, nil
	}
	line := &p.queue
	if play {
		line = &p.plays
	} else if len(p.queue) >= p.room {
		p.mu.Unlock()
		return nil, ErrBusy
	}
	ch := make(chan *Searcher, 1) // release hands the worker over without blocking
	*line = append(*line, ch)
	p.mu.Unlock()
	select {
	case s := <-ch:
		return s, nil
	case <-ctx.Done():
		p.mu.Lock()
		i := slices.Index(*line, ch)
		if i >= 0 {
			*line = slices.Delete(*line, i, i+1)
		}
		p.mu.Unlock()
		if i < 0 { // handed a worker as it gave up: hand it on
			p.release(<-ch)
		}
		return nil, ctx.Err()
	}
}

// release hands worker s to the oldest play waiting, else to the oldest
// analysis, else keeps it free.
func (p *Pool) release(s *Searcher) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, line := range []*[]chan *Searcher{&p.plays, &p.queue} {
		if len(*line) > 0 {
			ch := (*line)[0]
			*line = (*line)[1:]
			ch <- s
			return
		}
	}
	p.idle = append(p.idle, s)
}
