package notify

import (
	"context"
	"slices"
	"sync"
)

// Memory is a Store in memory, for tests and the playground.
type Memory struct {
	mu       sync.Mutex
	lists    map[string][]Notification // per player, the oldest first
	settings map[string]Settings
}

// NewMemory returns an empty Memory.
func NewMemory() *Memory {
	return &Memory{lists: map[string][]Notification{}, settings: map[string]Settings{}}
}

// AddNotification stores n, keeping its player's keep newest.
func (m *Memory) AddNotification(ctx context.Context, n Notification, keep int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	l := append(m.lists[n.Player], n)
	if len(l) > keep {
		l = slices.Clone(l[len(l)-keep:])
	}
	m.lists[n.Player] = l
	return nil
}

// Notifications returns up to limit of player's, the newest first.
func (m *Memory) Notifications(ctx context.Context, player string, limit int) ([]Notification, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := slices.Clone(m.lists[player])
	slices.Reverse(l)
	return l[:min(len(l), limit)], ctx.Err()
}

// UnreadNotifications counts player's unread.
func (m *Memory) UnreadNotifications(ctx context.Context, player string) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, x := range m.lists[player] {
		if !x.Read {
			n++
		}
	}
	return n, ctx.Err()
}

// MarkNotificationsRead marks player's of ids read (all for nil).
func (m *Memory) MarkNotificationsRead(ctx context.Context, player string, ids []string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, x := range m.lists[player] {
		if ids == nil || slices.Contains(ids, x.ID) {
			m.lists[player][i].Read = true
		}
	}
	return ctx.Err()
}

// NotifySettings returns player's settings.
func (m *Memory) NotifySettings(ctx context.Context, player string) (Settings, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.settings[player], ctx.Err()
}

// SetNotifySettings stores player's settings.
func (m *Memory) SetNotifySettings(ctx context.Context, player string, s Settings) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.settings[player] = s
	return ctx.Err()
}
