package store

import (
	"context"
	"crypto/rand"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/banchess/banchess/lobby"

	"github.com/banchess/banchess/players"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
)

// memoryPlayers is what Memory keeps besides games: players, credentials,
// results and ratings, attempts counted, the servers' keys and the lobby's seeks.
type memoryPlayers struct {
	mu        sync.Mutex
	players   map[string]*players.Player
	names     map[string]string         // player id by name key
	skeletons map[string]string         // player id by name skeleton
	creds     map[string]players.Issued // by hash
	standings map[standingKey]players.Standing
	played    map[string][]players.PlayedGame // by player, in the order recorded
	recorded  map[string]bool                 // games whose result is recorded
	attempts  map[string][]counted            // attempts counted, by key
	keys      map[string][]byte               // the servers' keys, by name
	seeks     map[string]lobby.Seek
	beats     map[string]time.Time // each server's last beat, by its name
}

// standingKey names a player's standing in a variant at a speed.
type standingKey struct {
	player, variant string
	speed           rating.Speed
}

func (m *memoryPlayers) init() {
	m.players, m.names, m.skeletons, m.creds = map[string]*players.Player{}, map[string]string{}, map[string]string{}, map[string]players.Issued{}
	m.standings, m.played, m.recorded = map[standingKey]players.Standing{}, map[string][]players.PlayedGame{}, map[string]bool{}
	m.attempts, m.keys, m.seeks = map[string][]counted{}, map[string][]byte{}, map[string]lobby.Seek{}
	m.beats = map[string]time.Time{}
}

// nameTaken refuses a name another player has in any case.
func nameTaken(name string) error { return players.NameTaken(name) }

// noSuchPlayer is the error for an id or name that names no player.
func noSuchPlayer() error {
	return &errs.Error{Code: errs.NotFound, Detail: errs.NoPlayer, Msg: "There is no such player."}
}

// AddPlayer stores a new player with its first credential.
func (m *Memory) AddPlayer(ctx context.Context, p players.Player, cred players.Issued) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	if p.Named() {
		if err := a.claimName(p.ID, p.Name); err != nil {
			return err
		}
	}
	a.players[p.ID] = &p
	a.creds[cred.Hash] = cred
	return nil
}

// Issue records another credential of an existing player.
func (m *Memory) Issue(ctx context.Context, cred players.Issued) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.players[cred.Player] == nil {
		return noSuchPlayer()
	}
	a.creds[cred.Hash] = cred
	return nil
}

// CredentialPlayer returns the player the credential of hash was issued
// to, or "".
func (m *Memory) CredentialPlayer(ctx context.Context, hash string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.creds[hash].Player, nil
}

// Credential returns the credential of hash as issued, and whether there
// is one.
func (m *Memory) Credential(ctx context.Context, hash string) (players.Issued, bool, error) {
	if err := ctx.Err(); err != nil {
		return players.Issued{}, false, err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	iss, ok := a.creds[hash]
	return iss, ok, nil
}

// SetBot makes the player of id a bot account, unless they are one or
// have played a rated game.
func (m *Memory) SetBot(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.players[id]
	switch {
	case p == nil:
		return noSuchPlayer()
	case p.Bot:
		return players.AlreadyBot()
	}
	for k, st := range a.standings {
		if k.player == id && st.Games > 0 {
			return players.PlayedRated()
		}
	}
	p.Bot = true
	return nil
}

// Revoke forgets the credential of hash or, with all, every credential of
// its player.
func (m *Memory) Revoke(ctx context.Context, hash string, all bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	c, ok := a.creds[hash]
	if !ok {
		return nil
	}
	delete(a.creds, hash)
	if all {
		for h, other := range a.creds {
			if other.Player == c.Player {
				delete(a.creds, h)
			}
		}
	}
	return nil
}

// Player returns the player of id.
func (m *Memory) Player(ctx context.Context, id string) (players.Player, error) {
	if err := ctx.Err(); err != nil {
		return players.Player{}, err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.players[id]
	if p == nil {
		return players.Player{}, noSuchPlayer()
	}
	return *p, nil
}

// PlayerNamed returns the player whose name is name in any case.
func (m *Memory) PlayerNamed(ctx context.Context, name string) (players.Player, error) {
	if err := ctx.Err(); err != nil {
		return players.Player{}, err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.players[a.names[players.NameKey(name)]]
	if p == nil {
		return players.Player{}, noSuchPlayer()
	}
	return *p, nil
}

// SetName gives a player, still unnamed, its name and password hash,
// issues it a new credential and revokes the one it replaces.
func (m *Memory) SetName(ctx context.Context, n players.Naming) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.players[n.Player]
	switch {
	case p == nil:
		return noSuchPlayer()
	case p.Named():
		return alreadyNamed()
	}
	if err := a.claimName(n.Player, n.Name); err != nil {
		return err
	}
	p.Name, p.Password = n.Name, n.Password
	a.creds[n.Issued.Hash] = n.Issued
	if old, ok := a.creds[n.Revoked]; ok && old.Player == n.Player {
		delete(a.creds, n.Revoked)
	}
	return nil
}

// claimName records that player id is named name, unless another has
// the name in any case or one that looks like it.
func (a *memoryPlayers) claimName(id, name string) error {
	if _, taken := a.names[players.NameKey(name)]; taken {
		return nameTaken(name)
	}
	if other, taken := a.skeletons[players.Skeleton(name)]; taken {
		return players.LooksLike(name, a.players[other].Name)
	}
	a.names[players.NameKey(name)] = id
	a.skeletons[players.Skeleton(name)] = id
	return nil
}

// PlayerLike returns the player whose name looks like name.
func (m *Memory) PlayerLike(ctx context.Context, name string) (players.Player, error) {
	if err := ctx.Err(); err != nil {
		return players.Player{}, err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.players[a.skeletons[players.Skeleton(name)]]
	if p == nil || name == "" {
		return players.Player{}, noSuchPlayer()
	}
	return *p, nil
}

// alreadyNamed refuses to name a player twice.
func alreadyNamed() error {
	return &errs.Error{Code: errs.Conflict, Detail: errs.Named, Msg: "This player has a name already."}
}

// Standings returns the player's standings.
func (m *Memory) Standings(ctx context.Context, id string) ([]players.Standing, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []players.Standing
	for k, st := range a.standings {
		if k.player == id {
			out = append(out, st)
		}
	}
	sortStandings(out)
	return out, nil
}

// sortStandings orders standings by variant, then speed, fastest first.
func sortStandings(list []players.Standing) {
	order := map[rating.Speed]int{}
	for i, sp := range rating.Speeds() {
		order[sp] = i
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].Variant != list[j].Variant {
			return list[i].Variant < list[j].Variant
		}
		return order[list[i].Speed] < order[list[j].Speed]
	})
}

// Standing returns the player's standing in variant at speed.
func (m *Memory) Standing(ctx context.Context, id, variant string, speed rating.Speed) (players.Standing, error) {
	if err := ctx.Err(); err != nil {
		return players.Standing{}, err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.standing(id, variant, speed), nil
}

// standing returns a standing, or a new one; a.mu is held.
func (a *memoryPlayers) standing(id, variant string, speed rating.Speed) players.Standing {
	if st, ok := a.standings[standingKey{id, variant, speed}]; ok {
		return st
	}
	return players.NewStanding(variant, speed)
}

// PlayedGame returns the entry of game in the player's list of finished
// games, and whether there is one.
func (m *Memory) PlayedGame(ctx context.Context, id, game string) (players.PlayedGame, bool, error) {
	if err := ctx.Err(); err != nil {
		return players.PlayedGame{}, false, err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, g := range a.played[id] {
		if g.Game == game {
			return g, true, nil
		}
	}
	return players.PlayedGame{}, false, nil
}

// PlayedGames returns up to limit of the player's finished games that
// ended before the cursor, newest first.
func (m *Memory) PlayedGames(ctx context.Context, id string, before players.PlayedGamesCursor, limit int) ([]players.PlayedGame, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	a := &m.accounts
	a.mu.Lock()
	list := slices.Clone(a.played[id])
	a.mu.Unlock()
	slices.SortFunc(list, func(x, y players.PlayedGame) int {
		if c := y.Ended.Compare(x.Ended); c != 0 {
			return c
		}
		return strings.Compare(y.Game, x.Game)
	})
	var out []players.PlayedGame
	for _, g := range list {
		if len(out) >= limit {
			break
		}
		if before.Game == "" || g.Ended.Before(before.Ended) || g.Ended.Equal(before.Ended) && g.Game < before.Game {
			out = append(out, g)
		}
	}
	return out, nil
}

// Leaders returns up to limit players with at least minGames rated games
// of variant at speed, the highest rated first.
func (m *Memory) Leaders(ctx context.Context, variant string, speed rating.Speed, minGames, limit int) ([]players.Leader, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []players.Leader
	for k, st := range a.standings {
		if k.variant == variant && k.speed == speed && st.Games >= minGames {
			out = append(out, players.Leader{Name: a.players[k.player].Name, Standing: st})
		}
	}
	slices.SortFunc(out, func(x, y players.Leader) int {
		if x.Standing.Rating.Rating != y.Standing.Rating.Rating {
			if x.Standing.Rating.Rating > y.Standing.Rating.Rating {
				return -1
			}
			return 1
		}
		return strings.Compare(x.Name, y.Name)
	})
	return out[:min(len(out), limit)], nil
}

// StartAttempt counts attempt under each of its counters' keys unless one
// of them is full: then it says which. It forgets attempts that no longer
// count.
func (m *Memory) StartAttempt(ctx context.Context, attempt players.Attempt) (*players.Refused, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	for k, list := range a.attempts {
		list = slices.DeleteFunc(list, func(c counted) bool { return !c.until.After(attempt.At) })
		if len(list) == 0 {
			delete(a.attempts, k)
		} else {
			a.attempts[k] = list
		}
	}
	for i, c := range attempt.Counters {
		if list := a.attempts[c.Key]; len(list) >= c.Max {
			until := make([]time.Time, len(list))
			for j, l := range list {
				until[j] = l.until
			}
			slices.SortFunc(until, time.Time.Compare)
			return &players.Refused{Counter: i, Until: until}, nil
		}
	}
	for _, c := range attempt.Counters {
		a.attempts[c.Key] = append(a.attempts[c.Key], counted{attempt.ID, attempt.At.Add(c.Window)})
	}
	return nil, nil
}

// ForgetAttempt forgets attempt.
func (m *Memory) ForgetAttempt(ctx context.Context, attempt players.Attempt) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, c := range attempt.Counters {
		list := slices.DeleteFunc(a.attempts[c.Key], func(l counted) bool { return l.id == attempt.ID })
		if len(list) == 0 {
			delete(a.attempts, c.Key)
		} else {
			a.attempts[c.Key] = list
		}
	}
	return nil
}

// counted is an attempt counted under a key: its id, and until when it
// counts.
type counted struct {
	id    string
	until time.Time
}

// ServerKey returns the key named name, made the first time.
func (m *Memory) ServerKey(ctx context.Context, name string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	a := &m.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	key, ok := a.keys[name]
	if !ok {
		key = make([]byte, serverKeyBytes)
		rand.Read(key)
		a.keys[name] = key
	}
	return slices.Clone(key), nil
}

// record records the result of rec's game if it has one and it is not
// recorded yet: the players' lists of games, results and ratings.
func (a *memoryPlayers) record(rec *games.Record) error {
	res, ok := games.ResultOf(rec)
	if !ok {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.recorded[res.Game] {
		return nil
	}
	if res.Rated {
		w, b := a.standing(res.White.Player, res.Variant, res.Speed), a.standing(res.Black.Player, res.Variant, res.Speed)
		w, b, err := res.Rate(w, b)
		if err != nil {
			return err
		}
		a.standings[standingKey{res.White.Player, res.Variant, res.Speed}] = w
		a.standings[standingKey{res.Black.Player, res.Variant, res.Speed}] = b
	}
	for _, side := range []rules.Color{rules.White, rules.Black} {
		me, them := res.Side(side), res.Side(side.Other())
		a.played[me.Player] = append(a.played[me.Player], playedGame(&res, side, me, them))
		if p := a.players[me.Player]; p != nil {
			countResult(p, me.Score)
		}
	}
	a.recorded[res.Game] = true
	return nil
}

// playedGame is the entry of res in the list of games of side's player.
func playedGame(res *games.Result, side rules.Color, me, them *games.ResultSide) players.PlayedGame {
	g := players.PlayedGame{Game: res.Game, Ended: res.Ended, Color: side, Opponent: them.Name, Score: me.Score,
		Result: res.Result, Ending: res.Ending, Variant: res.Variant, Speed: res.Speed, Rated: res.Rated, FEN: res.FEN}
	if res.Rated {
		g.Before, g.After = me.Before.Rating, me.After.Rating
	}
	return g
}

// countResult adds a game of score to p's wins, losses or draws.
func countResult(p *players.Player, score rating.Score) {
	switch score {
	case rating.Win:
		p.Wins++
	case rating.Loss:
		p.Losses++
	default:
		p.Draws++
	}
}
