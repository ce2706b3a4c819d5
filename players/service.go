package players

import (
	"context"
	"errors"
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
}

// Option configures a Service.
type Option func(*Service)

// WithClock makes the service read the time from now; the default is
// time.Now.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithPasswords makes the service hash passwords with h (the default:
// password.Default, as many at once as there are CPUs).
func WithPasswords(h Passwords) Option { return func(s *Service) { s.passwords = h } }

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

// Failed logins are limited per name and per client address: at most
// MaxFailedLogins in any LoginWindow, then TooMany until the oldest of
// them leaves the window.
const (
	MaxFailedLogins = 5
	LoginWindow     = time.Minute
)

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

// Register gives a player a name and a password: cred's player, which
// must have no name yet, or with no cred a new player, issued a
// credential of kind. It returns the player's credential (cred, or the
// new one) and the player.
func (s *Service) Register(ctx context.Context, cred Credential, kind CredentialKind, name, pw string) (Credential, Player, error) {
	if err := CheckName(name); err != nil {
		return "", Player{}, err
	}
	if err := CheckPassword(pw); err != nil {
		return "", Player{}, err
	}
	var p Player
	if cred != "" {
		var err error
		if p, err = s.Identify(ctx, cred); err != nil {
			return "", Player{}, err
		}
		switch {
		case p.ID == "":
			return "", Player{}, Unissued()
		case p.Named():
			return "", Player{}, errs.Errorf(errs.Conflict, "You have a name already: %s.", p.Name).WithDetail(errs.Named)
		}
	}
	hash, err := s.passwords.Hash(ctx, pw)
	if err != nil {
		return "", Player{}, errs.Of(err)
	}
	if p.ID == "" {
		return s.addPlayer(ctx, kind, Player{Name: name, Password: hash})
	}
	if err := s.store.SetName(ctx, p.ID, name, hash); err != nil {
		return "", Player{}, errs.FromStore(err)
	}
	p.Name, p.Password = name, hash
	return cred, p, nil
}

// unissued refuses a credential the server did not issue, or revoked.
func Unissued() *errs.Error {
	return errs.Errorf(errs.Unauthorized, "This credential was not issued by this server, or was signed out: sign in again, or send none to play as a new anonymous player.")
}

// Login checks a player's name and password and issues them a new
// credential of kind: a second device, or a program's new token. client
// is the address asking; failed logins are limited per name and per
// address (TooMany with RetryAfter), and a name that does not exist costs
// as long to refuse as a wrong password.
//
// Each attempt is counted before its password is checked, in one step of
// the store with the check of the limit, and forgotten once it succeeds:
// concurrent guesses are counted one after another, so no more than
// MaxFailedLogins of them are checked in a LoginWindow.
func (s *Service) Login(ctx context.Context, name, pw, client string, kind CredentialKind) (Credential, Player, error) {
	now := s.now()
	attempt := LoginAttempt{ID: newPlayerID(), Keys: []string{"name:" + NameKey(clipName(name)), "addr:" + client}, At: now}
	// An attempt counts for LoginWindow, to the millisecond the store
	// keeps: not at its end.
	failed, err := s.store.StartLogin(ctx, attempt, now.Add(-LoginWindow+time.Millisecond), MaxFailedLogins)
	if err != nil {
		return "", Player{}, errs.FromStore(err)
	}
	if len(failed) >= MaxFailedLogins {
		wait := failed[len(failed)-MaxFailedLogins].Add(LoginWindow).Sub(now)
		e := errs.Errorf(errs.TooMany, "Too many failed sign-ins for this name or from this address: try again in %d s.", seconds(wait)).WithDetail(errs.TooManyLogins)
		e.RetryAfter = wait
		return "", Player{}, e
	}
	p, err := s.store.PlayerNamed(ctx, name)
	if err != nil && !isNotFound(err) {
		return "", Player{}, errs.FromStore(err)
	}
	if len(pw) > MaxPassword {
		pw = pw[:MaxPassword] // refused below all the same, at the usual cost
	}
	ok, err := s.passwords.Check(ctx, p.Password, pw)
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return "", Player{}, errs.Internalf(err, "checking the password of %q", p.ID)
	}
	if err != nil {
		return "", Player{}, errs.Of(err)
	}
	if !ok {
		// The attempt counted stays counted: a failure.
		return "", Player{}, errs.Errorf(errs.Unauthorized, "The name or the password is wrong.").WithDetail(errs.BadLogin)
	}
	if err := s.store.ForgetLogin(ctx, attempt); err != nil {
		return "", Player{}, errs.FromStore(err)
	}
	cred := NewCredential()
	if err := s.store.Issue(ctx, Issued{Hash: cred.Hash(), Player: p.ID, Kind: kind, Created: now}); err != nil {
		return "", Player{}, errs.FromStore(err)
	}
	return cred, p, nil
}

// LoginAttempt is a sign-in attempt as the store counts it: under each of
// its keys (the name's and the client address's), from At until it leaves
// the window, unless it is forgotten because it succeeded.
type LoginAttempt struct {
	// ID tells the attempt from others under the same keys at the same
	// time, to forget it.
	ID   string
	Keys []string
	At   time.Time
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
	// Revoke forgets the credential of hash or, with all, every credential
	// of its player.
	Revoke(ctx context.Context, hash string, all bool) error
	// Player returns the player of id.
	Player(ctx context.Context, id string) (Player, error)
	// PlayerNamed returns the player whose name is name in any case.
	PlayerNamed(ctx context.Context, name string) (Player, error)
	// SetName gives player id, still unnamed, its name and the hash of its
	// password: Conflict with detail "name_taken" when another player has
	// the name in any case, "named" when the player has one already.
	SetName(ctx context.Context, id, name, password string) error
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
	// StartLogin counts attempt under each of its keys, unless one of them
	// counts limit attempts since since already: then it counts nothing
	// and returns when that key's attempts since since were, oldest first
	// (at least limit of them). The check and the count are one atomic
	// step, among the servers sharing the store too. It forgets attempts
	// made before since.
	StartLogin(ctx context.Context, attempt LoginAttempt, since time.Time, limit int) (refused []time.Time, err error)
	// ForgetLogin forgets attempt, which succeeded: it counts no more.
	ForgetLogin(ctx context.Context, attempt LoginAttempt) error
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

// NoticeRevoked says the credential of hash was revoked.
func NoticeRevoked(hash string) string { return noticeRevoked + hash }

// NoticeSignedOut says every credential of player was revoked.
func NoticeSignedOut(player string) string { return noticeSignedOut + player }

// Notice acts on a notice from a server sharing the store (this one
// included): it forgets revoked credentials. The notice "" says notices
// may have been missed: every credential is forgotten.
func (s *Service) Notice(n string) {
	switch {
	case n == "":
		s.creds.flush()
	case strings.HasPrefix(n, noticeRevoked):
		s.creds.forget(strings.TrimPrefix(n, noticeRevoked))
	case strings.HasPrefix(n, noticeSignedOut):
		s.creds.forgetPlayer(strings.TrimPrefix(n, noticeSignedOut))
	}
}
