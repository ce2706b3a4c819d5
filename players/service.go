package players

import (
	"context"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/password"
	"github.com/banchess/banchess/rating"
)

// Service keeps players: it issues their credentials and tells whose a
// credential is, gives them names and passwords and signs them in, and
// reads their standings and finished games.
type Service struct {
	store     Store
	now       func() time.Time
	passwords Passwords
	creds     credentialCache
	devices   deviceKey
	safety    SafetyStore // nil: no recovery codes, no closed accounts
	blocks    BlockQuery  // nil: no one blocks anyone
	// signupsPerHour bounds the sign-ups from one address in an hour; 0:
	// no bound.
	signupsPerHour int
}

// Option configures a Service.
type Option func(*Service)

// WithClock makes the service read the time from now; the default is
// time.Now.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithPasswords makes the service hash passwords with h (the default:
// password.Default, as many at once as there are CPUs).
func WithPasswords(h Passwords) Option { return func(s *Service) { s.passwords = h } }

// WithSignupsPerHour limits the sign-ups from one client address to n an
// hour, on every server sharing the store together (0, the default: no
// limit).
func WithSignupsPerHour(n int) Option { return func(s *Service) { s.signupsPerHour = n } }

// New returns a service keeping its players in store.
func New(store Store, opts ...Option) *Service {
	s := &Service{store: store, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	if s.passwords == nil {
		s.passwords = password.NewHasher(password.Default, runtime.NumCPU())
	}
	return s
}

// Passwords hash players' passwords and check them (see package
// password).
type Passwords interface {
	Hash(ctx context.Context, pw string) (string, error)
	// Check reports whether pw is the password encoded hashes; encoded ""
	// (no such player) takes as long, and is false.
	Check(ctx context.Context, encoded, pw string) (bool, error)
}

// NewPlayer issues a credential of kind to a new anonymous player and
// returns both.
func (s *Service) NewPlayer(ctx context.Context, kind CredentialKind) (Credential, Player, error) {
	return s.addPlayer(ctx, kind, Player{})
}

// addPlayer stores p, given a fresh id, with a fresh credential of kind.
func (s *Service) addPlayer(ctx context.Context, kind CredentialKind, p Player) (Credential, Player, error) {
	now := s.now()
	p.ID, p.Created = newPlayerID(), now
	cred := NewCredential()
	if err := s.store.AddPlayer(ctx, p, Issued{Hash: cred.Hash(), Player: p.ID, Kind: kind, Created: now}); err != nil {
		return "", Player{}, errs.FromStore(err)
	}
	return cred, p, nil
}

// PlayerID returns the id of the player cred was issued to, "" when the
// server did not issue it or revoked it. It asks the store only for a
// credential it has not seen lately.
func (s *Service) PlayerID(ctx context.Context, cred Credential) (string, error) {
	return s.holder(ctx, cred)
}

// Identify returns the player cred was issued to, or the zero Player (ID
// "") when the server did not issue it or it was revoked.
func (s *Service) Identify(ctx context.Context, cred Credential) (Player, error) {
	id, err := s.holder(ctx, cred)
	if err != nil || id == "" {
		return Player{}, err
	}
	p, err := s.store.Player(ctx, id)
	if isNotFound(err) {
		return Player{}, nil
	}
	if err != nil {
		return Player{}, errs.FromStore(err)
	}
	return p, nil
}

// unissued refuses a credential the server did not issue, or revoked.
func Unissued() *errs.Error {
	return errs.Errorf(errs.Unauthorized, "This credential was not issued by this server, or was signed out: sign in again, or send none to play as a new anonymous player.")
}

// SignOut revokes cred: this device or program is no longer its player.
// The player's other credentials keep working.
func (s *Service) SignOut(ctx context.Context, cred Credential) error {
	return s.revoke(ctx, cred, false)
}

// SignOutEverywhere revokes every credential of cred's player.
func (s *Service) SignOutEverywhere(ctx context.Context, cred Credential) error {
	return s.revoke(ctx, cred, true)
}

func (s *Service) revoke(ctx context.Context, cred Credential, all bool) error {
	player, err := s.holder(ctx, cred)
	if err != nil {
		return err
	}
	if player == "" {
		return nil // nothing to sign out of
	}
	if err := s.store.Revoke(ctx, cred.Hash(), all); err != nil {
		return errs.FromStore(err)
	}
	if all {
		s.Notice(NoticeSignedOut(player))
	} else {
		s.Notice(NoticeRevoked(cred.Hash()))
	}
	return nil
}

// Named returns the player whose name is name, in any case.
func (s *Service) Named(ctx context.Context, name string) (Player, error) {
	if CheckName(name) != nil {
		return Player{}, noPlayer(name)
	}
	p, err := s.store.PlayerNamed(ctx, name)
	if isNotFound(err) {
		return Player{}, noPlayer(name)
	}
	if err != nil {
		return Player{}, errs.FromStore(err)
	}
	return p, nil
}

func noPlayer(name string) *errs.Error {
	return errs.Errorf(errs.NotFound, "No player is called %q.", clipName(name)).WithDetail(errs.NoPlayer)
}

// Standings returns the player's standings, each with its Rating as it
// stands now (its deviation grown with the time since Last).
func (s *Service) Standings(ctx context.Context, player string) ([]Standing, error) {
	list, err := s.store.Standings(ctx, player)
	if err != nil {
		return nil, errs.FromStore(err)
	}
	now := s.now()
	for i := range list {
		list[i].Rating = list[i].At(now)
	}
	return list, nil
}

// PlayedGames returns up to limit of the player's finished games that
// ended before the cursor (the zero cursor: the newest), newest first.
func (s *Service) PlayedGames(ctx context.Context, player string, before PlayedGamesCursor, limit int) ([]PlayedGame, error) {
	list, err := s.store.PlayedGames(ctx, player, before, limit)
	if err != nil {
		return nil, errs.FromStore(err)
	}
	return list, nil
}

// PlayedGame returns game as the player's list of finished games records
// it (with the ratings before and after a rated game), and whether it
// does: a game being played, or one that recorded no result, is in no
// list.
func (s *Service) PlayedGame(ctx context.Context, player, game string) (PlayedGame, bool, error) {
	g, ok, err := s.store.PlayedGame(ctx, player, game)
	if err != nil {
		return PlayedGame{}, false, errs.FromStore(err)
	}
	return g, ok, nil
}

// Leaders are the top players of a speed: those with at least LeaderGames
// rated games, up to LeaderCount.
const (
	LeaderGames = 10
	LeaderCount = 50
)

// Leaders returns the highest rated players of variant at speed, each
// standing's Rating as it stands now.
func (s *Service) Leaders(ctx context.Context, variant string, speed rating.Speed) ([]Leader, error) {
	list, err := s.store.Leaders(ctx, variant, speed, LeaderGames, LeaderCount)
	if err != nil {
		return nil, errs.FromStore(err)
	}
	if len(list) < LeaderCount {
		// Below the established, those with fewer games (Leader.Established
		// tells them apart): a new site's list is not empty.
		all, err := s.store.Leaders(ctx, variant, speed, 1, LeaderCount+len(list))
		if err != nil {
			return nil, errs.FromStore(err)
		}
		for _, l := range all {
			if l.Standing.Games < LeaderGames && len(list) < LeaderCount {
				list = append(list, l)
			}
		}
	}
	now := s.now()
	for i := range list {
		list[i].Standing.Rating = list[i].Standing.At(now)
	}
	return list, nil
}

// Store keeps players, the credentials issued to them, their results and
// ratings, and sign-in attempts. Errors for an unknown player are *Error
// with Code NotFound.
type Store interface {
	// AddPlayer stores a new player with its first credential.
	AddPlayer(ctx context.Context, p Player, cred Issued) error
	// Issue records another credential of an existing player.
	Issue(ctx context.Context, cred Issued) error
	// CredentialPlayer returns the id of the player the credential of hash
	// was issued to, or "" when none was (or it was revoked).
	CredentialPlayer(ctx context.Context, hash string) (string, error)
	// Credential returns the credential of hash as issued, and whether
	// there is one (not revoked).
	Credential(ctx context.Context, hash string) (Issued, bool, error)
	// SetBot makes the player of id a bot account, unless they are one
	// already or have played a rated game: then Forbidden, detail
	// bot_not_allowed, and nothing changes.
	SetBot(ctx context.Context, id string) error
	// Revoke forgets the credential of hash or, with all, every credential
	// of its player.
	Revoke(ctx context.Context, hash string, all bool) error
	// Player returns the player of id.
	Player(ctx context.Context, id string) (Player, error)
	// PlayerNamed returns the player whose name is name in any case.
	PlayerNamed(ctx context.Context, name string) (Player, error)
	// PlayerLike returns the player whose name looks like name: its
	// skeleton (Skeleton) is name's.
	PlayerLike(ctx context.Context, name string) (Player, error)
	// SetName gives a player, still unnamed, its name and the hash of its
	// password, issues it a new credential and revokes the one it
	// replaces, in one step: Conflict with detail "name_taken" when
	// another player has the name in any case, "name_look_alike" when
	// another's looks like it (Skeleton), "named" when the player has one
	// already (then nothing changes). Of two players named alike at once,
	// one is refused. AddPlayer refuses names as SetName does.
	SetName(ctx context.Context, n Naming) error
	// Standings returns the player's standings, one for each variant and
	// speed they played rated games of.
	Standings(ctx context.Context, id string) ([]Standing, error)
	// Standing returns the player's standing in variant at speed
	// (NewStanding when they have none).
	Standing(ctx context.Context, id, variant string, speed rating.Speed) (Standing, error)
	// PlayedGames returns up to limit of the player's finished games that
	// ended before the cursor, newest first.
	PlayedGames(ctx context.Context, id string, before PlayedGamesCursor, limit int) ([]PlayedGame, error)
	// PlayedGame returns the entry of game in the player's list of
	// finished games, and whether there is one.
	PlayedGame(ctx context.Context, id, game string) (PlayedGame, bool, error)
	// Leaders returns up to limit players with at least minGames rated
	// games of variant at speed, the highest rated first.
	Leaders(ctx context.Context, variant string, speed rating.Speed, minGames, limit int) ([]Leader, error)
	// StartAttempt counts attempt under each of its counters' keys,
	// unless one of them counts its Max attempts already: then it counts
	// nothing and says which (Refused). The check and the count are one
	// atomic step, among the servers sharing the store too. It forgets
	// attempts that no longer count.
	StartAttempt(ctx context.Context, attempt Attempt) (*Refused, error)
	// ForgetAttempt forgets attempt: it counts no more (a sign-in whose
	// password was right).
	ForgetAttempt(ctx context.Context, attempt Attempt) error
	// ServerKey returns the secret named name that the servers sharing the
	// store share, made of 32 random bytes when first asked for.
	ServerKey(ctx context.Context, name string) ([]byte, error)
}

// Naming is a player's sign-up as the store records it (Store.SetName).
type Naming struct {
	// Player is the id of the player named.
	Player         string
	Name, Password string
	// Issued is the player's new credential.
	Issued Issued
	// Revoked is the hash of the credential it replaces.
	Revoked string
}

// Player returns the player of id.
func (s *Service) Player(ctx context.Context, id string) (Player, error) {
	p, err := s.store.Player(ctx, id)
	if err != nil {
		return Player{}, errs.FromStore(err)
	}
	return p, nil
}

// Standing returns the player's standing in variant at speed, as the
// store keeps it (NewStanding when they have none).
func (s *Service) Standing(ctx context.Context, id, variant string, speed rating.Speed) (Standing, error) {
	st, err := s.store.Standing(ctx, id, variant, speed)
	if err != nil {
		return Standing{}, errs.FromStore(err)
	}
	return st, nil
}

// isNotFound reports whether err is a NotFound refusal.
func isNotFound(err error) bool { return err != nil && errs.Of(err).Code == errs.NotFound }

// seconds rounds d up to whole seconds, at least 1.
func seconds(d time.Duration) int { return max(1, int(math.Ceil(d.Seconds()))) }

// Notices that servers sharing a store tell each other of credentials
// (see Service.Notice).
const (
	noticeRevoked   = "revoked:"
	noticeSignedOut = "signedout:"
)

// NoticeDeaf is the notice a server's listener gives itself when it stops
// hearing the others' notices (its connection lost, or not yet made): until
// the notice "" says it hears them again, revocations made elsewhere may
// go unheard, so no credential is trusted from memory.
const NoticeDeaf = "deaf"

// NoticeRevoked says the credential of hash was revoked.
func NoticeRevoked(hash string) string { return noticeRevoked + hash }

// NoticeSignedOut says every credential of player was revoked.
func NoticeSignedOut(player string) string { return noticeSignedOut + player }

// Notice acts on a notice from a server sharing the store (this one
// included): it forgets revoked credentials. NoticeDeaf says notices are
// not heard (the listener's connection is lost): every credential is
// forgotten, and none is remembered until the notice "", which says
// notices are heard again after some may have been missed: every
// credential is forgotten once more, and they are remembered again.
func (s *Service) Notice(n string) {
	switch {
	case n == NoticeDeaf:
		s.creds.deafen()
	case n == "":
		s.creds.flush()
	case strings.HasPrefix(n, noticeRevoked):
		s.creds.forget(strings.TrimPrefix(n, noticeRevoked))
	case strings.HasPrefix(n, noticeSignedOut):
		s.creds.forgetPlayer(strings.TrimPrefix(n, noticeSignedOut))
	}
}
