package store

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
)

// Reset links and deleted accounts, the rest of players.SafetyStore.

// resetLink is a reset link as the Memory store keeps it.
type resetLink struct {
	player  string
	expires time.Time
}

// AddResetLink keeps a reset link.
func (m *memorySafety) AddResetLink(ctx context.Context, player, hash string, expires time.Time) error {
	unlock, err := m.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if m.a.players[player] == nil {
		return noSuchPlayer()
	}
	if m.links == nil {
		m.links = map[string]resetLink{}
	}
	m.links[hash] = resetLink{player: player, expires: expires}
	return nil
}

// ResetLink returns the reset link of hash.
func (m *memorySafety) ResetLink(ctx context.Context, hash string) (string, time.Time, bool, error) {
	unlock, err := m.lock(ctx)
	if err != nil {
		return "", time.Time{}, false, err
	}
	defer unlock()
	l, ok := m.links[hash]
	return l.player, l.expires, ok, nil
}

// UseResetLink spends the link, sets the password and replaces every
// credential of the player with r.Issued.
func (m *memorySafety) UseResetLink(ctx context.Context, r players.Recovery) (bool, error) {
	unlock, err := m.lock(ctx)
	if err != nil {
		return false, err
	}
	defer unlock()
	p := m.a.players[r.Player]
	if l, ok := m.links[r.Code]; !ok || l.player != r.Player || p == nil {
		return false, nil
	}
	delete(m.links, r.Code)
	p.Password = r.Password
	m.revokeAll(r.Player)
	m.a.creds[r.Issued.Hash] = r.Issued
	return true, nil
}

// Delete deletes the player's account: see players.Service.DeleteAccount.
func (m *memorySafety) Delete(ctx context.Context, player string, at time.Time) error {
	if err := m.deleteAccount(ctx, player, at); err != nil {
		return err
	}
	st := m.m
	st.chat.mu.Lock()
	for g, lines := range st.chat.lines {
		st.chat.lines[g] = slices.DeleteFunc(lines, func(l chat.Line) bool { return l.Author == player })
	}
	delete(st.chat.off, player)
	st.chat.mu.Unlock()
	st.relations.mu.Lock()
	mine := func(e edge) bool { return e.from == player || e.to == player }
	st.relations.follows = slices.DeleteFunc(st.relations.follows, mine)
	st.relations.blocks = slices.DeleteFunc(st.relations.blocks, mine)
	st.relations.mu.Unlock()
	st.memoryTraining.mu.Lock()
	delete(st.memoryTraining.learners, player)
	for k := range st.memoryTraining.attempts {
		if k[0] == player {
			delete(st.memoryTraining.attempts, k)
		}
	}
	st.memoryTraining.mu.Unlock()
	st.mu.RLock()
	var ids []string
	for id, e := range st.games {
		if e.rec.White == player || e.rec.Black == player {
			ids = append(ids, id)
		}
	}
	st.mu.RUnlock()
	for _, id := range ids {
		err := withGame(ctx, st, id, func(rec *games.Record) error { renameDeleted(rec, player); return nil })
		if err != nil {
			return err
		}
	}
	return nil
}

// deleteAccount deletes the player's part of the accounts: the name
// shown, the password, credentials, codes and links, standings and list
// of games, their name in their opponents' lists; the account is closed.
func (m *memorySafety) deleteAccount(ctx context.Context, player string, at time.Time) error {
	unlock, err := m.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	p := m.a.players[player]
	if p == nil {
		return noSuchPlayer()
	}
	p.Name, p.Password = players.DeletedName, ""
	m.revokeAll(player)
	delete(m.codes, player)
	for h, l := range m.links {
		if l.player == player {
			delete(m.links, h)
		}
	}
	m.closed[player] = at
	if m.deleted == nil {
		m.deleted = map[string]bool{}
	}
	m.deleted[player] = true
	for k := range m.a.standings {
		if k.player == player {
			delete(m.a.standings, k)
		}
	}
	theirs := map[string]bool{}
	for _, g := range m.a.played[player] {
		theirs[g.Game] = true
	}
	delete(m.a.played, player)
	for _, list := range m.a.played {
		for i := range list {
			if theirs[list[i].Game] {
				list[i].Opponent = players.DeletedName
			}
		}
	}
	return nil
}

// AddResetLink keeps a reset link.
func (s sqlSafety) AddResetLink(ctx context.Context, player, hash string, expires time.Time) error {
	err := s.db.inTx(ctx, func(q querier) error {
		var one int
		if err := q.queryRow(ctx, `SELECT 1 FROM players WHERE id = $1`, player).Scan(&one); errors.Is(err, errNoRows) {
			return noSuchPlayer()
		} else if err != nil {
			return err
		}
		_, err := q.exec(ctx, `INSERT INTO reset_links (hash, player, expires_at) VALUES ($1, $2, $3)`, hash, player, ms(expires))
		return err
	})
	return wrapStore(err, "keeping a reset link")
}

// ResetLink returns the reset link of hash.
func (s sqlSafety) ResetLink(ctx context.Context, hash string) (string, time.Time, bool, error) {
	var player string
	var expires int64
	err := s.db.queryRow(ctx, `SELECT player, expires_at FROM reset_links WHERE hash = $1`, hash).Scan(&player, &expires)
	if errors.Is(err, errNoRows) {
		return "", time.Time{}, false, nil
	}
	if err != nil {
		return "", time.Time{}, false, wrapStore(err, "reading a reset link")
	}
	return player, time.UnixMilli(expires), true, nil
}

// UseResetLink spends the link, sets the password, and replaces every
// credential of the player with r.Issued, in one transaction; PostgreSQL
// tells the other servers the player was signed out.
func (s sqlSafety) UseResetLink(ctx context.Context, r players.Recovery) (bool, error) {
	done := false
	err := s.db.inTx(ctx, func(q querier) error {
		done = false
		n, err := q.exec(ctx, `DELETE FROM reset_links WHERE hash = $1 AND player = $2`, r.Code, r.Player)
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
		return false, wrapStore(err, "resetting a password")
	}
	return done, nil
}

// Delete deletes the player's account: see
// players.Service.DeleteAccount. First the games replace the player's
// recorded name, each saved as any change is (through the store's cache
// and its revisions), then the rest goes in one transaction.
func (s sqlSafety) Delete(ctx context.Context, player string, at time.Time) error {
	r, err := s.gdb.query(ctx, `SELECT id FROM games WHERE white = $1 OR black = $1`, player)
	var ids []string
	if err == nil {
		ids, err = collect(r, func(sc scanner) (string, error) {
			var id string
			return id, sc.Scan(&id)
		})
	}
	if err != nil {
		return wrapStore(err, "listing a deleted player's games")
	}
	for _, id := range ids {
		if err := s.update(ctx, id, func(rec *games.Record) error { renameDeleted(rec, player); return nil }); err != nil {
			return wrapStore(err, "replacing a deleted player's name")
		}
	}
	err = s.db.inTx(ctx, func(q querier) error {
		var name string
		if err := q.queryRow(ctx, `SELECT name FROM players WHERE id = $1`, player).Scan(&name); errors.Is(err, errNoRows) {
			return noSuchPlayer()
		} else if err != nil {
			return err
		}
		steps := []struct {
			sql  string
			args []any
		}{
			{`UPDATE players SET name = $2, password = '' WHERE id = $1`, []any{player, players.DeletedName}},
			{`INSERT INTO closed_accounts (player, at, deleted) VALUES ($1, $2, true) ON CONFLICT (player) DO UPDATE SET deleted = true`, []any{player, ms(at)}},
			{`DELETE FROM credentials WHERE player = $1`, []any{player}},
			{`DELETE FROM recovery_codes WHERE player = $1`, []any{player}},
			{`DELETE FROM reset_links WHERE player = $1`, []any{player}},
			{`DELETE FROM standings WHERE player = $1`, []any{player}},
			{`UPDATE played SET opponent = $2 WHERE player <> $1 AND game IN (SELECT game FROM played WHERE player = $1)`, []any{player, players.DeletedName}},
			{`DELETE FROM played WHERE player = $1`, []any{player}},
			{`DELETE FROM chat_lines WHERE author = $1`, []any{player}},
			{`DELETE FROM chat_settings WHERE player = $1`, []any{player}},
			{`DELETE FROM follows WHERE follower = $1 OR followed = $1`, []any{player}},
			{`DELETE FROM blocks WHERE blocker = $1 OR blocked = $1`, []any{player}},
			{`DELETE FROM learners WHERE player = $1`, []any{player}},
			{`DELETE FROM lesson_steps WHERE player = $1`, []any{player}},
			{`DELETE FROM puzzle_attempts WHERE player = $1`, []any{player}},
			{`DELETE FROM seeks WHERE player = $1 AND game = ''`, []any{player}},
		}
		for _, st := range steps {
			if _, err := q.exec(ctx, st.sql, st.args...); err != nil {
				return err
			}
		}
		return s.db.notify(ctx, q, players.NoticeSignedOut(player))
	})
	return wrapStore(err, "deleting an account")
}

// renameDeleted replaces the recorded name of player, deleted, in rec.
func renameDeleted(rec *games.Record, player string) {
	if rec.White == player && rec.WhitePlayer.Name != "" {
		rec.WhitePlayer.Name = players.DeletedName
	}
	if rec.Black == player && rec.BlackPlayer.Name != "" {
		rec.BlackPlayer.Name = players.DeletedName
	}
}
