package players

import (
	"context"
	"slices"
	"strings"

	"github.com/banchess/banchess/errs"
)

// Scope names one thing a limited token may do, as lichess's OAuth scopes
// do.
type Scope string

// The scopes a token may be limited to.
const (
	// BotPlay plays games as a bot account (the Bot API).
	BotPlay Scope = "bot:play"
	// BoardPlay plays games from a board or another client (the Board API).
	BoardPlay Scope = "board:play"
	// ChallengeWrite makes, accepts and declines challenges.
	ChallengeWrite Scope = "challenge:write"
)

// AllScopes lists the scopes there are, in the order they are written.
func AllScopes() Scopes { return Scopes{BotPlay, BoardPlay, ChallengeWrite} }

// Scopes are the scopes a credential is limited to; none means it is not
// limited: it may do whatever its player may (a browser's cookie, a token
// made without scopes).
type Scopes []Scope

// ParseScopes reads scopes given by name, each once; it refuses an
// unknown one (Invalid, detail bad_scope) and an empty list: a token
// limited to nothing could do nothing.
func ParseScopes(names []string) (Scopes, error) {
	if len(names) == 0 {
		return nil, errs.Errorf(errs.Invalid, "Name at least one scope (%s), or send no \"scopes\" for a token that is not limited.", scopeList()).WithDetail(errs.BadScope)
	}
	var out Scopes
	for _, n := range names {
		s := Scope(strings.TrimSpace(n))
		if !slices.Contains(AllScopes(), s) {
			return nil, errs.Errorf(errs.Invalid, "%q is not a scope: the scopes are %s.", clipName(n), scopeList()).WithDetail(errs.BadScope)
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out, nil
}

// scopeList names the scopes for a message.
func scopeList() string { return strings.Join(ScopeNames(), ", ") }

// Limited reports whether the credential is limited to its scopes.
func (ss Scopes) Limited() bool { return len(ss) > 0 }

// Allow reports whether a credential of these scopes may do what needs
// scope: it is not limited, or scope is among them.
func (ss Scopes) Allow(scope Scope) bool { return !ss.Limited() || slices.Contains(ss, scope) }

// String writes the scopes space-separated, as the store keeps them and
// lichess's X-OAuth-Scopes header lists them ("" when not limited).
func (ss Scopes) String() string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = string(s)
	}
	return strings.Join(names, " ")
}

// ScopesOf reads scopes as String wrote them; a name it does not know is
// dropped (a scope a newer server wrote grants nothing here).
func ScopesOf(text string) Scopes {
	var out Scopes
	for _, f := range strings.Fields(text) {
		if s := Scope(f); slices.Contains(AllScopes(), s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 && strings.TrimSpace(text) != "" {
		// Every scope it named is unknown here: it may do nothing, not
		// everything.
		return Scopes{""}
	}
	return out
}

// Grant is what a credential holds: its player, and the scopes it is
// limited to.
type Grant struct {
	Player string // "" when the server did not issue it, or it was revoked
	Scopes Scopes
}

// Grant returns whose cred is and what it may do. Unlike PlayerID it
// always asks the store: only the routes limited by scope need it.
func (s *Service) Grant(ctx context.Context, cred Credential) (Grant, error) {
	hash := cred.Hash()
	if hash == "" {
		return Grant{}, nil
	}
	iss, ok, err := s.store.Credential(ctx, hash)
	if err != nil {
		return Grant{}, errs.FromStore(err)
	}
	if !ok {
		return Grant{}, nil
	}
	return Grant{Player: iss.Player, Scopes: iss.Scopes}, nil
}

// AlreadyBot refuses to make a bot account of one already.
func AlreadyBot() *errs.Error {
	return errs.Errorf(errs.Forbidden, "This account is a bot account already.").WithDetail(errs.BotNotAllowed)
}

// PlayedRated refuses to make a bot account of a player who has played
// rated games (as lichess refuses an account that has played).
func PlayedRated() *errs.Error {
	return errs.Errorf(errs.Forbidden, "This account has played rated games: only a new account can become a bot account.").WithDetail(errs.BotNotAllowed)
}

// UpgradeToBot makes cred's player a bot account: a named player who has
// played no rated game. It answers the player as they are now.
func (s *Service) UpgradeToBot(ctx context.Context, cred Credential) (Player, error) {
	p, err := s.Identify(ctx, cred)
	switch {
	case err != nil:
		return Player{}, err
	case p.ID == "":
		return Player{}, Unissued()
	case !p.Named():
		return Player{}, errs.Errorf(errs.Forbidden, "Only a named account can become a bot account: choose a name first.").WithDetail(errs.NameNeeded)
	}
	if err := s.store.SetBot(ctx, p.ID); err != nil {
		return Player{}, errs.FromStore(err)
	}
	p.Bot = true
	return p, nil
}

// IssueToken issues cred's player, a named one, a new bearer token
// limited to scopes (none: not limited): the account page's, for a bot or
// a board.
func (s *Service) IssueToken(ctx context.Context, cred Credential, scopes Scopes) (Credential, error) {
	p, err := s.Identify(ctx, cred)
	switch {
	case err != nil:
		return "", err
	case p.ID == "":
		return "", Unissued()
	case !p.Named():
		return "", errs.Errorf(errs.Forbidden, "Choose a name first: a token is a named account's.").WithDetail(errs.NameNeeded)
	}
	tok := NewCredential()
	if err := s.store.Issue(ctx, Issued{Hash: tok.Hash(), Player: p.ID, Kind: Token, Created: s.now(), Scopes: scopes}); err != nil {
		return "", errs.FromStore(err)
	}
	return tok, nil
}

// ScopeNames are the names of the scopes there are, in order.
func ScopeNames() []string {
	all := AllScopes()
	names := make([]string, len(all))
	for i, s := range all {
		names[i] = string(s)
	}
	return names
}
