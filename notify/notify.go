// Package notify keeps each named player's notifications: their turn in a
// correspondence game, a game that ended, a challenge, a tournament
// starting, a forecast played for them. Services tell it of their events
// through the callbacks main wires (games.WithChanges,
// challenges.WithNotices, tournament.WithStarted); a player's own action
// never notifies them.
package notify

import (
	"context"
	"crypto/rand"
	"slices"
	"strings"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/i18n"
)

// Kind is what a notification is about.
type Kind string

// The kinds of notification.
const (
	YourTurn           Kind = "yourTurn"
	GameEnded          Kind = "gameEnded"
	Challenge          Kind = "challenge"
	TournamentStarting Kind = "tournamentStarting"
	ForecastUsed       Kind = "forecastUsed"
)

// Kinds returns every kind, in the order the settings list them.
func Kinds() []Kind { return []Kind{YourTurn, GameEnded, Challenge, TournamentStarting, ForecastUsed} }

// Notification is one thing a player is told.
type Notification struct {
	ID     string `json:"id"`
	Player string `json:"-"` // whose: a player's id
	Kind   Kind   `json:"kind"`
	Text   string `json:"text"` // in English
	// Message is the text as a message, said in the reader's language
	// (Say); zero for a notification stored before messages were kept.
	Message i18n.Message `json:"message,omitzero"`
	Link    string       `json:"link"` // a path on the site
	Time    time.Time    `json:"time"`
	Read    bool         `json:"read"`
}

// Say is the notification's text in l: its message, or the text it was
// stored with when it kept none.
func (n Notification) Say(l *i18n.Language) string {
	if n.Message.IsZero() {
		return n.Text
	}
	return l.Say(n.Message)
}

// Settings say which kinds a player is not told of.
type Settings struct {
	Off []Kind `json:"off"`
}

// Notifies reports whether the settings let kind notify.
func (s Settings) Notifies(k Kind) bool { return !slices.Contains(s.Off, k) }

// String is the settings as stored: the kinds off, joined by commas.
func (s Settings) String() string {
	parts := make([]string, len(s.Off))
	for i, k := range s.Off {
		parts[i] = string(k)
	}
	return strings.Join(parts, ",")
}

// ParseSettings reads settings as String wrote them, dropping unknown kinds.
func ParseSettings(s string) Settings {
	var out Settings
	for _, p := range strings.Split(s, ",") {
		if k := Kind(p); slices.Contains(Kinds(), k) && !slices.Contains(out.Off, k) {
			out.Off = append(out.Off, k)
		}
	}
	return out
}

// Store keeps notifications and settings. Notifications lists the newest
// first.
type Store interface {
	// AddNotification stores n and keeps only the keep newest of its
	// player's.
	AddNotification(ctx context.Context, n Notification, keep int) error
	Notifications(ctx context.Context, player string, limit int) ([]Notification, error)
	// UnreadNotifications counts player's unread notifications.
	UnreadNotifications(ctx context.Context, player string) (int, error)
	// MarkNotificationsRead marks player's notifications of ids read, or
	// all of them when ids is nil.
	MarkNotificationsRead(ctx context.Context, player string, ids []string) error
	NotifySettings(ctx context.Context, player string) (Settings, error)
	SetNotifySettings(ctx context.Context, player string, s Settings) error
}

// Keep is how many notifications a player keeps: older ones are dropped.
const Keep = 100

// MaxIDs is how many ids one call marks read.
const MaxIDs = Keep

// newID returns a fresh notification id.
func newID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b [10]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b[:])
}

// badKind refuses a kind that is not one.
func badKind(k string) error {
	return errs.Errorf(errs.Invalid, "%q is not a kind of notification.", k).WithDetail(errs.BadNotification)
}
