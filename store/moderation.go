package store

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/moderation"
)

// Every store keeps moderators, reports, mutes and the moderation log
// (through its Moderation accessor).
var (
	_ moderation.Store = (*memoryModeration)(nil)
	_ moderation.Store = sqlModeration{}
)

// Moderation returns the store's moderators, reports, mutes and log.
func (m *Memory) Moderation() moderation.Store { return &m.moderation }

// Moderation returns the store's moderators, reports, mutes and log.
func (s *sqlStore) Moderation() moderation.Store { return sqlModeration{db: s.db} }

// noReport is the error for an id that names no report.
func noReport() error {
	return &errs.Error{Code: errs.NotFound, Detail: errs.NoReport, Msg: "There is no such report."}
}

// memoryModeration is the Memory store's moderation, under its own lock.
// Its zero value is empty.
type memoryModeration struct {
	mu      sync.Mutex
	mods    map[string]bool
	reports []moderation.Report // in the order made
	mutes   map[string]time.Time
	log     []moderation.Entry // in the order written
}

func (m *memoryModeration) locked(ctx context.Context, fn func() error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mods == nil {
		m.mods, m.mutes = map[string]bool{}, map[string]time.Time{}
	}
	return fn()
}

// SetModerator makes the player a moderator, or no longer one.
func (m *memoryModeration) SetModerator(ctx context.Context, player string, mod bool, _ time.Time) error {
	return m.locked(ctx, func() error {
		if mod {
			m.mods[player] = true
		} else {
			delete(m.mods, player)
		}
		return nil
	})
}

// Moderator reports whether the player is a moderator.
func (m *memoryModeration) Moderator(ctx context.Context, player string) (bool, error) {
	var mod bool
	err := m.locked(ctx, func() error { mod = m.mods[player]; return nil })
	return mod, err
}

// AddReport keeps r.
func (m *memoryModeration) AddReport(ctx context.Context, r moderation.Report) error {
	return m.locked(ctx, func() error { m.reports = append(m.reports, r); return nil })
}

// OpenReports returns up to limit open reports, the newest first.
func (m *memoryModeration) OpenReports(ctx context.Context, limit int) ([]moderation.Report, error) {
	var out []moderation.Report
	err := m.locked(ctx, func() error {
		for i := len(m.reports) - 1; i >= 0 && len(out) < limit; i-- {
			if m.reports[i].Closed.IsZero() {
				out = append(out, m.reports[i])
			}
		}
		return nil
	})
	return out, err
}

// OpenReportsBy counts the open reports reporter made.
func (m *memoryModeration) OpenReportsBy(ctx context.Context, reporter string) (int, error) {
	n := 0
	err := m.locked(ctx, func() error {
		for _, r := range m.reports {
			if r.Reporter == reporter && r.Closed.IsZero() {
				n++
			}
		}
		return nil
	})
	return n, err
}

// Report returns report id.
func (m *memoryModeration) Report(ctx context.Context, id string) (moderation.Report, error) {
	var out moderation.Report
	err := m.locked(ctx, func() error {
		i := slices.IndexFunc(m.reports, func(r moderation.Report) bool { return r.ID == id })
		if i < 0 {
			return noReport()
		}
		out = m.reports[i]
		return nil
	})
	return out, err
}

// CloseReport closes report id with outcome.
func (m *memoryModeration) CloseReport(ctx context.Context, id, outcome string, at time.Time) (bool, error) {
	closed := false
	err := m.locked(ctx, func() error {
		i := slices.IndexFunc(m.reports, func(r moderation.Report) bool { return r.ID == id })
		if i >= 0 && m.reports[i].Closed.IsZero() {
			m.reports[i].Closed, m.reports[i].Outcome, closed = at, outcome, true
		}
		return nil
	})
	return closed, err
}

// SetMute mutes the player's chat until until.
func (m *memoryModeration) SetMute(ctx context.Context, player string, until time.Time) error {
	return m.locked(ctx, func() error { m.mutes[player] = until; return nil })
}

// MutedUntil returns when the player's mute ends.
func (m *memoryModeration) MutedUntil(ctx context.Context, player string) (time.Time, error) {
	var until time.Time
	err := m.locked(ctx, func() error { until = m.mutes[player]; return nil })
	return until, err
}

// AddEntry writes e to the log.
func (m *memoryModeration) AddEntry(ctx context.Context, e moderation.Entry) error {
	return m.locked(ctx, func() error { m.log = append(m.log, e); return nil })
}

// Entries returns up to limit of the log's entries, the newest first.
func (m *memoryModeration) Entries(ctx context.Context, limit int) ([]moderation.Entry, error) {
	var out []moderation.Entry
	err := m.locked(ctx, func() error {
		for i := len(m.log) - 1; i >= 0 && len(out) < limit; i-- {
			out = append(out, m.log[i])
		}
		return nil
	})
	return out, err
}

// sqlModeration keeps moderation in a database, for SQLite and
// PostgreSQL alike (the moderation migration's tables). Times are unix
// milliseconds.
type sqlModeration struct {
	db database
}

// SetModerator makes the player a moderator, or no longer one.
func (s sqlModeration) SetModerator(ctx context.Context, player string, mod bool, at time.Time) error {
	var err error
	if mod {
		_, err = s.db.exec(ctx, `INSERT INTO moderators (player, since) VALUES ($1, $2) ON CONFLICT (player) DO NOTHING`, player, ms(at))
	} else {
		_, err = s.db.exec(ctx, `DELETE FROM moderators WHERE player = $1`, player)
	}
	return wrapStore(err, "keeping a moderator")
}

// Moderator reports whether the player is a moderator.
func (s sqlModeration) Moderator(ctx context.Context, player string) (bool, error) {
	var one int
	err := s.db.queryRow(ctx, `SELECT 1 FROM moderators WHERE player = $1`, player).Scan(&one)
	if errors.Is(err, errNoRows) {
		return false, nil
	}
	return err == nil, wrapStore(err, "reading a moderator")
}

const reportColumns = `id, reporter, reporter_name, reported, reported_name, reason, text, game, room, seq, at, closed_at, outcome`

func scanReport(sc scanner) (moderation.Report, error) {
	var r moderation.Report
	var reason, room string
	var at, closed int64
	err := sc.Scan(&r.ID, &r.Reporter, &r.ReporterName, &r.Reported, &r.ReportedName, &reason, &r.Text, &r.Game, &room, &r.Seq, &at, &closed, &r.Outcome)
	r.Reason, r.Room, r.At = moderation.Reason(reason), chat.Room(room), fromMS(at)
	if closed != 0 {
		r.Closed = fromMS(closed)
	}
	return r, err
}

// AddReport keeps r.
func (s sqlModeration) AddReport(ctx context.Context, r moderation.Report) error {
	_, err := s.db.exec(ctx, `INSERT INTO reports (`+reportColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0, '')`,
		r.ID, r.Reporter, r.ReporterName, r.Reported, r.ReportedName, string(r.Reason), r.Text, r.Game, string(r.Room), r.Seq, ms(r.At))
	return wrapStore(err, "keeping a report")
}

// OpenReports returns up to limit open reports, the newest first.
func (s sqlModeration) OpenReports(ctx context.Context, limit int) ([]moderation.Report, error) {
	r, err := s.db.query(ctx, `SELECT `+reportColumns+` FROM reports WHERE closed_at = 0 ORDER BY at DESC, id LIMIT $1`, limit)
	if err != nil {
		return nil, wrapStore(err, "reading reports")
	}
	defer r.Close()
	var out []moderation.Report
	for r.Next() {
		rep, err := scanReport(r)
		if err != nil {
			return nil, wrapStore(err, "reading reports")
		}
		out = append(out, rep)
	}
	return out, wrapStore(r.Err(), "reading reports")
}

// OpenReportsBy counts the open reports reporter made.
func (s sqlModeration) OpenReportsBy(ctx context.Context, reporter string) (int, error) {
	var n int
	err := s.db.queryRow(ctx, `SELECT COUNT(*) FROM reports WHERE reporter = $1 AND closed_at = 0`, reporter).Scan(&n)
	return n, wrapStore(err, "counting reports")
}

// Report returns report id.
func (s sqlModeration) Report(ctx context.Context, id string) (moderation.Report, error) {
	r, err := scanReport(s.db.queryRow(ctx, `SELECT `+reportColumns+` FROM reports WHERE id = $1`, id))
	if errors.Is(err, errNoRows) {
		return moderation.Report{}, noReport()
	}
	return r, wrapStore(err, "reading a report")
}

// CloseReport closes report id with outcome.
func (s sqlModeration) CloseReport(ctx context.Context, id, outcome string, at time.Time) (bool, error) {
	n, err := s.db.exec(ctx, `UPDATE reports SET closed_at = $2, outcome = $3 WHERE id = $1 AND closed_at = 0`, id, ms(at), outcome)
	return n == 1, wrapStore(err, "closing a report")
}

// SetMute mutes the player's chat until until.
func (s sqlModeration) SetMute(ctx context.Context, player string, until time.Time) error {
	_, err := s.db.exec(ctx, `INSERT INTO mutes (player, until_at) VALUES ($1, $2) ON CONFLICT (player) DO UPDATE SET until_at = excluded.until_at`,
		player, ms(until))
	return wrapStore(err, "keeping a mute")
}

// MutedUntil returns when the player's mute ends.
func (s sqlModeration) MutedUntil(ctx context.Context, player string) (time.Time, error) {
	var until int64
	err := s.db.queryRow(ctx, `SELECT until_at FROM mutes WHERE player = $1`, player).Scan(&until)
	if errors.Is(err, errNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, wrapStore(err, "reading a mute")
	}
	return fromMS(until), nil
}

const entryColumns = `id, at, moderator, moderator_name, action, player, player_name, report, until_at, why`

// AddEntry writes e to the log.
func (s sqlModeration) AddEntry(ctx context.Context, e moderation.Entry) error {
	var until int64
	if !e.Until.IsZero() {
		until = ms(e.Until)
	}
	_, err := s.db.exec(ctx, `INSERT INTO moderation_log (`+entryColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		e.ID, ms(e.At), e.Moderator, e.ModeratorName, string(e.Action), e.Player, e.PlayerName, e.Report, until, e.Why)
	return wrapStore(err, "writing the moderation log")
}

// Entries returns up to limit of the log's entries, the newest first.
func (s sqlModeration) Entries(ctx context.Context, limit int) ([]moderation.Entry, error) {
	r, err := s.db.query(ctx, `SELECT `+entryColumns+` FROM moderation_log ORDER BY at DESC, id LIMIT $1`, limit)
	if err != nil {
		return nil, wrapStore(err, "reading the moderation log")
	}
	defer r.Close()
	var out []moderation.Entry
	for r.Next() {
		var e moderation.Entry
		var at, until int64
		var action string
		if err := r.Scan(&e.ID, &at, &e.Moderator, &e.ModeratorName, &action, &e.Player, &e.PlayerName, &e.Report, &until, &e.Why); err != nil {
			return nil, wrapStore(err, "reading the moderation log")
		}
		e.At, e.Action = fromMS(at), moderation.Action(action)
		if until != 0 {
			e.Until = fromMS(until)
		}
		out = append(out, e)
	}
	return out, wrapStore(r.Err(), "reading the moderation log")
}
