package players

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/rules"
)

// Player is someone who plays: a browser or a program, anonymous until
// they choose a name. Their seats belong to them, not to a credential:
// every credential issued to them holds the same seats.
type Player struct {
	ID string
	// Name is "" until the player chooses one (see Service.Register).
	Name string
	// Password is the argon2id hash of the player's password (see package
	// password), "" while they have none. It never leaves the server.
	Password string
	Created  time.Time
	// Wins, Losses and Draws count the player's finished games against
	// another player.
	Wins, Losses, Draws int
	// Bot says the player is a bot account (Service.UpgradeToBot): a
	// program that plays through the Bot API, kept out of the lobby's
	// pools.
	Bot bool
}

// Named reports whether the player has chosen a name: only they play
// rated games.
func (p Player) Named() bool { return p.Name != "" }

// Credential is the secret that proves who a player is: a browser's
// cookie or an API client's bearer token. The server issues every one
// (see Service.NewPlayer, Service.Login) and records only its Hash, with
// the player it belongs to; a credential it did not issue proves nothing.
type Credential string

// NewCredential returns a fresh secret of 256 random bits. It proves
// nothing until it is recorded as issued to a player.
func NewCredential() Credential {
	var b [32]byte
	rand.Read(b[:]) // never fails (crypto/rand panics rather than return an error)
	return Credential(base64.RawURLEncoding.EncodeToString(b[:]))
}

// maxCredential bounds the credentials read: a longer one is not one of
// ours.
const maxCredential = 128

// Valid reports whether c could be a credential this service issued (any
// non-empty, not overlong text is looked up, so this only keeps junk out
// of the store's queries).
func (c Credential) Valid() bool { return c != "" && len(c) <= maxCredential }

// Hash is what the store keeps of a credential: its SHA-256, so the
// database holds no secret that would let its reader play.
func (c Credential) Hash() string {
	if !c.Valid() {
		return ""
	}
	sum := sha256.Sum256([]byte(c))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// CredentialKind says how a credential travels.
type CredentialKind string

// The kinds of credential.
const (
	Cookie CredentialKind = "cookie" // a browser's player cookie
	Token  CredentialKind = "token"  // an API client's bearer token
)

// Issued is a credential as the store records it.
type Issued struct {
	Hash    string // Credential.Hash
	Player  string // the id of the player it belongs to
	Kind    CredentialKind
	Created time.Time
	// Scopes limit what the credential may do; none: it is not limited.
	Scopes Scopes
}

// newPlayerID returns a fresh player id (128 random bits, URL-safe).
func newPlayerID() string {
	var b [16]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// Name and password rules.
const (
	MinName     = 2
	MaxName     = 20
	MinPassword = 8
	// MaxPassword bounds a password in bytes: a passphrase fits, and
	// hashing costs the same whatever its length.
	MaxPassword = 1024
)

// reservedNames may not be chosen, nor any name that looks like one of
// them once _ and - are left out (see reserved): names that claim to
// speak for the site or to hold a power over others, and the words the
// pages show for players without a name.
var reservedNames = [...]string{
	"admin", "administrator", "root", "system", "sysadmin", "superuser",
	"moderator", "mod", "staff", "support", "official", "owner",
	"banchess", "server",
	"anonymous", "computer", "engine", "nobody", "null", "undefined",
	DeletedName,
}

// CheckName refuses a name that breaks the rules: 2 to 20 of A–Z, a–z,
// 0–9, _ and -, with a letter or a digit among them, and not a reserved
// one. Whether it is taken, or looks like one that is, is the store's to
// say.
func CheckName(name string) error {
	if n := utf8.RuneCountInString(name); n < MinName || n > MaxName {
		return errs.Errorf(errs.Invalid, "A name is %d to %d characters long; %q has %d.", MinName, MaxName, clipName(name), n).WithDetail(errs.BadName)
	}
	alnum := false
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			alnum = true
		case r != '_' && r != '-':
			return errs.Errorf(errs.Invalid, "A name is made of letters A–Z, digits, _ and -: %q has %q.", clipName(name), r).WithDetail(errs.BadName)
		}
	}
	if !alnum {
		return errs.Errorf(errs.Invalid, "A name has a letter or a digit: %q has none.", name).WithDetail(errs.BadName)
	}
	if res := reserved(name); res != "" {
		return errs.Errorf(errs.Invalid, "%q is reserved (it reads as %q): choose another name.", name, res).WithDetail(errs.BadName)
	}
	return nil
}

// reserved returns the reserved name that name reads as, "" for none:
// the same skeleton (see Skeleton) once _ and - are left out, so that
// Admin, ADM1N, ban_chess and r00t are refused.
func reserved(name string) string {
	bare := Skeleton(strings.NewReplacer("_", "", "-", "").Replace(name))
	for _, res := range reservedNames {
		if Skeleton(res) == bare {
			return res
		}
	}
	return ""
}

// Skeleton is the form of a name that names that look alike share: in
// lower case, with i, l, 1 and | as l, o and 0 as o, rn as m and vv as w.
// No two players' names have one skeleton (the store keeps them unique),
// so that CarIsen cannot pass for Carlsen. Case is folded first, so a
// lower-case i reads as l too: Kevin and Kevln look alike. Names equal in
// any case share their skeleton. The store's migration
// players_name_skeleton computes it in SQL the same way.
func Skeleton(name string) string {
	s := strings.NewReplacer("1", "l", "|", "l", "i", "l", "0", "o").Replace(strings.ToLower(name))
	return strings.ReplaceAll(strings.ReplaceAll(s, "rn", "m"), "vv", "w")
}

// LooksLike refuses name, which looks like other, another player's name
// ("" when the store could not say whose).
func LooksLike(name, other string) *errs.Error {
	whose := "another player's name"
	if other != "" {
		whose = other + ", another player's name"
	}
	return errs.Errorf(errs.Conflict, "The name %s looks too much like %s (I, l, 1; O, 0; rn, m; vv, w and letters in any case are taken for one another): choose another.",
		name, whose).WithDetail(errs.NameLookAlike)
}

// NameKey is the form of a name that two names equal in any case share:
// the store keeps names unique by it.
func NameKey(name string) string { return strings.ToLower(name) }

// clipName shortens a name a refusal quotes.
func clipName(name string) string { return rules.ClipTo(name, MaxName) }

// CheckPassword refuses a password too short or too long.
func CheckPassword(pw string) error {
	switch {
	case utf8.RuneCountInString(pw) < MinPassword:
		return errs.Errorf(errs.Invalid, "A password is at least %d characters long.", MinPassword).WithDetail(errs.BadPassword)
	case len(pw) > MaxPassword:
		return errs.Errorf(errs.Invalid, "A password is at most %d bytes long.", MaxPassword).WithDetail(errs.BadPassword)
	}
	return nil
}
