package store

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/training"
)

// Every store keeps training's progress and ratings.
var (
	_ training.Store = (*Memory)(nil)
	_ training.Store = (*SQLite)(nil)
	_ training.Store = (*Postgres)(nil)
)

// memoryTraining is the Memory store's training: learners, puzzles and
// attempts, under their own lock. Its zero value is empty.
type memoryTraining struct {
	mu       sync.Mutex
	learners map[string]training.Learner
	puzzles  map[string]training.PuzzleStats
	attempts map[[2]string]training.Attempt      // by player and puzzle
	firsts   map[[2]string]training.FirstAttempt // the rated attempts, by player and puzzle
	runs     map[string]training.Run             // Streak's and Storm's, by id
	bests    map[bestKey]int                     // best scores of runs
}

// Learner returns what is kept of player.
func (m *memoryTraining) Learner(ctx context.Context, player string) (training.Learner, error) {
	if err := ctx.Err(); err != nil {
		return training.Learner{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return copyLearner(m.learner(player)), nil
}

// learner returns player's record (a new one when none is kept).
func (m *memoryTraining) learner(player string) training.Learner {
	l, ok := m.learners[player]
	if !ok {
		l = training.Learner{Player: player}
	}
	return l
}

func copyLearner(l training.Learner) training.Learner {
	steps := make(map[string][]int, len(l.Steps))
	for k, v := range l.Steps {
		steps[k] = slices.Clone(v)
	}
	l.Steps = steps
	return l
}

// CompleteStep records that player has done step of lesson.
func (m *memoryTraining) CompleteStep(ctx context.Context, player, lesson string, step int, _ time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	l := copyLearner(m.learner(player))
	if i, found := slices.BinarySearch(l.Steps[lesson], step); !found {
		l.Steps[lesson] = slices.Insert(l.Steps[lesson], i, step)
	}
	m.put(l)
	return nil
}

func (m *memoryTraining) put(l training.Learner) {
	if m.learners == nil {
		m.learners = map[string]training.Learner{}
	}
	m.learners[l.Player] = l
}

// PuzzleStats returns what is kept of puzzle id.
func (m *memoryTraining) PuzzleStats(ctx context.Context, id string) (training.PuzzleStats, bool, error) {
	if err := ctx.Err(); err != nil {
		return training.PuzzleStats{}, false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.puzzles[id]
	return p, ok, nil
}

// Attempted lists the puzzles player has attempted.
func (m *memoryTraining) Attempted(ctx context.Context, player string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for k := range m.attempts {
		if k[0] == player {
			out = append(out, k[1])
		}
	}
	slices.Sort(out)
	return out, nil
}

// FirstAttempts lists player's rated attempts, by puzzle.
func (m *memoryTraining) FirstAttempts(ctx context.Context, player string) ([]training.FirstAttempt, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []training.FirstAttempt
	for k, f := range m.firsts {
		if k[0] == player {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b training.FirstAttempt) int { return strings.Compare(a.Puzzle, b.Puzzle) })
	return out, nil
}

// LastAttempt returns player's last finished attempt at puzzle.
func (m *memoryTraining) LastAttempt(ctx context.Context, player, puzzle string) (training.Attempt, bool, error) {
	if err := ctx.Err(); err != nil {
		return training.Attempt{}, false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.attempts[[2]string{player, puzzle}]
	a.Actions, a.Refutation = slices.Clone(a.Actions), slices.Clone(a.Refutation)
	return a, ok, nil
}

// RecordAttempt keeps a finished attempt, rating the player's first at
// the puzzle (see training.Store).
func (m *memoryTraining) RecordAttempt(ctx context.Context, a training.Attempt, start training.PuzzleStats, rate training.RateFunc) (training.Attempt, error) {
	if err := ctx.Err(); err != nil {
		return training.Attempt{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	key := [2]string{a.Player, a.Puzzle}
	l := copyLearner(m.learner(a.Player))
	p, ok := m.puzzles[a.Puzzle]
	if !ok {
		p = start
	}
	_, again := m.attempts[key]
	a, l, p, err := rateAttempt(a, l, p, !again, rate)
	if err != nil {
		return training.Attempt{}, err
	}
	if a.Rated {
		m.put(l)
		if m.puzzles == nil {
			m.puzzles = map[string]training.PuzzleStats{}
		}
		m.puzzles[a.Puzzle] = p
		if m.firsts == nil {
			m.firsts = map[[2]string]training.FirstAttempt{}
		}
		m.firsts[key] = training.FirstAttempt{Puzzle: a.Puzzle, Solved: a.Solved, Change: a.After.Rating - a.Before.Rating}
	}
	if m.attempts == nil {
		m.attempts = map[[2]string]training.Attempt{}
	}
	a.Actions, a.Refutation = slices.Clone(a.Actions), slices.Clone(a.Refutation)
	m.attempts[key] = a
	return a, nil
}

// rateAttempt works out what a finished attempt a of learner l at puzzle
// p changes: when first (the player's first attempt at it), their new
// ratings and counts; else nothing but the attempt's record of the
// ratings as they stand.
func rateAttempt(a training.Attempt, l training.Learner, p training.PuzzleStats, first bool, rate training.RateFunc) (training.Attempt, training.Learner, training.PuzzleStats, error) {
	l.Player, p.ID = a.Player, a.Puzzle
	if !l.Rating.Valid() {
		l.Rating = rating.New()
	}
	a.Rated = first
	a.Before, a.After, a.PuzzleBefore, a.PuzzleAfter = l.Rating, l.Rating, p.Rating, p.Rating
	if !first {
		return a, l, p, nil
	}
	after, puzzleAfter, err := rate(l, p)
	if err != nil {
		return a, l, p, err
	}
	a.After, a.PuzzleAfter = after, puzzleAfter
	l.Rating, l.RatedAt = after, a.At
	p.Rating = puzzleAfter
	l.Puzzles++
	p.Plays++
	if a.Solved {
		l.Solved++
		p.Solved++
	}
	return a, l, p, nil
}
