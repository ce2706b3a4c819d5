package games

import (
	"context"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/players"
)

// TurnStore finds a player's games in play by whose turn it is
// (Record.ToAct). Every store implements it beside GameStore.
type TurnStore interface {
	// Ongoing returns up to limit of the games in play against someone
	// (not hot-seat games) in which holder holds a seat and that it has
	// not hidden: those awaiting holder first, then the most recently
	// updated.
	Ongoing(ctx context.Context, holder string, limit int) ([]Summary, error)
	// Awaiting counts the games awaiting holder (Record.ToAct): one
	// indexed read.
	Awaiting(ctx context.Context, holder string) (int, error)
}

// Turns are a player's games in play and those awaiting them, for the
// list of a player's games (/games) and the count every page's header
// shows.
type Turns struct{ s *Service }

// TurnsOf returns the turns of s's games. A store without TurnStore lists
// and counts none.
func TurnsOf(s *Service) Turns { return Turns{s} }

// Ongoing returns up to limit of cred's games in play against someone,
// those where it is their turn first (TurnStore.Ongoing); none for a
// credential that holds nothing.
func (t Turns) Ongoing(ctx context.Context, cred players.Credential, limit int) ([]Summary, error) {
	holder, st, err := t.of(ctx, cred)
	if err != nil || st == nil {
		return nil, err
	}
	list, err := st.Ongoing(ctx, holder, limit)
	if err != nil {
		return nil, errs.Internalf(err, "listing games in play")
	}
	return list, nil
}

// Awaiting counts cred's games in which it is their turn (Record.ToAct).
func (t Turns) Awaiting(ctx context.Context, cred players.Credential) (int, error) {
	holder, st, err := t.of(ctx, cred)
	if err != nil || st == nil {
		return 0, err
	}
	n, err := st.Awaiting(ctx, holder)
	if err != nil {
		return 0, errs.Internalf(err, "counting the games awaiting a player")
	}
	return n, nil
}

// of returns cred's holder and the store's TurnStore; nil when there is
// nothing to find (no holder, or a store without one).
func (t Turns) of(ctx context.Context, cred players.Credential) (string, TurnStore, error) {
	if cred == "" {
		return "", nil, nil
	}
	holder, err := t.s.holder(ctx, cred)
	st, ok := t.s.store.(TurnStore)
	if err != nil || holder == "" || !ok {
		return "", nil, err
	}
	return holder, st, nil
}
