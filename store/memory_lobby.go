package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/banchess/banchess/lobby"

	"github.com/banchess/banchess/players"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
)

// tooManySeeks refuses a seek past a player's allowance.
func tooManySeeks(n int) error {
	return &errs.Error{Code: errs.Conflict, Detail: errs.TooManySeeks, Msg: fmt.Sprintf("You have %d seeks open, the most a player may: cancel one first.", n)}
}

// tooManyFromAddress refuses a seek from an address with n seeks open.
func tooManyFromAddress(n int) error {
	return &errs.Error{Code: errs.TooMany, Detail: errs.SeeksFromAddress,
		Msg: fmt.Sprintf("%d seeks are open from your network address, the most the lobby takes from one: accept one of the seeks open, or wait for one of yours to be taken.", n)}
}

// seekGone is the error for a seek that is not open: accepted, cancelled
// or expired (or never made).
func seekGone() error {
	return &errs.Error{Code: errs.NotFound, Detail: errs.SeekGone, Msg: "This seek is gone: someone accepted it first, or its player cancelled it or left."}
}

// AddSeek stores custom seek k within limits (see lobby.Store).
func (m *Memory) AddSeek(ctx context.Context, k lobby.Seek, open lobby.SeekWindow, limits lobby.SeekLimits) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	custom := 0
	for _, other := range a.seeks {
		if other.Player == k.Player && other.Pool == "" && a.open(open, other) {
			custom++
		}
	}
	if custom >= limits.PerPlayer {
		return tooManySeeks(custom)
	}
	if err := a.addressFull(k, open, limits.PerAddress); err != nil {
		return err
	}
	a.seeks[k.ID] = k
	return nil
}

// addressFull refuses seek k when its address has max seeks open; a.mu
// is held.
func (a *memoryPlayers) addressFull(k lobby.Seek, open lobby.SeekWindow, max int) error {
	if k.Address == "" || max <= 0 {
		return nil
	}
	n := 0
	for _, other := range a.seeks {
		if other.Address == k.Address && a.open(open, other) {
			n++
		}
	}
	if n >= max {
		return tooManyFromAddress(n)
	}
	return nil
}

// Seeks returns the open seeks, oldest first.
func (m *Memory) Seeks(ctx context.Context, open lobby.SeekWindow) ([]lobby.Seek, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.openSeeks(open, func(lobby.Seek) bool { return true }), nil
}

// openSeeks returns the open seeks that keep says, oldest first; a.mu is
// held.
func (a *memoryPlayers) openSeeks(open lobby.SeekWindow, keep func(lobby.Seek) bool) []lobby.Seek {
	var out []lobby.Seek
	for _, k := range a.seeks {
		if a.open(open, k) && keep(k) {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(x, y lobby.Seek) int {
		if c := x.Created.Compare(y.Created); c != 0 {
			return c
		}
		return compareStrings(x.ID, y.ID)
	})
	return out
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// CancelSeek removes player's open seek id.
func (m *Memory) CancelSeek(ctx context.Context, id, player string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	k, ok := a.seeks[id]
	if !ok || k.Player != player || k.Game != "" {
		return seekGone()
	}
	delete(a.seeks, id)
	return nil
}

// Pair pairs players as req asks (see games.PairRequest).
func (m *Memory) Pair(ctx context.Context, req lobby.PairRequest) (*games.Record, lobby.Seek, error) {
	if err := ctx.Err(); err != nil {
		return nil, lobby.Seek{}, err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	var k lobby.Seek
	if req.Pool == "" {
		var ok bool
		k, ok = a.seeks[req.Seek]
		if !ok || k.Pool != "" || !a.open(req.Open, k) {
			return nil, lobby.Seek{}, seekGone()
		}
	} else {
		waiting := a.openSeeks(req.Open, func(k lobby.Seek) bool {
			return k.Pool == req.Pool && k.Player != req.Taker && !slices.Contains(req.Avoid, k.Player)
		})
		if len(waiting) == 0 {
			k, err := a.wait(req)
			return nil, k, err
		}
		k = waiting[0]
	}
	maker, taker := a.seated(k.Player, k), a.seated(req.Taker, k)
	rec, err := req.Game(k, maker, taker)
	if err != nil {
		return nil, lobby.Seek{}, err
	}
	if err := m.Create(ctx, rec); err != nil {
		return nil, lobby.Seek{}, err
	}
	k.Game, k.Acceptor, k.Accepted = rec.ID, req.Taker, req.At
	a.seeks[k.ID] = k
	for id, other := range a.seeks {
		if other.Game == "" && (other.Player == k.Player || other.Player == req.Taker) {
			delete(a.seeks, id)
		}
	}
	return rec, k, nil
}

// wait keeps req's taker waiting in its pool: their seek there, kept
// alive, or req.Wait added within its address's limit; a.mu is held.
func (a *memoryPlayers) wait(req lobby.PairRequest) (lobby.Seek, error) {
	for id, k := range a.seeks {
		if k.Player == req.Taker && k.Pool == req.Pool && a.open(req.Open, k) {
			k.Alive, k.Instance = req.At, req.Wait.Instance
			a.seeks[id] = k
			return k, nil
		}
	}
	if err := a.addressFull(req.Wait, req.Open, req.Limits.PerAddress); err != nil {
		return lobby.Seek{}, err
	}
	a.seeks[req.Wait.ID] = req.Wait
	return req.Wait, nil
}

// seated describes player id about to sit at k's game; a.mu is held.
func (a *memoryPlayers) seated(id string, k lobby.Seek) games.Seated {
	var p players.Player
	if pp := a.players[id]; pp != nil {
		p = *pp
	}
	return games.Seated{Player: p, Standing: a.standing(id, k.Variant, k.Speed())}
}

// open reports whether k is open in w, its server's liveness included;
// a.mu is held.
func (a *memoryPlayers) open(w lobby.SeekWindow, k lobby.Seek) bool {
	return w.Open(k) && w.Live(k, a.beats[k.Instance])
}

// TouchSeeks records that players had a lobby page open at at, on server
// instance.
func (m *Memory) TouchSeeks(ctx context.Context, players []string, at time.Time, instance string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	for id, k := range a.seeks {
		if k.Game == "" && slices.Contains(players, k.Player) && at.After(k.Alive) {
			k.Alive, k.Instance = at, instance
			a.seeks[id] = k
		}
	}
	return nil
}

// SweepSeeks removes the seeks no longer open and those accepted before
// acceptedBefore, and counts the open ones removed.
func (m *Memory) SweepSeeks(ctx context.Context, open lobby.SeekWindow, acceptedBefore time.Time) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for id, k := range a.seeks {
		switch {
		case k.Game == "" && !a.open(open, k):
			n++
			delete(a.seeks, id)
		case k.Game != "" && k.Accepted.Before(acceptedBefore):
			delete(a.seeks, id)
		}
	}
	for id, at := range a.beats {
		if at.Before(open.CreatedSince) {
			delete(a.beats, id)
		}
	}
	return n, nil
}

// Beat records that server instance is alive at at.
func (m *Memory) Beat(ctx context.Context, instance string, at time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	if at.After(a.beats[instance]) {
		a.beats[instance] = at
	}
	return nil
}

// Pairings returns the seeks player made or accepted that were accepted
// at since or later.
func (m *Memory) Pairings(ctx context.Context, player string, since time.Time) ([]lobby.Seek, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []lobby.Seek
	for _, k := range a.seeks {
		if k.Game != "" && (k.Player == player || k.Acceptor == player) && !k.Accepted.Before(since) {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(x, y lobby.Seek) int { return x.Accepted.Compare(y.Accepted) })
	return out, nil
}
