package store

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/banchess/banchess/chat"
)

// Every store keeps the games' chat (through its Chat accessor).
var (
	_ chat.Store = (*memoryChat)(nil)
	_ chat.Store = sqlChat{}
)

// Chat returns the store's chat: the games' rooms and who turned chat
// off.
func (m *Memory) Chat() chat.Store { return &m.chat }

// Chat returns the store's chat: the games' rooms and who turned chat
// off.
func (s *sqlStore) Chat() chat.Store { return sqlChat{db: s.db} }

// memoryChat is the Memory store's chat, under its own lock. Its zero
// value is empty.
type memoryChat struct {
	mu    sync.Mutex
	lines map[string][]chat.Line // by game, in order
	off   map[string]bool        // the players who turned chat off
}

// AddChatLine keeps l after its game's last line, unless it repeats its
// author's previous line in its room (chat.ErrRepeated).
func (m *memoryChat) AddChatLine(ctx context.Context, l chat.Line) (chat.Line, error) {
	if err := ctx.Err(); err != nil {
		return chat.Line{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	lines := m.lines[l.Game]
	for i := len(lines) - 1; i >= 0; i-- {
		if p := lines[i]; p.Room == l.Room && p.Author == l.Author {
			if p.Text == l.Text {
				return chat.Line{}, chat.ErrRepeated
			}
			break
		}
	}
	l.Seq = int64(len(lines)) + 1
	if m.lines == nil {
		m.lines = map[string][]chat.Line{}
	}
	m.lines[l.Game] = append(lines, l)
	return l, nil
}

// ChatLines returns the latest limit lines of game's room after after.
func (m *memoryChat) ChatLines(ctx context.Context, game string, room chat.Room, after int64, limit int) ([]chat.Line, int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	lines := m.lines[game]
	var out []chat.Line
	for i := len(lines) - 1; i >= 0 && len(out) < limit && lines[i].Seq > after; i-- {
		if lines[i].Room == room {
			out = append(out, lines[i])
		}
	}
	slices.Reverse(out)
	return out, int64(len(lines)), nil
}

// ChatOff reports whether player turned chat off.
func (m *memoryChat) ChatOff(ctx context.Context, player string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.off[player], nil
}

// SetChatOff turns chat off for player, or on again.
func (m *memoryChat) SetChatOff(ctx context.Context, player string, off bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !off {
		delete(m.off, player)
		return nil
	}
	if m.off == nil {
		m.off = map[string]bool{}
	}
	m.off[player] = true
	return nil
}

// sqlChat keeps the chat in a database, for SQLite and PostgreSQL alike
// (the chat migration's tables). Times are unix milliseconds.
type sqlChat struct {
	db database
}

// AddChatLine keeps l after its game's last line, unless it repeats its
// author's previous line in its room (chat.ErrRepeated), in one
// transaction under the game's chat lock; PostgreSQL tells the other
// servers (chat.NoticeLine).
func (s sqlChat) AddChatLine(ctx context.Context, l chat.Line) (chat.Line, error) {
	err := s.db.inTx(ctx, func(q querier) error {
		if err := s.db.lock(ctx, q, "chat:"+l.Game); err != nil {
			return err
		}
		var last string
		err := q.queryRow(ctx, `SELECT text FROM chat_lines WHERE game = $1 AND room = $2 AND author = $3 ORDER BY seq DESC LIMIT 1`,
			l.Game, string(l.Room), l.Author).Scan(&last)
		switch {
		case err == nil && last == l.Text:
			return chat.ErrRepeated
		case err != nil && !errors.Is(err, errNoRows):
			return err
		}
		if err := q.queryRow(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM chat_lines WHERE game = $1`, l.Game).Scan(&l.Seq); err != nil {
			return err
		}
		_, err = q.exec(ctx, `INSERT INTO chat_lines (game, seq, room, author, name, text, at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			l.Game, l.Seq, string(l.Room), l.Author, l.Name, l.Text, ms(l.At))
		if err != nil {
			return err
		}
		return s.db.notify(ctx, q, chat.NoticeLine(l.Game, l.Seq))
	})
	if errors.Is(err, chat.ErrRepeated) {
		return chat.Line{}, err
	}
	if err != nil {
		return chat.Line{}, wrapStore(err, "keeping a chat line")
	}
	return l, nil
}

// ChatLines returns the latest limit lines of game's room after after.
func (s sqlChat) ChatLines(ctx context.Context, game string, room chat.Room, after int64, limit int) ([]chat.Line, int64, error) {
	var last int64
	if err := s.db.queryRow(ctx, `SELECT COALESCE(MAX(seq), 0) FROM chat_lines WHERE game = $1`, game).Scan(&last); err != nil {
		return nil, 0, wrapStore(err, "reading a chat's last line")
	}
	if last <= after || limit <= 0 {
		return nil, last, nil
	}
	r, err := s.db.query(ctx, `SELECT seq, author, name, text, at FROM chat_lines WHERE game = $1 AND room = $2 AND seq > $3
		ORDER BY seq DESC LIMIT $4`, game, string(room), after, limit)
	if err != nil {
		return nil, 0, wrapStore(err, "reading chat lines")
	}
	defer r.Close()
	var out []chat.Line
	for r.Next() {
		l := chat.Line{Game: game, Room: room}
		var at int64
		if err := r.Scan(&l.Seq, &l.Author, &l.Name, &l.Text, &at); err != nil {
			return nil, 0, wrapStore(err, "reading chat lines")
		}
		l.At = fromMS(at)
		out = append(out, l)
	}
	if err := r.Err(); err != nil {
		return nil, 0, wrapStore(err, "reading chat lines")
	}
	if len(out) > 0 && out[0].Seq > last { // a line said between the two reads
		last = out[0].Seq
	}
	slices.Reverse(out)
	return out, last, nil
}

// ChatOff reports whether player turned chat off.
func (s sqlChat) ChatOff(ctx context.Context, player string) (bool, error) {
	var off bool
	err := s.db.queryRow(ctx, `SELECT off FROM chat_settings WHERE player = $1`, player).Scan(&off)
	if errors.Is(err, errNoRows) {
		return false, nil
	}
	return off, wrapStore(err, "reading a chat setting")
}

// SetChatOff turns chat off for player, or on again.
func (s sqlChat) SetChatOff(ctx context.Context, player string, off bool) error {
	_, err := s.db.exec(ctx, `INSERT INTO chat_settings (player, off) VALUES ($1, $2)
		ON CONFLICT (player) DO UPDATE SET off = excluded.off`, player, off)
	return wrapStore(err, "keeping a chat setting")
}
