package notify

import (
	"context"
	"slices"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/players"
)

// Players says who a credential's player is and whether a player has a
// name (players.Service).
type Players interface {
	Identify(ctx context.Context, cred players.Credential) (players.Player, error)
	Player(ctx context.Context, id string) (players.Player, error)
}

// Service keeps named players' notifications.
type Service struct {
	store   Store
	players Players
	now     func() time.Time
}

// Option configures a Service.
type Option func(*Service)

// WithClock makes the service read the time from now (time.Now by
// default).
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// New returns the notifications kept in store, for the players of p.
func New(store Store, p Players, opts ...Option) *Service {
	s := &Service{store: store, players: p, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Tell notifies player (an id) of kind, with msg (said in the reader's
// language; kept in English as the text too) and a link, unless the
// player has no name or turned kind off. Failures are returned for the
// caller to log: an event never fails for its notification.
func (s *Service) Tell(ctx context.Context, player string, kind Kind, msg i18n.Message, link string) error {
	if player == "" {
		return nil
	}
	p, err := s.players.Player(ctx, player)
	if err != nil || !p.Named() {
		return err
	}
	st, err := s.store.NotifySettings(ctx, player)
	if err != nil || !st.Notifies(kind) {
		return storeErr(err)
	}
	n := Notification{ID: newID(), Player: player, Kind: kind, Text: msg.String(), Message: msg, Link: link, Time: s.now()}
	return storeErr(s.store.AddNotification(ctx, n, Keep))
}

// viewer is cred's player's id, "" for no named player.
func (s *Service) viewer(ctx context.Context, cred players.Credential) (string, error) {
	if cred == "" {
		return "", nil
	}
	p, err := s.players.Identify(ctx, cred)
	if err != nil || !p.Named() {
		return "", err
	}
	return p.ID, nil
}

// named is cred's named player's id, or a refusal.
func (s *Service) named(ctx context.Context, cred players.Credential) (string, error) {
	id, err := s.viewer(ctx, cred)
	if err == nil && id == "" {
		err = errs.Errorf(errs.Forbidden, "Notifications are for players with a name: sign in, or choose one on your account page.").WithDetail(errs.NameNeeded)
	}
	return id, err
}

// Inbox is a player's notifications, the newest first, and how many are
// unread.
type Inbox struct {
	Notifications []Notification `json:"notifications"`
	Unread        int            `json:"unread"`
}

// Inbox returns cred's player's notifications.
func (s *Service) Inbox(ctx context.Context, cred players.Credential) (Inbox, error) {
	id, err := s.named(ctx, cred)
	if err != nil {
		return Inbox{}, err
	}
	list, err := s.store.Notifications(ctx, id, Keep)
	if err != nil {
		return Inbox{}, storeErr(err)
	}
	in := Inbox{Notifications: list}
	if in.Notifications == nil {
		in.Notifications = []Notification{}
	}
	for _, n := range list {
		if !n.Read {
			in.Unread++
		}
	}
	return in, nil
}

// Unread counts cred's player's unread notifications, and says whether
// cred's is a named player (false: no bell to show). One indexed count,
// for every page's header.
func (s *Service) Unread(ctx context.Context, cred players.Credential) (int, bool, error) {
	id, err := s.viewer(ctx, cred)
	if err != nil || id == "" {
		return 0, false, err
	}
	n, err := s.store.UnreadNotifications(ctx, id)
	return n, true, storeErr(err)
}

// MarkRead marks cred's player's notifications of ids read, all of them
// when ids is nil.
func (s *Service) MarkRead(ctx context.Context, cred players.Credential, ids []string) error {
	id, err := s.named(ctx, cred)
	if err != nil {
		return err
	}
	if ids != nil && (len(ids) == 0 || len(ids) > MaxIDs) {
		return errs.Errorf(errs.Invalid, "Give from 1 to %d ids to mark read, or none to mark all.", MaxIDs).WithDetail(errs.BadNotification)
	}
	return storeErr(s.store.MarkNotificationsRead(ctx, id, ids))
}

// Settings returns cred's player's settings.
func (s *Service) Settings(ctx context.Context, cred players.Credential) (Settings, error) {
	id, err := s.named(ctx, cred)
	if err != nil {
		return Settings{}, err
	}
	st, err := s.store.NotifySettings(ctx, id)
	return st, storeErr(err)
}

// SetSettings turns on exactly the kinds on for cred's player, refusing
// an unknown kind.
func (s *Service) SetSettings(ctx context.Context, cred players.Credential, on []string) error {
	id, err := s.named(ctx, cred)
	if err != nil {
		return err
	}
	for _, k := range on {
		if !slices.Contains(Kinds(), Kind(k)) {
			return badKind(k)
		}
	}
	var st Settings
	for _, k := range Kinds() {
		if !slices.Contains(on, string(k)) {
			st.Off = append(st.Off, k)
		}
	}
	return storeErr(s.store.SetNotifySettings(ctx, id, st))
}

// storeErr is a store's failure as a refusal, nil for none.
func storeErr(err error) error {
	if err == nil {
		return nil
	}
	return errs.FromStore(err)
}
