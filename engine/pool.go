package engine

import (
	"context"
	"errors"

	"github.com/banchess/banchess/rules"
)

// ErrBusy is returned when every worker is searching and the queue is full.
var ErrBusy = errors.New("engine: busy: every worker is searching and the queue is full")

// Pool runs searches on a fixed number of workers, each with its own
// transposition table, so that searches cannot take more of the machine
// than the workers. Requests beyond the workers wait in a short queue;
// beyond that they are refused with ErrBusy.
type Pool struct {
	admit   chan struct{}  // one token per worker and queue place
	workers chan *Searcher // idle workers
}

// NewPool returns a pool of workers (at least 1) with queue places, each
// worker with a table of ttMB MiB.
func NewPool(workers, queue, ttMB int) *Pool {
	workers = max(workers, 1)
	p := &Pool{admit: make(chan struct{}, workers+max(queue, 0)), workers: make(chan *Searcher, workers)}
	for range workers {
		p.workers <- NewSearcher(ttMB)
	}
	return p
}

// Analyse searches g's current moment within lim on a free worker,
// waiting for one in the queue; ctx ends the wait and the search at once.
func (p *Pool) Analyse(ctx context.Context, g *rules.Game, lim Limits) (Result, error) {
	st, err := FromGame(g)
	if err != nil {
		return Result{}, err
	}
	select {
	case p.admit <- struct{}{}:
	default:
		return Result{}, ErrBusy
	}
	defer func() { <-p.admit }()
	var s *Searcher
	select {
	case s = <-p.workers:
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
	defer func() { p.workers <- s }()
	return s.Search(ctx, st, lim)
}
