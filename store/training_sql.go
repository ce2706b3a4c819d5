package store

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/banchess/banchess/training"
)

// sqlTraining keeps training's learners, lesson steps, puzzle ratings and
// attempts in a database, for SQLite and Postgres alike (the tables of
// the training migration). Times are unix milliseconds.
type sqlTraining struct {
	db database
}

// learnerColumns are a learner's row but its key.
const learnerColumns = `rating, deviation, volatility, rated_at, puzzles, solved`

// Learner returns what is kept of player.
func (s sqlTraining) Learner(ctx context.Context, player string) (training.Learner, error) {
	l, err := loadLearner(ctx, s.db, player, "")
	if err != nil {
		return training.Learner{}, wrapStore(err, "reading a learner")
	}
	r, err := s.db.query(ctx, `SELECT lesson, step FROM lesson_steps WHERE player = $1 ORDER BY lesson, step`, player)
	if err != nil {
		return training.Learner{}, wrapStore(err, "reading lesson steps")
	}
	defer r.Close()
	for r.Next() {
		var lesson string
		var step int
		if err := r.Scan(&lesson, &step); err != nil {
			return training.Learner{}, wrapStore(err, "reading lesson steps")
		}
		l.Steps[lesson] = append(l.Steps[lesson], step)
	}
	return l, wrapStore(r.Err(), "reading lesson steps")
}

// loadLearner reads player's row through q (lock: forUpdate's words, or
// ""); a player without one is a new learner.
func loadLearner(ctx context.Context, q querier, player, lock string) (training.Learner, error) {
	l := training.Learner{Player: player, Steps: map[string][]int{}}
	var ratedAt int64
	err := q.queryRow(ctx, `SELECT `+learnerColumns+` FROM learners WHERE player = $1`+lock, player).
		Scan(&l.Rating.Rating, &l.Rating.Deviation, &l.Rating.Volatility, &ratedAt, &l.Puzzles, &l.Solved)
	switch {
	case errors.Is(err, errNoRows):
		return l, nil
	case err != nil:
		return l, err
	}
	l.RatedAt = fromMS(ratedAt)
	return l, nil
}

// CompleteStep records that player has done step of lesson.
func (s sqlTraining) CompleteStep(ctx context.Context, player, lesson string, step int, at time.Time) error {
	_, err := s.db.exec(ctx, `INSERT INTO lesson_steps (player, lesson, step, done_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (player, lesson, step) DO NOTHING`, player, lesson, step, ms(at))
	return wrapStore(err, "keeping a lesson step")
}

// PuzzleStats returns what is kept of puzzle id.
func (s sqlTraining) PuzzleStats(ctx context.Context, id string) (training.PuzzleStats, bool, error) {
	p, ok, err := loadPuzzle(ctx, s.db, id, "")
	return p, ok, wrapStore(err, "reading a puzzle's rating")
}

func loadPuzzle(ctx context.Context, q querier, id, lock string) (training.PuzzleStats, bool, error) {
	p := training.PuzzleStats{ID: id}
	err := q.queryRow(ctx, `SELECT rating, deviation, volatility, plays, solved FROM puzzle_ratings WHERE puzzle = $1`+lock, id).
		Scan(&p.Rating.Rating, &p.Rating.Deviation, &p.Rating.Volatility, &p.Plays, &p.Solved)
	if errors.Is(err, errNoRows) {
		return p, false, nil
	}
	return p, err == nil, err
}

// Attempted lists the puzzles player has attempted.
func (s sqlTraining) Attempted(ctx context.Context, player string) ([]string, error) {
	r, err := s.db.query(ctx, `SELECT puzzle FROM puzzle_attempts WHERE player = $1 ORDER BY puzzle`, player)
	if err != nil {
		return nil, wrapStore(err, "listing attempts")
	}
	defer r.Close()
	var out []string
	for r.Next() {
		var id string
		if err := r.Scan(&id); err != nil {
			return nil, wrapStore(err, "listing attempts")
		}
		out = append(out, id)
	}
	return out, wrapStore(r.Err(), "listing attempts")
}

// FirstAttempts lists player's rated attempts, by puzzle.
func (s sqlTraining) FirstAttempts(ctx context.Context, player string) ([]training.FirstAttempt, error) {
	r, err := s.db.query(ctx, `SELECT puzzle, solved, rating_change FROM puzzle_firsts WHERE player = $1 ORDER BY puzzle`, player)
	if err != nil {
		return nil, wrapStore(err, "listing rated attempts")
	}
	defer r.Close()
	var out []training.FirstAttempt
	for r.Next() {
		var f training.FirstAttempt
		if err := r.Scan(&f.Puzzle, &f.Solved, &f.Change); err != nil {
			return nil, wrapStore(err, "listing rated attempts")
		}
		out = append(out, f)
	}
	return out, wrapStore(r.Err(), "listing rated attempts")
}

// attemptColumns are an attempt's row but its key.
const attemptColumns = `at, solved, failed_at, actions, reason, rated, before_rating, before_deviation, after_rating, after_deviation, puzzle_before, puzzle_after, refutation`

// LastAttempt returns player's last finished attempt at puzzle. The
// ratings it holds are those shown: the rating and deviation of the
// player's, the rating of the puzzle's.
func (s sqlTraining) LastAttempt(ctx context.Context, player, puzzle string) (training.Attempt, bool, error) {
	a := training.Attempt{Player: player, Puzzle: puzzle}
	var at int64
	var actions, refutation string
	err := s.db.queryRow(ctx, `SELECT `+attemptColumns+` FROM puzzle_attempts WHERE player = $1 AND puzzle = $2`, player, puzzle).
		Scan(&at, &a.Solved, &a.FailedAt, &actions, &a.Reason, &a.Rated, &a.Before.Rating, &a.Before.Deviation,
			&a.After.Rating, &a.After.Deviation, &a.PuzzleBefore.Rating, &a.PuzzleAfter.Rating, &refutation)
	if errors.Is(err, errNoRows) {
		return training.Attempt{}, false, nil
	}
	if err != nil {
		return training.Attempt{}, false, wrapStore(err, "reading an attempt")
	}
	a.At, a.Actions, a.Refutation = fromMS(at), strings.Fields(actions), strings.Fields(refutation)
	return a, true, nil
}

// RecordAttempt keeps a finished attempt, rating the player's first at
// the puzzle (see training.Store), in one transaction: the player and
// the puzzle are locked (their rows need not exist yet) while their
// ratings are read and written.
func (s sqlTraining) RecordAttempt(ctx context.Context, a training.Attempt, start training.PuzzleStats, rate training.RateFunc) (training.Attempt, error) {
	err := s.db.inTx(ctx, func(q querier) error {
		for _, key := range []string{"learner:" + a.Player, "puzzle:" + a.Puzzle} {
			if err := s.db.lock(ctx, q, key); err != nil {
				return err
			}
		}
		lock := s.db.forUpdate()
		l, err := loadLearner(ctx, q, a.Player, lock)
		if err != nil {
			return err
		}
		p, ok, err := loadPuzzle(ctx, q, a.Puzzle, lock)
		if err != nil {
			return err
		}
		if !ok {
			p = start
		}
		var again bool
		err = q.queryRow(ctx, `SELECT true FROM puzzle_attempts WHERE player = $1 AND puzzle = $2`+lock, a.Player, a.Puzzle).Scan(&again)
		if err != nil && !errors.Is(err, errNoRows) {
			return err
		}
		if a, l, p, err = rateAttempt(a, l, p, !again, rate); err != nil {
			return err
		}
		if a.Rated {
			if err := saveRatings(ctx, q, l, p); err != nil {
				return err
			}
			if _, err := q.exec(ctx, `INSERT INTO puzzle_firsts (player, puzzle, solved, rating_change) VALUES ($1, $2, $3, $4)
				ON CONFLICT (player, puzzle) DO NOTHING`, a.Player, a.Puzzle, a.Solved, a.After.Rating-a.Before.Rating); err != nil {
				return err
			}
		}
		_, err = q.exec(ctx, `INSERT INTO puzzle_attempts (player, puzzle, `+attemptColumns+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
			ON CONFLICT (player, puzzle) DO UPDATE SET at = excluded.at, solved = excluded.solved, failed_at = excluded.failed_at,
				actions = excluded.actions, reason = excluded.reason, rated = excluded.rated, before_rating = excluded.before_rating,
				before_deviation = excluded.before_deviation, after_rating = excluded.after_rating,
				after_deviation = excluded.after_deviation, puzzle_before = excluded.puzzle_before, puzzle_after = excluded.puzzle_after,
				refutation = excluded.refutation`,
			a.Player, a.Puzzle, ms(a.At), a.Solved, a.FailedAt, strings.Join(a.Actions, " "), a.Reason, a.Rated,
			a.Before.Rating, a.Before.Deviation, a.After.Rating, a.After.Deviation, a.PuzzleBefore.Rating, a.PuzzleAfter.Rating,
			strings.Join(a.Refutation, " "))
		return err
	})
	if err != nil {
		return training.Attempt{}, wrapStore(err, "keeping an attempt")
	}
	return a, nil
}

// saveRatings writes a learner's rating and counts and a puzzle's.
func saveRatings(ctx context.Context, q querier, l training.Learner, p training.PuzzleStats) error {
	_, err := q.exec(ctx, `INSERT INTO learners (player, `+learnerColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (player) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility,
			rated_at = excluded.rated_at, puzzles = excluded.puzzles, solved = excluded.solved`,
		l.Player, l.Rating.Rating, l.Rating.Deviation, l.Rating.Volatility, ms(l.RatedAt), l.Puzzles, l.Solved)
	if err != nil {
		return err
	}
	_, err = q.exec(ctx, `INSERT INTO puzzle_ratings (puzzle, rating, deviation, volatility, plays, solved) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (puzzle) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility,
			plays = excluded.plays, solved = excluded.solved`,
		p.ID, p.Rating.Rating, p.Rating.Deviation, p.Rating.Volatility, p.Plays, p.Solved)
	return err
}
