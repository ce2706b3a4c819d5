package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/tournament"
)

// Every store keeps tournaments (through its Tournaments accessor).
var (
	_ tournament.Store = (*memoryTournaments)(nil)
	_ tournament.Store = sqlTournaments{}
)

// Tournaments returns the store's tournaments.
func (m *Memory) Tournaments() tournament.Store { return &m.tournaments }

// Tournaments returns the store's tournaments.
func (s *sqlStore) Tournaments() tournament.Store { return sqlTournaments{db: s.db} }

func noTournament(id string) error {
	return errs.Errorf(errs.NotFound, "There is no tournament with this id.").WithDetail(errs.NoTournament)
}

func tournamentTaken() error {
	return errs.Errorf(errs.Conflict, "A tournament has this id already.")
}

// tournamentUpdates bounds the tries of an update that other saves come
// between.
const tournamentUpdates = 20

// finishing returns the results a save from before to after records: each
// player's place, when the save finishes the tournament.
func finishing(before tournament.Status, after *tournament.Tournament, now time.Time) []tournament.Result {
	if before == tournament.Finished || after.Status != tournament.Finished {
		return nil
	}
	rows := tournament.Standings(after)
	out := make([]tournament.Result, len(rows))
	for i, r := range rows {
		out[i] = tournament.Result{Tournament: after.ID, Kind: after.Kind, Name: after.Name, Scheduled: after.Scheduled(), Player: r.Player, Rank: r.Rank, Score: r.Score, Players: len(rows), Ended: now}
	}
	return out
}

// memoryTournaments is the Memory store's tournaments, under their own
// lock, each kept as JSON (so no caller holds what the store holds).
type memoryTournaments struct {
	mu      sync.Mutex
	byID    map[string][]byte
	claims  map[string]tournamentClaim
	results []tournament.Result
}

type tournamentClaim struct {
	owner string
	until time.Time
}

func decodeTournament(b []byte) (*tournament.Tournament, error) {
	t := &tournament.Tournament{}
	return t, json.Unmarshal(b, t)
}

// CreateTournament stores t under t.ID, or a new id.
func (m *memoryTournaments) CreateTournament(ctx context.Context, t *tournament.Tournament) error {
	if t.ID == "" {
		t.ID = NewID()[:12]
	}
	t.Revision = 1
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byID == nil {
		m.byID, m.claims = map[string][]byte{}, map[string]tournamentClaim{}
	}
	if _, ok := m.byID[t.ID]; ok {
		return tournamentTaken()
	}
	m.byID[t.ID] = b
	return ctx.Err()
}

// Tournament returns the tournament of id.
func (m *memoryTournaments) Tournament(ctx context.Context, id string) (*tournament.Tournament, error) {
	m.mu.Lock()
	b, ok := m.byID[id]
	m.mu.Unlock()
	if !ok {
		return nil, noTournament(id)
	}
	return decodeTournament(b)
}

// UpdateTournament runs fn on tournament id and keeps what it changed.
func (m *memoryTournaments) UpdateTournament(ctx context.Context, id string, fn func(*tournament.Tournament) error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.byID[id]
	if !ok {
		return noTournament(id)
	}
	t, err := decodeTournament(b)
	if err != nil {
		return err
	}
	before := t.Status
	if err := fn(t); err != nil {
		return err
	}
	t.ID, t.Revision = id, t.Revision+1
	if b, err = json.Marshal(t); err != nil {
		return err
	}
	m.byID[id] = b
	m.results = append(m.results, finishing(before, t, time.Now())...)
	return nil
}

// Tournaments returns up to limit tournaments of status.
func (m *memoryTournaments) Tournaments(ctx context.Context, status tournament.Status, limit int) ([]*tournament.Tournament, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*tournament.Tournament
	for _, b := range m.byID {
		t, err := decodeTournament(b)
		if err != nil {
			return nil, err
		}
		if t.Status == status {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b *tournament.Tournament) int {
		if status == tournament.Finished {
			return b.Starts.Compare(a.Starts)
		}
		return a.Starts.Compare(b.Starts)
	})
	return out[:min(limit, len(out))], nil
}

// ClaimTournaments claims the tournaments due that no other owner holds.
func (m *memoryTournaments) ClaimTournaments(ctx context.Context, owner string, now, until time.Time) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var ids []string
	for id, b := range m.byID {
		t, err := decodeTournament(b)
		if err != nil {
			return nil, err
		}
		c := m.claims[id]
		if t.Status == tournament.Finished || t.Starts.After(now) || c.owner != owner && c.until.After(now) {
			continue
		}
		m.claims[id] = tournamentClaim{owner: owner, until: until}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids, nil
}

// TournamentResults returns player's latest limit results.
func (m *memoryTournaments) TournamentResults(ctx context.Context, player string, limit int) ([]tournament.Result, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []tournament.Result
	for i := len(m.results) - 1; i >= 0 && len(out) < limit; i-- {
		if m.results[i].Player == player {
			out = append(out, m.results[i])
		}
	}
	return out, nil
}

// sqlTournaments keeps tournaments in a database, SQLite or PostgreSQL
// (the tournaments migration's tables): each a row with its state as
// JSON, saved over the revision read; times are unix milliseconds.
type sqlTournaments struct {
	db database
}

// CreateTournament stores t under t.ID, or a new id.
func (s sqlTournaments) CreateTournament(ctx context.Context, t *tournament.Tournament) error {
	if t.ID == "" {
		t.ID = NewID()[:12]
	}
	t.Revision = 1
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	n, err := s.db.exec(ctx, `INSERT INTO tournaments (id, kind, status, starts_at, ends_at, revision, data) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (id) DO NOTHING`, t.ID, string(t.Kind), string(t.Status), ms(t.Starts), ms(t.Ends()), t.Revision, string(b))
	switch {
	case err != nil:
		return wrapStore(err, "creating a tournament")
	case n == 0:
		return tournamentTaken()
	}
	// Outside a transaction: the row is there when the notice is heard.
	return wrapStore(s.db.notify(ctx, s.db, tournament.NoticeTournament(t.ID)), "telling the servers of a tournament")
}

// Tournament returns the tournament of id.
func (s sqlTournaments) Tournament(ctx context.Context, id string) (*tournament.Tournament, error) {
	return s.read(ctx, s.db, id)
}

func (s sqlTournaments) read(ctx context.Context, q querier, id string) (*tournament.Tournament, error) {
	var data string
	err := q.queryRow(ctx, `SELECT data FROM tournaments WHERE id = $1`, id).Scan(&data)
	if errors.Is(err, errNoRows) {
		return nil, noTournament(id)
	}
	if err != nil {
		return nil, wrapStore(err, "reading a tournament")
	}
	return decodeTournament([]byte(data))
}

// errTournamentStale is a save that another came before.
var errTournamentStale = errors.New("the tournament changed since it was read")

// UpdateTournament runs fn on tournament id and saves what it changed
// over the revision read, trying again while other saves come between.
func (s sqlTournaments) UpdateTournament(ctx context.Context, id string, fn func(*tournament.Tournament) error) error {
	for range tournamentUpdates {
		t, err := s.read(ctx, s.db, id)
		if err != nil {
			return err
		}
		rev, before := t.Revision, t.Status
		if err := fn(t); err != nil {
			return err
		}
		t.ID, t.Revision = id, rev+1
		err = s.db.inTx(ctx, func(q querier) error {
			b, err := json.Marshal(t)
			if err != nil {
				return err
			}
			n, err := q.exec(ctx, `UPDATE tournaments SET status = $1, starts_at = $2, ends_at = $3, revision = $4, data = $5
				WHERE id = $6 AND revision = $7`, string(t.Status), ms(t.Starts), ms(t.Ends()), t.Revision, string(b), id, rev)
			switch {
			case err != nil:
				return err
			case n == 0:
				return errTournamentStale
			}
			for _, r := range finishing(before, t, time.Now()) {
				if _, err := q.exec(ctx, `INSERT INTO tournament_results (player, tournament, name, place, score, players, ended_at, kind, scheduled)
					VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (player, tournament) DO NOTHING`,
					r.Player, r.Tournament, r.Name, r.Rank, r.Score, r.Players, ms(r.Ended), string(r.Kind), r.Scheduled); err != nil {
					return err
				}
			}
			return s.db.notify(ctx, q, tournament.NoticeTournament(id))
		})
		if !errors.Is(err, errTournamentStale) {
			return wrapStore(err, "saving a tournament")
		}
	}
	return errs.Errorf(errs.Conflict, "The tournament changed too often to save: try again.")
}

// Tournaments returns up to limit tournaments of status.
func (s sqlTournaments) Tournaments(ctx context.Context, status tournament.Status, limit int) ([]*tournament.Tournament, error) {
	order := "starts_at, id"
	if status == tournament.Finished {
		order = "starts_at DESC, id"
	}
	r, err := s.db.query(ctx, `SELECT data FROM tournaments WHERE status = $1 ORDER BY `+order+` LIMIT $2`, string(status), limit)
	if err != nil {
		return nil, wrapStore(err, "listing tournaments")
	}
	out, err := collect(r, func(sc scanner) (*tournament.Tournament, error) {
		var data string
		if err := sc.Scan(&data); err != nil {
			return nil, err
		}
		return decodeTournament([]byte(data))
	})
	return out, wrapStore(err, "listing tournaments")
}

// ClaimTournaments claims the tournaments due that no other owner holds:
// one statement, so two servers never claim one tournament at once.
func (s sqlTournaments) ClaimTournaments(ctx context.Context, owner string, now, until time.Time) ([]string, error) {
	r, err := s.db.query(ctx, `UPDATE tournaments SET lease_owner = $1, lease_until = $2
		WHERE status <> $3 AND starts_at <= $4 AND (lease_owner = $1 OR lease_until <= $4) RETURNING id`,
		owner, ms(until), string(tournament.Finished), ms(now))
	if err != nil {
		return nil, wrapStore(err, "claiming tournaments")
	}
	ids, err := collect(r, func(sc scanner) (string, error) {
		var id string
		return id, sc.Scan(&id)
	})
	if err != nil {
		return nil, fmt.Errorf("claiming tournaments: %w", err)
	}
	slices.Sort(ids)
	return ids, nil
}

// TournamentResults returns player's latest limit results.
func (s sqlTournaments) TournamentResults(ctx context.Context, player string, limit int) ([]tournament.Result, error) {
	r, err := s.db.query(ctx, `SELECT tournament, name, place, score, players, ended_at, kind, scheduled FROM tournament_results
		WHERE player = $1 ORDER BY ended_at DESC, tournament LIMIT $2`, player, limit)
	if err != nil {
		return nil, wrapStore(err, "reading tournament results")
	}
	out, err := collect(r, func(sc scanner) (tournament.Result, error) {
		res := tournament.Result{Player: player}
		var ended int64
		var kind string
		err := sc.Scan(&res.Tournament, &res.Name, &res.Rank, &res.Score, &res.Players, &ended, &kind, &res.Scheduled)
		res.Ended, res.Kind = fromMS(ended), tournament.Kind(kind)
		return res, err
	})
	return out, wrapStore(err, "reading tournament results")
}
