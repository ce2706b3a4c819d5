package games_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// damaged is a store whose record of every game fails to replay, as a
// row with garbage for plies does: the error wraps the rules' own.
type damaged struct{ *store.Memory }

func (d damaged) err(id string) error {
	return fmt.Errorf("game %q: restore: action 1 (b:zz): %w", id, rules.ErrSyntax)
}

func (d damaged) View(_ context.Context, id string, _ func(*games.Record) error) error {
	return d.err(id)
}

func (d damaged) Update(_ context.Context, id string, _ func(*games.Record) error) error {
	return d.err(id)
}

// TestStoreFailureIsInternal: a record the store cannot read back is the
// server's failure (Internal, its text for the log only), not a refusal
// of the user's input, whatever rules error it wraps.
func TestStoreFailureIsInternal(t *testing.T) {
	svc := newService(damaged{store.NewMemory()})
	ctx := context.Background()
	const id = "Z5_U_ElhSR0FlkJ3Xy6wkw"
	cred := issue(t, svc)
	_, undoErr := svc.Undo(ctx, id, cred, nil)
	_, claimErr := svc.Claim(ctx, id, cred)
	for name, err := range map[string]error{
		"view":   svc.View(ctx, id, cred, func(*games.Record, games.Seats) {}),
		"play":   svc.Play(ctx, id, cred, games.Input{Text: "e2e4"}, nil),
		"undo":   undoErr,
		"resign": svc.Resign(ctx, id, cred, rules.White, nil),
		"draw":   svc.Draw(ctx, id, cred, nil),
		"hide":   svc.Hide(ctx, id, cred),
		"claim":  claimErr,
	} {
		e := errs.Of(err)
		if e == nil || e.Code != errs.Internal || e.Detail != "" || strings.Contains(e.Msg, id) || strings.Contains(e.Msg, "restore") {
			t.Errorf("%s: %#v, want Internal with a message that tells nothing of the store", name, e)
		}
	}
}
