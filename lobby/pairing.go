package lobby

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// seeker returns cred's player, who must have been issued it.
func (s *Service) seeker(ctx context.Context, cred players.Credential) (players.Player, error) {
	p, err := s.players.Identify(ctx, cred)
	if err != nil {
		return players.Player{}, err
	}
	if p.ID == "" {
		if cred == "" {
			return players.Player{}, errs.Errorf(errs.Unauthorized, "The lobby needs to know who is asking: send your credential.")
		}
		return players.Player{}, players.Unissued()
	}
	return p, nil
}

// AddSeek adds a custom seek by cred's player to the lobby.
func (s *Service) AddSeek(ctx context.Context, cred players.Credential, st SeekSettings) (Seek, error) {
	p, err := s.seeker(ctx, cred)
	if err != nil {
		return Seek{}, err
	}
	v, err := s.known.Variant(st.Variant)
	if err != nil {
		return Seek{}, err
	}
	if !s.Plays(v.ID()) {
		return Seek{}, errs.Errorf(errs.Invalid, "The lobby plays %s, not %s.", s.lobbyNames(), v.Name()).WithDetail(errs.UnsupportedVariant)
	}
	tc, ok, err := games.ParseTimeControl(st.Clock)
	if err != nil {
		return Seek{}, err
	}
	if !ok {
		return Seek{}, errs.Errorf(errs.Invalid, "A seek needs a clock, such as 5+3.").WithDetail(errs.BadClock)
	}
	var color rules.Color
	switch st.Color {
	case "", "random":
	case "white", "black":
		color, _ = rules.ParseColor(st.Color)
	default:
		return Seek{}, errs.Errorf(errs.Invalid, "%q is not a colour to play: use white, black or random.", rules.Clip(st.Color)).WithDetail(errs.BadColor)
	}
	if st.Rated && !p.Named() {
		return Seek{}, nameNeeded()
	}
	k, err := s.newSeek(ctx, p, v.ID(), tc, "")
	if err != nil {
		return Seek{}, err
	}
	k.Color, k.Rated, k.Address = color, st.Rated, st.Address
	if err := s.store.AddSeek(ctx, k, s.window(k.Created), seekLimits()); err != nil {
		return Seek{}, errs.FromStore(err)
	}
	s.Notice(NoticeLobby)
	return k, nil
}

func nameNeeded() *errs.Error {
	return errs.Errorf(errs.Forbidden, "Only players with a name play rated games: choose one on your account page first.").WithDetail(errs.NameNeeded)
}

// newSeek describes a seek by p of variant at tc, in pool ("" for none).
func (s *Service) newSeek(ctx context.Context, p players.Player, variant string, tc games.TimeControl, pool string) (Seek, error) {
	now := s.now()
	k := Seek{ID: newSeekID(), Player: p.ID, Name: p.Name, Variant: variant, Clock: tc, Pool: pool, Created: now, Alive: now, Instance: s.instance()}
	if p.Named() {
		st, err := s.players.Standing(ctx, p.ID, variant, k.Speed())
		if err != nil {
			return Seek{}, errs.FromStore(err)
		}
		r := st.At(now)
		e := games.NewEntrant(p, &r)
		k.Rating, k.Provisional = e.Rating, e.Provisional
	}
	return k, nil
}

// JoinPool puts cred's player in the quick-pairing pool named pool: paired
// at once with a player waiting there, it returns the new game's id; else
// the player waits, and it returns their seek. address is the client
// address the player comes from ("" if unknown): the seeks open from one
// are bounded (MaxAddressSeeks).
func (s *Service) JoinPool(ctx context.Context, cred players.Credential, pool, address string) (string, Seek, error) {
	if !slices.Contains(Pools(), pool) {
		return "", Seek{}, errs.Errorf(errs.Invalid, "%q is not a pool: choose one of %s.", rules.Clip(pool), strings.Join(Pools(), ", ")).WithDetail(errs.BadPool)
	}
	p, err := s.seeker(ctx, cred)
	if err != nil {
		return "", Seek{}, err
	}
	if p.Bot {
		// As on lichess: bots play seeks and challenges, not the pools.
		return "", Seek{}, errs.Errorf(errs.Forbidden, "Bot accounts may not join the quick-pairing pools: post a seek, or accept one.").WithDetail(errs.BotNotAllowed)
	}
	tc, _, _ := games.ParseTimeControl(pool)
	wait, err := s.newSeek(ctx, p, s.PoolVariant().ID(), tc, pool)
	if err != nil {
		return "", Seek{}, err
	}
	wait.Rated, wait.Address = p.Named(), address
	avoid, err := s.shunned(ctx, p.ID)
	if err != nil {
		return "", Seek{}, err
	}
	return s.pair(ctx, PairRequest{Taker: p.ID, Pool: pool, Wait: wait, Limits: seekLimits(), Avoid: avoid})
}

// AcceptSeek accepts seek id for cred's player and returns the game it
// starts. A seek is accepted once: whoever comes later finds it gone
// (NotFound, detail "seek_gone").
func (s *Service) AcceptSeek(ctx context.Context, cred players.Credential, id string) (string, error) {
	p, err := s.seeker(ctx, cred)
	if err != nil {
		return "", err
	}
	avoid, err := s.shunned(ctx, p.ID)
	if err != nil {
		return "", err
	}
	game, _, err := s.pair(ctx, PairRequest{Taker: p.ID, Seek: id, Avoid: avoid})
	return game, err
}

// shunned returns the players player is never paired with.
func (s *Service) shunned(ctx context.Context, player string) ([]string, error) {
	if s.blocks == nil {
		return nil, nil
	}
	return s.blocks.Shunned(ctx, player)
}

// pair has the store pair as req asks, and starts the game's clock.
func (s *Service) pair(ctx context.Context, req PairRequest) (string, Seek, error) {
	req.At = s.now()
	req.Open, req.Game = s.window(req.At), s.pairedGame(req.At, req.Avoid)
	rec, k, err := s.store.Pair(ctx, req)
	if err != nil {
		return "", Seek{}, errs.FromStore(err)
	}
	if rec == nil {
		s.Notice(NoticeLobby)
		return "", k, nil
	}
	s.games.Started(rec, req.At)
	s.Notice(NoticePaired(k.Player, k.Acceptor))
	return rec.ID, k, nil
}

// pairedGame builds the game of a pairing at now: maker and taker at their
// sides (the maker's colour, or random), rated as the seek asks (a pool's
// when both have a name); never a maker the taker avoids.
func (s *Service) pairedGame(now time.Time, avoid []string) func(Seek, games.Seated, games.Seated) (*games.Record, error) {
	return func(k Seek, maker, taker games.Seated) (*games.Record, error) {
		switch {
		case maker.Player.ID == taker.Player.ID:
			return nil, errs.Errorf(errs.Conflict, "This is your own seek: wait for another player to accept it.").WithDetail(errs.OwnSeek)
		case slices.Contains(avoid, maker.Player.ID):
			return nil, errs.Errorf(errs.Forbidden, "One of you blocks the other: you cannot play each other.").WithDetail(errs.Blocked)
		}
		rated := k.Rated
		switch {
		case k.Pool != "":
			rated = maker.Player.Named() && taker.Player.Named()
		case rated && !taker.Player.Named():
			return nil, nameNeeded()
		}
		rec, err := s.games.PairedGame(k.Variant, k.Clock, rated, k.Color, maker, taker, now)
		if err != nil {
			return nil, errs.Internalf(err, "pairing seek %s", k.ID)
		}
		return rec, nil
	}
}

// CancelSeek removes cred's player's open seek id.
func (s *Service) CancelSeek(ctx context.Context, cred players.Credential, id string) error {
	p, err := s.seeker(ctx, cred)
	if err != nil {
		return err
	}
	if err := s.store.CancelSeek(ctx, id, p.ID); err != nil {
		return errs.FromStore(err)
	}
	s.Notice(NoticeLobby)
	return nil
}
