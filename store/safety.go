package store

import (
	"context"
	"errors"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
)

// Every store keeps recovery codes and closed accounts (through its
// Safety accessor).
var (
	_ players.SafetyStore = (*memorySafety)(nil)
	_ players.SafetyStore = sqlSafety{}
)

// Safety returns the store's recovery codes and closed accounts.
func (m *Memory) Safety() players.SafetyStore { return &m.safety }

// Safety returns the store's recovery codes and closed accounts.
func (s *sqlStore) Safety() players.SafetyStore {
	return sqlSafety{db: s.db, gdb: s.gdb, update: s.Update}
}

// memorySafety is the Memory store's recovery codes and closed accounts,
// under its players' lock (a recovery changes a player's password and
// credentials in the same step).
type memorySafety struct {
	a      *memoryPlayers
	codes  map[string]map[string]string // hashes by code id, by player
	closed map[string]time.Time         // closed accounts, by player
	// links are the reset links, by hash; deleted the deleted accounts.
	links   map[string]resetLink
	deleted map[string]bool
	m       *Memory // the games, chat, relations and training a deletion clears
}

// lock locks the players and returns the unlocking.
func (m *memorySafety) lock(ctx context.Context) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.a.mu.Lock()
	if m.codes == nil {
		m.codes, m.closed = map[string]map[string]string{}, map[string]time.Time{}
	}
	return m.a.mu.Unlock, nil
}

// SetRecoveryCodes replaces the player's recovery codes.
func (m *memorySafety) SetRecoveryCodes(ctx context.Context, player string, codes []players.RecoveryCode) error {
	unlock, err := m.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	kept := map[string]string{}
	for _, c := range codes {
		kept[c.ID] = c.Hash
	}
	m.codes[player] = kept
	return nil
}

// RecoveryCode returns the hash of the player's unused code id.
func (m *memorySafety) RecoveryCode(ctx context.Context, player, id string) (string, bool, error) {
	unlock, err := m.lock(ctx)
	if err != nil {
		return "", false, err
	}
	defer unlock()
	h, ok := m.codes[player][id]
	return h, ok, nil
}

// RecoveryCodesLeft counts the player's unused codes.
func (m *memorySafety) RecoveryCodesLeft(ctx context.Context, player string) (int, error) {
	unlock, err := m.lock(ctx)
	if err != nil {
		return 0, err
	}
	defer unlock()
	return len(m.codes[player]), nil
}

// Recover spends r's code, sets the password, and replaces every
// credential of the player with r.Issued.
func (m *memorySafety) Recover(ctx context.Context, r players.Recovery) (bool, error) {
	unlock, err := m.lock(ctx)
	if err != nil {
		return false, err
	}
	defer unlock()
	p := m.a.players[r.Player]
	if _, ok := m.codes[r.Player][r.Code]; !ok || p == nil {
		return false, nil
	}
	delete(m.codes[r.Player], r.Code)
	p.Password = r.Password
	m.revokeAll(r.Player)
	m.a.creds[r.Issued.Hash] = r.Issued
	return true, nil
}

// revokeAll forgets every credential of player; the lock is held.
func (m *memorySafety) revokeAll(player string) {
	for h, c := range m.a.creds {
		if c.Player == player {
			delete(m.a.creds, h)
		}
	}
}

// SetClosed closes the player's account, revoking their credentials, or
// reopens it.
func (m *memorySafety) SetClosed(ctx context.Context, player string, closed bool, at time.Time) error {
	unlock, err := m.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if !closed {
		if !m.deleted[player] { // a deleted account stays closed
			delete(m.closed, player)
		}
		return nil
	}
	if m.a.players[player] == nil {
		return noSuchPlayer()
	}
	if _, ok := m.closed[player]; !ok {
		m.closed[player] = at
	}
	m.revokeAll(player)
	return nil
}

// Closed reports whether the player's account is closed.
func (m *memorySafety) Closed(ctx context.Context, player string) (bool, error) {
	unlock, err := m.lock(ctx)
	if err != nil {
		return false, err
	}
	defer unlock()
	_, ok := m.closed[player]
	return ok, nil
}

// sqlSafety keeps recovery codes and closed accounts in a database, for
// SQLite and PostgreSQL alike (the account_safety migration's tables).
type sqlSafety struct {
	db database
	// gdb holds the games' rows; update changes a game as any save does
	// (a deletion replaces the player's name in their games).
	gdb    database
	update func(ctx context.Context, id string, fn func(*games.Record) error) error
}

// SetRecoveryCodes replaces the player's recovery codes, in one
// transaction.
func (s sqlSafety) SetRecoveryCodes(ctx context.Context, player string, codes []players.RecoveryCode) error {
	err := s.db.inTx(ctx, func(q querier) error {
		if _, err := q.exec(ctx, `DELETE FROM recovery_codes WHERE player = $1`, player); err != nil {
			return err
		}
		for _, c := range codes {
			if _, err := q.exec(ctx, `INSERT INTO recovery_codes (player, id, hash) VALUES ($1, $2, $3)`, player, c.ID, c.Hash); err != nil {
				return err
			}
		}
		return nil
	})
	return wrapStore(err, "keeping recovery codes")
}

// RecoveryCode returns the hash of the player's unused code id.
func (s sqlSafety) RecoveryCode(ctx context.Context, player, id string) (string, bool, error) {
	var hash string
	err := s.db.queryRow(ctx, `SELECT hash FROM recovery_codes WHERE player = $1 AND id = $2`, player, id).Scan(&hash)
	if errors.Is(err, errNoRows) {
		return "", false, nil
	}
	return hash, err == nil, wrapStore(err, "reading a recovery code")
}

// RecoveryCodesLeft counts the player's unused codes.
func (s sqlSafety) RecoveryCodesLeft(ctx context.Context, player string) (int, error) {
	var n int
	err := s.db.queryRow(ctx, `SELECT COUNT(*) FROM recovery_codes WHERE player = $1`, player).Scan(&n)
	return n, wrapStore(err, "counting recovery codes")
}

// Recover spends r's code, sets the password, and replaces every
// credential of the player with r.Issued, in one transaction; PostgreSQL
// tells the other servers the player was signed out.
func (s sqlSafety) Recover(ctx context.Context, r players.Recovery) (bool, error) {
	done := false
	err := s.db.inTx(ctx, func(q querier) error {
		done = false
		n, err := q.exec(ctx, `DELETE FROM recovery_codes WHERE player = $1 AND id = $2`, r.Player, r.Code)
		if err != nil || n != 1 {
			return err
		}
		if _, err := q.exec(ctx, `UPDATE players SET password = $2 WHERE id = $1`, r.Player, r.Password); err != nil {
			return err
		}
		if _, err := q.exec(ctx, `DELETE FROM credentials WHERE player = $1`, r.Player); err != nil {
			return err
		}
		if err := issue(ctx, q, r.Issued); err != nil {
			return err
		}
		done = true
		return s.db.notify(ctx, q, players.NoticeSignedOut(r.Player))
	})
	if err != nil {
		return false, wrapStore(err, "recovering an account")
	}
	return done, nil
}

// SetClosed closes the player's account, revoking their credentials, or
// reopens it, in one transaction.
func (s sqlSafety) SetClosed(ctx context.Context, player string, closed bool, at time.Time) error {
	err := s.db.inTx(ctx, func(q querier) error {
		if !closed {
			_, err := q.exec(ctx, `DELETE FROM closed_accounts WHERE player = $1 AND NOT deleted`, player)
			return err
		}
		var one int
		if err := q.queryRow(ctx, `SELECT 1 FROM players WHERE id = $1`, player).Scan(&one); errors.Is(err, errNoRows) {
			return noSuchPlayer()
		} else if err != nil {
			return err
		}
		if _, err := q.exec(ctx, `INSERT INTO closed_accounts (player, at) VALUES ($1, $2) ON CONFLICT (player) DO NOTHING`, player, ms(at)); err != nil {
			return err
		}
		if _, err := q.exec(ctx, `DELETE FROM credentials WHERE player = $1`, player); err != nil {
			return err
		}
		return s.db.notify(ctx, q, players.NoticeSignedOut(player))
	})
	return wrapStore(err, "closing an account")
}

// Closed reports whether the player's account is closed.
func (s sqlSafety) Closed(ctx context.Context, player string) (bool, error) {
	var one int
	err := s.db.queryRow(ctx, `SELECT 1 FROM closed_accounts WHERE player = $1`, player).Scan(&one)
	if errors.Is(err, errNoRows) {
		return false, nil
	}
	return err == nil, wrapStore(err, "reading whether an account is closed")
}
