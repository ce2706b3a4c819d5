package games

import (
	"time"

	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// Seated is a player about to sit at a game, with their standing in its
// variant and speed.
type Seated struct {
	Player   players.Player
	Standing players.Standing
}

// PairedGame returns a new game of variant between maker and taker, the
// maker at side (no Color: a side drawn at random), on a clock of tc that
// waits for each side's first action (Clock.pace), rated or not: the game
// the lobby's store creates when it pairs two players at now (see
// Started).
func (s *Service) PairedGame(variant string, tc TimeControl, rated bool, side rules.Color, maker, taker Seated, now time.Time) (*Record, error) {
	v, err := s.loader.Variant(variant)
	if err != nil {
		return nil, err
	}
	if side != rules.White && side != rules.Black {
		side = randomColor()
	}
	rec := &Record{Game: rules.New(v), Mode: Invite, Created: now, Updated: now, Revision: 1}
	rec.Rated = rated
	rec.Clock = NewClock(tc)
	for _, sat := range []struct {
		side   rules.Color
		seated Seated
	}{{side, maker}, {side.Other(), taker}} {
		r := sat.seated.Standing.At(now)
		rec.seat(sat.side, NewEntrant(sat.seated.Player, &r))
		if sat.side == rules.White {
			rec.White = sat.seated.Player.ID
		} else {
			rec.Black = sat.seated.Player.ID
		}
	}
	rec.Clock.pace(rec, true, now, s.firstWait) // its seats are taken: the first turn comes now
	return rec, nil
}

// Started arms the clock of rec, a game stored at now without the service
// (a pairing, which the store creates in the lobby's transaction), so that
// its flag falls on time.
func (s *Service) Started(rec *Record, now time.Time) {
	s.timers.set(rec.ID, flagTimerOf(rec, now), s.checkClock)
}
