package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/notify"
)

// Every store keeps notifications (through Notifications).
var _ notify.Store = sqlNotify{}

// Notifications returns the notifications db keeps: a *Memory's in
// memory, a *SQLite's or *Postgres's in its notifications table; nil for
// another store. (A function, not a method: Memory has its 40.)
func Notifications(db any) notify.Store {
	switch s := db.(type) {
	case *Memory:
		return s.notify
	case *SQLite:
		return sqlNotify{db: s.sqlStore.db}
	case *Postgres:
		return sqlNotify{db: s.sqlStore.db}
	}
	return nil
}

// sqlNotify are SQLite's and PostgreSQL's notifications: the
// notifications and notify_settings tables.
type sqlNotify struct {
	db database
}

// AddNotification stores n and keeps its player's keep newest.
func (s sqlNotify) AddNotification(ctx context.Context, n notify.Notification, keep int) error {
	msg, err := messageJSON(n.Message)
	if err != nil {
		return fmt.Errorf("adding a notification: %w", err)
	}
	err = s.db.inTx(ctx, func(q querier) error {
		if _, err := q.exec(ctx, `INSERT INTO notifications (player, id, kind, text, message, link, created_at, read_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 0)`,
			n.Player, n.ID, string(n.Kind), n.Text, msg, n.Link, ms(n.Time)); err != nil {
			return err
		}
		_, err := q.exec(ctx, `DELETE FROM notifications WHERE player = $1 AND id NOT IN (
			SELECT id FROM notifications WHERE player = $1 ORDER BY created_at DESC, id DESC LIMIT $2)`, n.Player, keep)
		return err
	})
	return wrapStore(err, "adding a notification")
}

// Notifications returns up to limit of player's, the newest first.
func (s sqlNotify) Notifications(ctx context.Context, player string, limit int) ([]notify.Notification, error) {
	if !validText(player) {
		return nil, nil
	}
	r, err := s.db.query(ctx, `SELECT id, kind, text, message, link, created_at, read_at FROM notifications WHERE player = $1
		ORDER BY created_at DESC, id DESC LIMIT $2`, player, limit)
	if err != nil {
		return nil, fmt.Errorf("listing notifications: %w", err)
	}
	return collect(r, func(sc scanner) (notify.Notification, error) {
		n := notify.Notification{Player: player}
		var kind, msg string
		var created, read int64
		if err := sc.Scan(&n.ID, &kind, &n.Text, &msg, &n.Link, &created, &read); err != nil {
			return n, err
		}
		n.Kind, n.Time, n.Read = notify.Kind(kind), fromMS(created), read != 0
		if msg != "" {
			if err := json.Unmarshal([]byte(msg), &n.Message); err != nil {
				return n, fmt.Errorf("notification %s's message: %w", n.ID, err)
			}
		}
		return n, nil
	})
}

// messageJSON is m as the message column keeps it: JSON, ” for none.
func messageJSON(m i18n.Message) (string, error) {
	if m.IsZero() {
		return "", nil
	}
	data, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("a notification's message: %w", err)
	}
	return string(data), nil
}

// unreadSQL counts a player's unread notifications, on the index
// notifications_unread alone.
const unreadSQL = `SELECT count(*) FROM notifications WHERE player = $1 AND read_at = 0`

// UnreadNotifications counts player's unread: one indexed count.
func (s sqlNotify) UnreadNotifications(ctx context.Context, player string) (int, error) {
	if !validText(player) {
		return 0, nil
	}
	var n int
	err := s.db.queryRow(ctx, unreadSQL, player).Scan(&n)
	return n, wrapStore(err, "counting notifications")
}

// MarkNotificationsRead marks player's of ids read, all for nil.
func (s sqlNotify) MarkNotificationsRead(ctx context.Context, player string, ids []string) error {
	if !validText(player) {
		return nil
	}
	if ids == nil {
		_, err := s.db.exec(ctx, `UPDATE notifications SET read_at = 1 WHERE player = $1 AND read_at = 0`, player)
		return wrapStore(err, "marking notifications read")
	}
	err := s.db.inTx(ctx, func(q querier) error {
		for _, id := range ids {
			if !validText(id) {
				continue
			}
			if _, err := q.exec(ctx, `UPDATE notifications SET read_at = 1 WHERE player = $1 AND id = $2`, player, id); err != nil {
				return err
			}
		}
		return nil
	})
	return wrapStore(err, "marking notifications read")
}

// NotifySettings returns player's settings.
func (s sqlNotify) NotifySettings(ctx context.Context, player string) (notify.Settings, error) {
	if !validText(player) {
		return notify.Settings{}, nil
	}
	var off string
	err := s.db.queryRow(ctx, `SELECT off FROM notify_settings WHERE player = $1`, player).Scan(&off)
	if errors.Is(err, errNoRows) {
		return notify.Settings{}, nil
	}
	return notify.ParseSettings(off), wrapStore(err, "reading notification settings")
}

// SetNotifySettings stores player's settings.
func (s sqlNotify) SetNotifySettings(ctx context.Context, player string, st notify.Settings) error {
	_, err := s.db.exec(ctx, `INSERT INTO notify_settings (player, off) VALUES ($1, $2)
		ON CONFLICT (player) DO UPDATE SET off = excluded.off`, player, strings.TrimSpace(st.String()))
	return wrapStore(err, "storing notification settings")
}
