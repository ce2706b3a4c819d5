package store

import (
	"context"
	"errors"

	"github.com/banchess/banchess/training"
)

// The runs of Puzzle Streak and Puzzle Storm and the best scores, in
// memory (memoryTraining) and in a database (sqlTraining; the tables of
// the training_runs migration).

// bestKey names a best score: a player's of a kind, on a day ("" ever).
type bestKey struct {
	player string
	kind   training.RunKind
	day    string
}

// SaveRun keeps r, replacing the run with its id.
func (m *memoryTraining) SaveRun(ctx context.Context, r training.Run) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.runs == nil {
		m.runs = map[string]training.Run{}
	}
	m.runs[r.ID] = r
	return nil
}

// UpdateRun keeps r's progress where the run kept still has was's.
func (m *memoryTraining) UpdateRun(ctx context.Context, r, was training.Run) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	kept, ok := m.runs[r.ID]
	if !ok || progress(kept) != progress(was) {
		return false, nil
	}
	kept.Pos, kept.Score, kept.Combo, kept.BonusMS, kept.Skipped, kept.Over = r.Pos, r.Score, r.Combo, r.BonusMS, r.Skipped, r.Over
	m.runs[r.ID] = kept
	return true, nil
}

// progress is what UpdateRun compares of a run.
func progress(r training.Run) [6]int64 {
	b := func(v bool) int64 {
		if v {
			return 1
		}
		return 0
	}
	return [6]int64{int64(r.Pos), int64(r.Score), int64(r.Combo), r.BonusMS, b(r.Skipped), b(r.Over)}
}

// Run returns the run with this id.
func (m *memoryTraining) Run(ctx context.Context, id string) (training.Run, bool, error) {
	if err := ctx.Err(); err != nil {
		return training.Run{}, false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.runs[id]
	return r, ok, nil
}

// RecordScore keeps score as player's best of kind, ever and on day,
// where it beats the best kept.
func (m *memoryTraining) RecordScore(ctx context.Context, player string, kind training.RunKind, day string, score int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.bests == nil {
		m.bests = map[bestKey]int{}
	}
	for _, k := range []bestKey{{player, kind, ""}, {player, kind, day}} {
		m.bests[k] = max(m.bests[k], score)
	}
	return nil
}

// Bests returns player's best scores of kind, ever and on day.
func (m *memoryTraining) Bests(ctx context.Context, player string, kind training.RunKind, day string) (training.Bests, error) {
	if err := ctx.Err(); err != nil {
		return training.Bests{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return training.Bests{Best: m.bests[bestKey{player, kind, ""}], Today: m.bests[bestKey{player, kind, day}]}, nil
}

// runColumns are a run's row but its id.
const runColumns = `player, kind, seed, started, pos, score, combo, bonus, skipped, ended`

// SaveRun keeps r, replacing the run with its id.
func (s sqlTraining) SaveRun(ctx context.Context, r training.Run) error {
	_, err := s.db.exec(ctx, `INSERT INTO training_runs (id, `+runColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
		ON CONFLICT (id) DO UPDATE SET pos = excluded.pos, score = excluded.score, combo = excluded.combo, bonus = excluded.bonus,
			skipped = excluded.skipped, ended = excluded.ended`,
		r.ID, r.Player, string(r.Kind), r.Seed, ms(r.Started), r.Pos, r.Score, r.Combo, r.BonusMS, r.Skipped, r.Over)
	return wrapStore(err, "keeping a run")
}

// UpdateRun keeps r's progress where the run kept still has was's.
func (s sqlTraining) UpdateRun(ctx context.Context, r, was training.Run) (bool, error) {
	n, err := s.db.exec(ctx, `UPDATE training_runs SET pos = $2, score = $3, combo = $4, bonus = $5, skipped = $6, ended = $7
		WHERE id = $1 AND pos = $8 AND score = $9 AND combo = $10 AND bonus = $11 AND skipped = $12 AND ended = $13`,
		r.ID, r.Pos, r.Score, r.Combo, r.BonusMS, r.Skipped, r.Over, was.Pos, was.Score, was.Combo, was.BonusMS, was.Skipped, was.Over)
	if err != nil {
		return false, wrapStore(err, "keeping a run")
	}
	return n == 1, nil
}

// Run returns the run with this id.
func (s sqlTraining) Run(ctx context.Context, id string) (training.Run, bool, error) {
	r := training.Run{ID: id}
	var kind string
	var started int64
	err := s.db.queryRow(ctx, `SELECT `+runColumns+` FROM training_runs WHERE id = $1`, id).
		Scan(&r.Player, &kind, &r.Seed, &started, &r.Pos, &r.Score, &r.Combo, &r.BonusMS, &r.Skipped, &r.Over)
	if errors.Is(err, errNoRows) {
		return training.Run{}, false, nil
	}
	if err != nil {
		return training.Run{}, false, wrapStore(err, "reading a run")
	}
	r.Kind, r.Started = training.RunKind(kind), fromMS(started)
	return r, true, nil
}

// RecordScore keeps score as player's best of kind, ever and on day,
// where it beats the best kept.
func (s sqlTraining) RecordScore(ctx context.Context, player string, kind training.RunKind, day string, score int) error {
	err := s.db.inTx(ctx, func(q querier) error {
		for _, d := range []string{"", day} {
			_, err := q.exec(ctx, `INSERT INTO training_bests (player, kind, day, best) VALUES ($1, $2, $3, $4)
				ON CONFLICT (player, kind, day) DO UPDATE SET best = excluded.best WHERE training_bests.best < excluded.best`,
				player, string(kind), d, score)
			if err != nil {
				return err
			}
		}
		return nil
	})
	return wrapStore(err, "keeping a best score")
}

// Bests returns player's best scores of kind, ever and on day.
func (s sqlTraining) Bests(ctx context.Context, player string, kind training.RunKind, day string) (training.Bests, error) {
	r, err := s.db.query(ctx, `SELECT day, best FROM training_bests WHERE player = $1 AND kind = $2 AND day IN ('', $3)`, player, string(kind), day)
	if err != nil {
		return training.Bests{}, wrapStore(err, "reading best scores")
	}
	defer r.Close()
	var b training.Bests
	for r.Next() {
		var d string
		var best int
		if err := r.Scan(&d, &best); err != nil {
			return training.Bests{}, wrapStore(err, "reading best scores")
		}
		if d == "" {
			b.Best = best
		} else {
			b.Today = best
		}
	}
	return b, wrapStore(r.Err(), "reading best scores")
}
