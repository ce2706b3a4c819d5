package tournament

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// Schedule is the tournaments the server creates of its own: one
// starting at every multiple of Every (UTC), created an Every ahead.
// Every zero: none. Name is the name stored with each (the JSON API's);
// pages say the schedule's arenas' name in the reader's language
// (Tournament.Title).
type Schedule struct {
	Every   time.Duration
	Name    string
	Variant string
	Clock   string
	Minutes int
	Rated   bool
}

func newOwner() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Run runs the tournaments every tick until ctx ends (see Tick); failed
// (if not nil) hears of each tick that failed. Every server sharing the
// store runs it: each tournament is run by one at a time.
func (s *Service) Run(ctx context.Context, failed func(error)) {
	t := time.NewTicker(s.every)
	defer t.Stop()
	for {
		if err := s.Tick(ctx); err != nil && ctx.Err() == nil && failed != nil {
			failed(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Tick creates the scheduled tournament ahead, claims the tournaments
// due that no other server holds, and runs each once: it starts it at its
// time, records the results of its games that ended, pairs its players
// waiting, and finishes it once its time is up and its games are over.
func (s *Service) Tick(ctx context.Context) error {
	now := s.now()
	var failed []error
	if err := s.scheduled(ctx, now); err != nil {
		failed = append(failed, err)
	}
	ids, err := s.store.ClaimTournaments(ctx, s.owner, now, now.Add(s.lease))
	if err != nil {
		return errors.Join(append(failed, fmt.Errorf("claiming tournaments: %w", err))...)
	}
	for _, id := range ids {
		if err := s.step(ctx, id); err != nil {
			failed = append(failed, fmt.Errorf("tournament %s: %w", id, err))
		}
	}
	return errors.Join(failed...)
}

// scheduled creates the next tournament of the schedule, once whichever
// server comes first (its id is its start's).
func (s *Service) scheduled(ctx context.Context, now time.Time) error {
	sc := s.schedule
	if sc.Every <= 0 {
		return nil
	}
	next := now.UTC().Truncate(sc.Every).Add(sc.Every)
	if s.scheduledAt.Load() == next.UnixMilli() {
		return nil // created already, by this server or another
	}
	t, err := s.settle(Settings{Kind: Arena, Name: sc.Name, Variant: sc.Variant, Clock: sc.Clock, Minutes: sc.Minutes, Rated: sc.Rated, Starts: next}, "", now)
	if err != nil {
		return fmt.Errorf("the schedule: %w", err)
	}
	t.ID = "s" + next.Format("200601021504")
	err = s.store.CreateTournament(ctx, t)
	if e := (*errs.Error)(nil); err == nil || errors.As(err, &e) && e.Code == errs.Conflict {
		s.scheduledAt.Store(next.UnixMilli())
		return nil
	}
	return err
}

// step runs tournament id once (see Tick).
func (s *Service) step(ctx context.Context, id string) error {
	t, err := s.store.Tournament(ctx, id)
	if err != nil {
		return err
	}
	ended := map[string]Pairing{}
	for _, p := range t.Pairings {
		if p.Done {
			continue
		}
		if r, done, err := s.result(ctx, p); err != nil {
			return err
		} else if done {
			ended[p.Game] = r
		}
	}
	now := s.now()
	var after *Tournament
	started := false
	err = s.store.UpdateTournament(ctx, id, func(t *Tournament) error {
		for i, p := range t.Pairings {
			if r, ok := ended[p.Game]; ok && !p.Done {
				t.Pairings[i] = r
				s.freed(t, r, now)
			}
		}
		if started = t.Status == Created && !now.Before(t.Starts); started {
			t.Status = Started
		}
		if t.Status == Started && t.Over(now) && t.Running() == 0 {
			t.Status = Finished
		}
		after = t
		return nil
	})
	if err == nil && started && s.started != nil {
		s.started(ctx, after)
	}
	if err == nil && after.Kind == Swiss && after.Status == Started {
		return s.swissRound(ctx, after, now)
	}
	if err != nil || after.Status != Started || !MayPair(after, now) {
		return err
	}
	return s.pair(ctx, after, now)
}

// MayPair reports whether t pairs games at now: started, and not in its
// last LastPairing.
func MayPair(t *Tournament, now time.Time) bool {
	return t.Status == Started && !now.Before(t.Starts) && now.Before(t.Ends().Add(-LastPairing))
}

// freed notes in t that the players of pairing r, ended at now, are free;
// one who let an aborted game's first action pass is withdrawn.
func (s *Service) freed(t *Tournament, r Pairing, now time.Time) {
	for _, id := range []string{r.White, r.Black} {
		if p := t.Player(id); p != nil {
			p.Free = now
		}
	}
	if r.Aborted && r.Idle != 0 {
		idle := r.White
		if r.Idle == rules.Black {
			idle = r.Black
		}
		if p := t.Player(idle); p != nil {
			p.Paused = true
		}
	}
}

// result reads p's game: its result once it ended.
func (s *Service) result(ctx context.Context, p Pairing) (Pairing, bool, error) {
	done := false
	err := s.games.View(ctx, p.Game, func(rec *games.Record) error {
		g := rec.Game
		out := g.Outcome()
		if !out.Over() {
			return nil
		}
		done = true
		p.Done = true
		if out.Status == rules.Aborted {
			p.Aborted = true
			p.Idle = g.Turn().Actor // who let their first action pass
			return nil
		}
		p.Winner = out.Winner
		moves := 0
		for _, a := range g.Actions() {
			if a.Phase == rules.PhaseMove {
				moves++
			}
		}
		p.Moves = (moves + 1) / 2
		if rec.Clock != nil {
			p.WhiteBerserk, p.BlackBerserk = rec.Clock.Berserk.White, rec.Clock.Berserk.Black
		}
		return nil
	})
	if e := (*errs.Error)(nil); errors.As(err, &e) && e.Code == errs.NotFound {
		p.Done, p.Aborted = true, true // the game is gone: it counts for no one
		return p, true, nil
	}
	return p, done, err
}

// pair pairs t's players waiting (free, not withdrawn) by its format's
// Pairer, starts their games, and records the pairings.
func (s *Service) pair(ctx context.Context, t *Tournament, now time.Time) error {
	pairer := s.pairers[t.Kind]
	if pairer == nil {
		return nil
	}
	pairs := pairer.Pair(Waiting(t))
	if len(pairs) == 0 {
		return nil
	}
	var made []Pairing
	for _, pr := range pairs {
		p, err := s.start(ctx, t, pr, now)
		if err != nil {
			return err
		}
		made = append(made, p)
	}
	return s.store.UpdateTournament(ctx, t.ID, func(t *Tournament) error {
		for _, p := range made {
			if t.Playing(p.White) == nil && t.Playing(p.Black) == nil {
				t.Pairings = append(t.Pairings, p)
			}
		}
		return nil
	})
}

// Waiting returns t's players waiting to be paired, in rank order.
func Waiting(t *Tournament) []Candidate {
	var out []Candidate
	for _, r := range Standings(t) {
		p := t.Player(r.Player)
		if p.Paused || r.Game != "" {
			continue
		}
		out = append(out, Candidate{ID: r.Player, Rank: r.Rank, Opponent: r.Opponent, Whites: r.Whites, Blacks: r.Blacks, Last: r.Last})
	}
	return out
}

// start creates the game of pair pr in t at now.
func (s *Service) start(ctx context.Context, t *Tournament, pr Pair, now time.Time) (Pairing, error) {
	var seated [2]games.Seated
	for i, id := range []string{pr.White, pr.Black} {
		p, err := s.players.Player(ctx, id)
		if err != nil {
			return Pairing{}, err
		}
		st, err := s.players.Standing(ctx, id, t.Variant, t.Speed())
		if err != nil {
			return Pairing{}, err
		}
		seated[i] = games.Seated{Player: p, Standing: st}
	}
	rec, err := s.starter.PairedGame(t.Variant, t.Clock, t.Rated, rules.White, seated[0], seated[1], now)
	if err != nil {
		return Pairing{}, err
	}
	rec.Tournament = t.ID
	if err := s.games.Create(ctx, rec); err != nil {
		return Pairing{}, err
	}
	s.starter.Started(rec, now)
	return Pairing{Game: rec.ID, White: pr.White, Black: pr.Black, WhiteRating: rec.WhitePlayer.Rating,
		BlackRating: rec.BlackPlayer.Rating, Started: now}, nil
}
