package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/lobby"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// seekColumns are a seek's columns, in the order scanSeek reads them.
const seekColumns = `id, player, name, rating, provisional, variant, initial_ms, increment_ms, color, rated, pool, created_at, alive_at, game, acceptor, accepted_at, instance, days`

// openAt is the condition of an open seek, with the window's bounds as
// parameters $n to $n+3 (openArgs): not accepted, and either a
// correspondence seek made since the window's DaysSince, or its maker
// seen and it made within the window, and its server alive
// (lobby.SeekWindow.Live): it beat since the window's BeatSince, or the
// seek was kept alive since.
func openAt(n int) string {
	return fmt.Sprintf(`game = '' AND (days <> 0 AND created_at >= $%[4]d OR days = 0 AND alive_at >= $%[1]d AND created_at >= $%[2]d AND (instance = '' OR alive_at >= $%[3]d
		OR EXISTS (SELECT 1 FROM instances WHERE instances.id = seeks.instance AND instances.beat_at >= $%[3]d)))`, n, n+1, n+2, n+3)
}

// openArgs are openAt's parameters for w.
func openArgs(w lobby.SeekWindow) []any {
	return []any{ms(w.AliveSince), ms(w.CreatedSince), ms(w.BeatSince), ms(w.DaysSince)}
}

func scanSeek(sc scanner) (lobby.Seek, error) {
	var k lobby.Seek
	var initial, increment, created, alive, accepted int64
	var color string
	var days int
	err := sc.Scan(&k.ID, &k.Player, &k.Name, &k.Rating, &k.Provisional, &k.Variant, &initial, &increment, &color, &k.Rated, &k.Pool,
		&created, &alive, &k.Game, &k.Acceptor, &accepted, &k.Instance, &days)
	k.Clock = games.TimeControl{Initial: time.Duration(initial) * time.Millisecond, Increment: time.Duration(increment) * time.Millisecond, Days: days}
	k.Color, _ = rules.ParseColor(color)
	k.Created, k.Alive, k.Accepted = fromMS(created), fromMS(alive), fromMS(accepted)
	return k, err
}

func insertSeek(ctx context.Context, q querier, k lobby.Seek) error {
	color := ""
	if k.Color != 0 {
		color = k.Color.String()
	}
	_, err := q.exec(ctx, `INSERT INTO seeks (`+seekColumns+`, address) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, '', '', 0, $14, $15, $16)`,
		k.ID, k.Player, k.Name, k.Rating, k.Provisional, k.Variant, k.Clock.Initial.Milliseconds(), k.Clock.Increment.Milliseconds(),
		color, k.Rated, k.Pool, ms(k.Created), ms(k.Alive), k.Instance, k.Clock.Days, k.Address)
	return err
}

// addressFull refuses seek k when its address has max seeks open (of any
// kind) in the window. Seeks from one address are added one at a time,
// whichever server they come to (a lock per address; SQLite's
// transaction holds the whole database).
func (s sqlPlayers) addressFull(ctx context.Context, q querier, k lobby.Seek, open lobby.SeekWindow, max int) error {
	if k.Address == "" || max <= 0 {
		return nil
	}
	if err := s.db.lock(ctx, q, "seeks-from:"+k.Address); err != nil {
		return err
	}
	var n int
	if err := q.queryRow(ctx, `SELECT count(*) FROM seeks WHERE address = $1 AND `+openAt(2),
		append([]any{k.Address}, openArgs(open)...)...).Scan(&n); err != nil {
		return err
	}
	if n >= max {
		return tooManyFromAddress(n)
	}
	return nil
}

// AddSeek stores custom seek k within limits (see lobby.Store); the
// servers sharing the database are told.
func (s sqlPlayers) AddSeek(ctx context.Context, k lobby.Seek, open lobby.SeekWindow, limits lobby.SeekLimits) error {
	err := s.db.inTx(ctx, func(q querier) error {
		// One player's seeks are added one at a time.
		if _, err := q.exec(ctx, `SELECT id FROM players WHERE id = $1`+s.db.forUpdate(), k.Player); err != nil {
			return err
		}
		var custom int
		err := q.queryRow(ctx, `SELECT count(*) FROM seeks WHERE player = $1 AND pool = '' AND `+openAt(2),
			append([]any{k.Player}, openArgs(open)...)...).Scan(&custom)
		switch {
		case err != nil:
			return err
		case custom >= limits.PerPlayer:
			return tooManySeeks(custom)
		}
		if err := s.addressFull(ctx, q, k, open, limits.PerAddress); err != nil {
			return err
		}
		if err := insertSeek(ctx, q, k); err != nil {
			return err
		}
		return s.db.notify(ctx, q, lobby.NoticeLobby)
	})
	return wrapStore(err, "adding a seek")
}

// Seeks returns the open seeks, oldest first.
func (s sqlPlayers) Seeks(ctx context.Context, open lobby.SeekWindow) ([]lobby.Seek, error) {
	r, err := s.db.query(ctx, `SELECT `+seekColumns+` FROM seeks WHERE `+openAt(1)+` ORDER BY created_at, id`, openArgs(open)...)
	if err != nil {
		return nil, fmt.Errorf("listing seeks: %w", err)
	}
	out, err := collect(r, scanSeek)
	if err != nil {
		return nil, fmt.Errorf("listing seeks: %w", err)
	}
	return out, nil
}

// CancelSeek removes player's open seek id.
func (s sqlPlayers) CancelSeek(ctx context.Context, id, player string) error {
	if !validText(id) {
		return seekGone()
	}
	err := s.db.inTx(ctx, func(q querier) error {
		n, err := q.exec(ctx, `DELETE FROM seeks WHERE id = $1 AND player = $2 AND game = ''`, id, player)
		switch {
		case err != nil:
			return err
		case n == 0:
			return seekGone()
		}
		return s.db.notify(ctx, q, lobby.NoticeLobby)
	})
	return wrapStore(err, "cancelling a seek")
}

// insertGameSQL inserts a new game's row (see upsertSQL).
var insertGameSQL = fmt.Sprintf(upsertSQL("$"), saveSets[saveAll])

// Pair pairs players as req asks (see games.PairRequest), in one
// transaction: a seek is accepted once, and a pool's players are taken in
// turn (a lock per pool), whichever server they come to.
func (s sqlPlayers) Pair(ctx context.Context, req lobby.PairRequest) (*games.Record, lobby.Seek, error) {
	if !validText(req.Seek) {
		return nil, lobby.Seek{}, seekGone()
	}
	var rec *games.Record
	var k lobby.Seek
	err := s.db.inTx(ctx, func(q querier) error {
		rec, k = nil, lobby.Seek{}
		var err error
		if k, err = s.pairedSeek(ctx, q, req); err != nil || k.ID == "" {
			if errors.Is(err, errNoRows) {
				k, err = s.wait(ctx, q, req)
			}
			return err
		}
		maker, err := seated(ctx, q, k.Player, k)
		if err != nil {
			return err
		}
		taker, err := seated(ctx, q, req.Taker, k)
		if err != nil {
			return err
		}
		if rec, err = req.Game(k, maker, taker); err != nil {
			return err
		}
		rec.ID = NewID()
		row, err := encodeRow(rec)
		if err != nil {
			return err
		}
		if _, err := q.exec(ctx, insertGameSQL, append([]any{rec.ID, req.At.Unix(), rec.Revision}, row.args()...)...); err != nil {
			return err
		}
		n, err := q.exec(ctx, `UPDATE seeks SET game = $2, acceptor = $3, accepted_at = $4 WHERE id = $1 AND game = ''`, k.ID, rec.ID, req.Taker, ms(req.At))
		if err != nil {
			return err
		}
		if n != 1 {
			return seekGone() // never: the seek was read locked
		}
		k.Game, k.Acceptor, k.Accepted = rec.ID, req.Taker, req.At
		// The players' other seeks go: they are playing.
		if _, err := q.exec(ctx, `DELETE FROM seeks WHERE game = '' AND (player = $1 OR player = $2)`, k.Player, req.Taker); err != nil {
			return err
		}
		return s.db.notify(ctx, q, lobby.NoticePaired(k.Player, req.Taker))
	})
	if err != nil {
		return nil, lobby.Seek{}, wrapStore(err, "pairing")
	}
	return rec, k, nil
}

// pairedSeek reads, locked, the seek req pairs with: the seek it names,
// or the oldest open one of its pool by another player (errNoRows when
// there is none).
func (s sqlPlayers) pairedSeek(ctx context.Context, q querier, req lobby.PairRequest) (lobby.Seek, error) {
	open := openArgs(req.Open)
	if req.Pool == "" {
		k, err := scanSeek(q.queryRow(ctx, `SELECT `+seekColumns+` FROM seeks WHERE id = $1 AND pool = '' AND `+openAt(2)+s.db.forUpdate(),
			append([]any{req.Seek}, open...)...))
		if errors.Is(err, errNoRows) {
			return k, seekGone()
		}
		return k, err
	}
	// Players joining a pool at once on several servers are taken in turn.
	if err := s.db.lock(ctx, q, "pool:"+req.Pool); err != nil {
		return lobby.Seek{}, err
	}
	args := append([]any{req.Pool, req.Taker}, open...)
	avoid := ""
	for _, p := range req.Avoid { // the players the taker blocks or is blocked by
		args = append(args, p)
		avoid += fmt.Sprintf(" AND player <> $%d", len(args))
	}
	return scanSeek(q.queryRow(ctx, `SELECT `+seekColumns+` FROM seeks WHERE pool = $1 AND player <> $2`+avoid+` AND `+openAt(3)+`
		ORDER BY created_at, id LIMIT 1`+s.db.forUpdate(), args...))
}

// wait keeps req's taker waiting in its pool: their open seek there, kept
// alive, or req.Wait added (in place of one past its time).
func (s sqlPlayers) wait(ctx context.Context, q querier, req lobby.PairRequest) (lobby.Seek, error) {
	alive, created := ms(req.Open.AliveSince), ms(req.Open.CreatedSince)
	if _, err := q.exec(ctx, `DELETE FROM seeks WHERE player = $1 AND pool = $2 AND game = '' AND (alive_at < $3 OR created_at < $4)`,
		req.Taker, req.Pool, alive, created); err != nil {
		return lobby.Seek{}, err
	}
	k, err := scanSeek(q.queryRow(ctx, `UPDATE seeks SET alive_at = $3, instance = $4 WHERE player = $1 AND pool = $2 AND game = '' RETURNING `+seekColumns,
		req.Taker, req.Pool, ms(req.At), req.Wait.Instance))
	if err == nil || !errors.Is(err, errNoRows) {
		return k, err
	}
	if err := s.addressFull(ctx, q, req.Wait, req.Open, req.Limits.PerAddress); err != nil {
		return lobby.Seek{}, err
	}
	if err := insertSeek(ctx, q, req.Wait); err != nil {
		return lobby.Seek{}, err
	}
	return req.Wait, s.db.notify(ctx, q, lobby.NoticeLobby)
}

// seated reads player id, about to sit at k's game, with their standing
// in its variant and speed.
func seated(ctx context.Context, q querier, id string, k lobby.Seek) (games.Seated, error) {
	p, err := scanPlayer(q.queryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE id = $1`, id))
	if err != nil {
		return games.Seated{}, err
	}
	st, err := standing(ctx, q, id, k.Variant, k.Speed())
	return games.Seated{Player: p, Standing: st}, err
}

// TouchSeeks records that players had a lobby page open at at, on
// server instance.
func (s sqlPlayers) TouchSeeks(ctx context.Context, players []string, at time.Time, instance string) error {
	const chunk = 500
	for len(players) > 0 {
		n := min(len(players), chunk)
		args := []any{ms(at), instance}
		marks := make([]string, 0, n)
		for _, p := range players[:n] {
			if validText(p) {
				args = append(args, p)
				marks = append(marks, "$"+strconv.Itoa(len(args)))
			}
		}
		players = players[n:]
		if len(marks) == 0 {
			continue
		}
		if _, err := s.db.exec(ctx, `UPDATE seeks SET alive_at = $1, instance = $2 WHERE game = '' AND alive_at < $1 AND player IN (`+strings.Join(marks, ", ")+`)`, args...); err != nil {
			return fmt.Errorf("keeping seeks alive: %w", err)
		}
	}
	return nil
}

// SweepSeeks removes the seeks no longer open and those accepted before
// acceptedBefore, and counts the open ones removed; the servers sharing
// the database are told when there were any.
func (s sqlPlayers) SweepSeeks(ctx context.Context, open lobby.SeekWindow, acceptedBefore time.Time) (int, error) {
	var n int64
	err := s.db.inTx(ctx, func(q querier) error {
		var err error
		n, err = q.exec(ctx, `DELETE FROM seeks WHERE game = '' AND NOT (`+openAt(1)+`)`, openArgs(open)...)
		if err != nil {
			return err
		}
		// The servers unheard of for as long as a seek lives have no seek left.
		if _, err := q.exec(ctx, `DELETE FROM instances WHERE beat_at < $1`, ms(open.CreatedSince)); err != nil {
			return err
		}
		if _, err := q.exec(ctx, `DELETE FROM seeks WHERE game <> '' AND accepted_at < $1`, ms(acceptedBefore)); err != nil {
			return err
		}
		if n > 0 {
			return s.db.notify(ctx, q, lobby.NoticeLobby)
		}
		return nil
	})
	return int(n), wrapStore(err, "sweeping seeks")
}

// Beat records that server instance is alive at at.
func (s sqlPlayers) Beat(ctx context.Context, instance string, at time.Time) error {
	if _, err := s.db.exec(ctx, `INSERT INTO instances (id, beat_at) VALUES ($1, $2)
		ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at WHERE instances.beat_at < excluded.beat_at`, instance, ms(at)); err != nil {
		return fmt.Errorf("recording that the server is alive: %w", err)
	}
	return nil
}

// Pairings returns the seeks player made or accepted that were accepted
// at since or later.
func (s sqlPlayers) Pairings(ctx context.Context, player string, since time.Time) ([]lobby.Seek, error) {
	if !validText(player) {
		return nil, nil
	}
	r, err := s.db.query(ctx, `SELECT `+seekColumns+` FROM seeks WHERE player = $1 AND game <> '' AND accepted_at >= $2
		UNION ALL SELECT `+seekColumns+` FROM seeks WHERE acceptor = $1 AND accepted_at >= $2
		ORDER BY accepted_at`, player, ms(since))
	if err != nil {
		return nil, fmt.Errorf("listing pairings: %w", err)
	}
	out, err := collect(r, scanSeek)
	if err != nil {
		return nil, fmt.Errorf("listing pairings: %w", err)
	}
	return out, nil
}
