package games

import (
	"context"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// Berserk halves the time of cred's side at game id, a tournament's game
// (Table.Tournament), and takes its increment away (Clock.Berserk): a
// player may do so before their first action, once. Its watchers are told
// as of any change.
func (c Clocks) Berserk(ctx context.Context, id string, cred players.Credential) error {
	return c.s.update(ctx, id, cred, nil, func(rec *Record, seats Seats) error {
		return berserk(rec, seats)
	})
}

// berserk applies Berserk to rec for the holder of seats.
func berserk(rec *Record, seats Seats) error {
	clk := rec.Clock
	if rec.Tournament == "" || rec.Mode != Invite || clk == nil {
		return errs.Errorf(errs.Invalid, "Only a tournament's games may be berserked.").WithDetail(errs.NotTournamentGame)
	}
	side := seats.Side()
	if side == 0 {
		return errs.Errorf(errs.Forbidden, "Only a player of this game may berserk, and only their own clock.")
	}
	if rec.Game.Outcome().Over() {
		return errs.Errorf(errs.GameOver, "The game is over.")
	}
	if clk.Berserk.Has(side) || lastPlyBy(rec.Game, side) >= 0 {
		return errs.Errorf(errs.Conflict, "Berserk comes before your first action, once.").WithDetail(errs.BerserkLate)
	}
	if side == rules.White {
		clk.White /= 2
		clk.Berserk.White = true
	} else {
		clk.Black /= 2
		clk.Berserk.Black = true
	}
	return nil
}
