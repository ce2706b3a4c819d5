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

// MayBerserk reports whether the holder of seats may berserk at rec now
// (Clocks.Berserk): a page offers it so.
func MayBerserk(rec *Record, seats Seats) bool {
	_, err := mayBerserk(rec, seats)
	return err == nil
}

// mayBerserk decides a berserk at rec by the holder of seats: the side
// it halves, or why not.
func mayBerserk(rec *Record, seats Seats) (rules.Color, error) {
	clk := rec.Clock
	if rec.Tournament == "" || rec.Mode != Invite || clk == nil {
		return 0, errs.Errorf(errs.Invalid, "Only a tournament's games may be berserked.").WithDetail(errs.NotTournamentGame)
	}
	side := seats.Side()
	if side == 0 {
		return 0, errs.Errorf(errs.Forbidden, "Only a player of this game may berserk, and only their own clock.")
	}
	if rec.Game.Outcome().Over() {
		return 0, errs.Errorf(errs.GameOver, "The game is over.")
	}
	if clk.Berserk.Has(side) || lastPlyBy(rec.Game, side) >= 0 {
		return 0, errs.Errorf(errs.Conflict, "Berserk comes before your first action, once.").WithDetail(errs.BerserkLate)
	}
	return side, nil
}

// berserk applies Berserk to rec for the holder of seats.
func berserk(rec *Record, seats Seats) error {
	side, err := mayBerserk(rec, seats)
	if err != nil {
		return err
	}
	clk := rec.Clock
	if side == rules.White {
		clk.White /= 2
		clk.Berserk.White = true
	} else {
		clk.Black /= 2
		clk.Berserk.Black = true
	}
	return nil
}
