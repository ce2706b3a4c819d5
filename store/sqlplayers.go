package store

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/banchess/banchess/players"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
)

// sqlPlayers keeps players, credentials, results, ratings, attempts
// counted, the servers' keys and the lobby in a database, for SQLite and Postgres alike. Times are
// unix milliseconds.
type sqlPlayers struct {
	db database
}

// ms is t in unix milliseconds; the zero time is 0.
func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// fromMS is ms's inverse.
func fromMS(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v)
}

// isNameViolation reports whether err is the refusal of a unique index
// of players' names (name_key, name_skeleton), in either database.
func isNameViolation(err error) bool {
	var se *sqlite.Error
	var pe *pgconn.PgError
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE && strings.Contains(se.Error(), "players.name") ||
		errors.As(err, &pe) && pe.Code == "23505" && strings.HasPrefix(pe.ConstraintName, "players_name")
}

// nameKeyOf is the name key column's value: NULL for no name.
func nameKeyOf(name string) any {
	if name == "" {
		return nil
	}
	return players.NameKey(name)
}

// skeletonOf is the name skeleton column's value: NULL for no name.
func skeletonOf(name string) any {
	if name == "" {
		return nil
	}
	return players.Skeleton(name)
}

// refuseName is the refusal of name, which a unique index refused: taken
// in any case, or like another player's.
func (s sqlPlayers) refuseName(ctx context.Context, name string) error {
	if _, err := s.PlayerNamed(ctx, name); err == nil {
		return nameTaken(name)
	}
	other, err := s.PlayerLike(ctx, name)
	if err != nil {
		return players.LooksLike(name, "")
	}
	return players.LooksLike(name, other.Name)
}

// AddPlayer stores a new player with its first credential.
func (s sqlPlayers) AddPlayer(ctx context.Context, p players.Player, cred players.Issued) error {
	err := s.db.inTx(ctx, func(q querier) error {
		_, err := q.exec(ctx, `INSERT INTO players (id, name, name_key, name_skeleton, password, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
			p.ID, p.Name, nameKeyOf(p.Name), skeletonOf(p.Name), p.Password, ms(p.Created))
		if err != nil {
			return err
		}
		return issue(ctx, q, cred)
	})
	if isNameViolation(err) {
		return s.refuseName(ctx, p.Name)
	}
	return wrapStore(err, "adding a player")
}

func issue(ctx context.Context, q querier, cred players.Issued) error {
	_, err := q.exec(ctx, `INSERT INTO credentials (hash, player, kind, created_at, scopes) VALUES ($1, $2, $3, $4, $5)`,
		cred.Hash, cred.Player, string(cred.Kind), ms(cred.Created), cred.Scopes.String())
	return err
}

// wrapStore passes on a refusal (*errs.Error) and wraps a failure.
func wrapStore(err error, what string) error {
	var ge *errs.Error
	if err == nil || errors.As(err, &ge) {
		return err
	}
	return fmt.Errorf("%s: %w", what, err)
}

// Issue records another credential of an existing player.
func (s sqlPlayers) Issue(ctx context.Context, cred players.Issued) error {
	err := s.db.inTx(ctx, func(q querier) error {
		var one int
		if err := q.queryRow(ctx, `SELECT 1 FROM players WHERE id = $1`, cred.Player).Scan(&one); errors.Is(err, errNoRows) {
			return noSuchPlayer()
		} else if err != nil {
			return err
		}
		return issue(ctx, q, cred)
	})
	return wrapStore(err, "issuing a credential")
}

// CredentialPlayer returns the player the credential of hash was issued
// to, or "".
func (s sqlPlayers) CredentialPlayer(ctx context.Context, hash string) (string, error) {
	if !validText(hash) {
		return "", nil
	}
	var player string
	err := s.db.queryRow(ctx, `SELECT player FROM credentials WHERE hash = $1`, hash).Scan(&player)
	if errors.Is(err, errNoRows) {
		return "", nil
	}
	return player, wrapStore(err, "looking up a credential")
}

// Credential returns the credential of hash as issued, and whether there
// is one.
func (s sqlPlayers) Credential(ctx context.Context, hash string) (players.Issued, bool, error) {
	if !validText(hash) {
		return players.Issued{}, false, nil
	}
	iss := players.Issued{Hash: hash}
	var kind, scopes string
	var created int64
	err := s.db.queryRow(ctx, `SELECT player, kind, created_at, scopes FROM credentials WHERE hash = $1`, hash).Scan(&iss.Player, &kind, &created, &scopes)
	if errors.Is(err, errNoRows) {
		return players.Issued{}, false, nil
	}
	if err != nil {
		return players.Issued{}, false, wrapStore(err, "reading a credential")
	}
	iss.Kind, iss.Created, iss.Scopes = players.CredentialKind(kind), fromMS(created), players.ScopesOf(scopes)
	return iss, true, nil
}

// SetBot makes the player of id a bot account, unless they are one or
// have played a rated game.
func (s sqlPlayers) SetBot(ctx context.Context, id string) error {
	if !validText(id) {
		return noSuchPlayer()
	}
	err := s.db.inTx(ctx, func(q querier) error {
		p, err := scanPlayer(q.queryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE id = $1`, id))
		if err != nil {
			return err
		}
		if p.Bot {
			return players.AlreadyBot()
		}
		var rated int
		if err := q.queryRow(ctx, `SELECT COUNT(*) FROM standings WHERE player = $1 AND games > 0`, id).Scan(&rated); err != nil {
			return err
		}
		if rated > 0 {
			return players.PlayedRated()
		}
		_, err = q.exec(ctx, `UPDATE players SET bot = $2 WHERE id = $1`, id, true)
		return err
	})
	return wrapStore(err, "making a bot account")
}

// Revoke forgets the credential of hash or, with all, every credential of
// its player; the servers sharing the database are told.
func (s sqlPlayers) Revoke(ctx context.Context, hash string, all bool) error {
	err := s.db.inTx(ctx, func(q querier) error {
		var player string
		err := q.queryRow(ctx, `DELETE FROM credentials WHERE hash = $1 RETURNING player`, hash).Scan(&player)
		if errors.Is(err, errNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if !all {
			return s.db.notify(ctx, q, players.NoticeRevoked(hash))
		}
		if _, err := q.exec(ctx, `DELETE FROM credentials WHERE player = $1`, player); err != nil {
			return err
		}
		return s.db.notify(ctx, q, players.NoticeSignedOut(player))
	})
	return wrapStore(err, "revoking credentials")
}

const playerColumns = `id, name, password, created_at, wins, losses, draws, bot`

func scanPlayer(sc scanner) (players.Player, error) {
	var p players.Player
	var created int64
	err := sc.Scan(&p.ID, &p.Name, &p.Password, &created, &p.Wins, &p.Losses, &p.Draws, &p.Bot)
	if errors.Is(err, errNoRows) {
		return players.Player{}, noSuchPlayer()
	}
	p.Created = fromMS(created)
	return p, err
}

// Player returns the player of id.
func (s sqlPlayers) Player(ctx context.Context, id string) (players.Player, error) {
	if !validText(id) {
		return players.Player{}, noSuchPlayer()
	}
	p, err := scanPlayer(s.db.queryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE id = $1`, id))
	return p, wrapStore(err, "reading a player")
}

// PlayerNamed returns the player whose name is name in any case.
func (s sqlPlayers) PlayerNamed(ctx context.Context, name string) (players.Player, error) {
	if !validText(name) || name == "" {
		return players.Player{}, noSuchPlayer()
	}
	p, err := scanPlayer(s.db.queryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE name_key = $1`, players.NameKey(name)))
	return p, wrapStore(err, "reading a player")
}

// PlayerLike returns the player whose name looks like name.
func (s sqlPlayers) PlayerLike(ctx context.Context, name string) (players.Player, error) {
	if !validText(name) || name == "" {
		return players.Player{}, noSuchPlayer()
	}
	p, err := scanPlayer(s.db.queryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE name_skeleton = $1`, players.Skeleton(name)))
	return p, wrapStore(err, "reading a player")
}

// SetName gives a player, still unnamed, its name and password hash,
// issues it a new credential and revokes the one it replaces, in one
// transaction; the servers sharing the database are told of the
// revocation.
func (s sqlPlayers) SetName(ctx context.Context, n players.Naming) error {
	err := s.db.inTx(ctx, func(q querier) error {
		named, err := q.exec(ctx, `UPDATE players SET name = $2, name_key = $3, name_skeleton = $4, password = $5 WHERE id = $1 AND name = ''`,
			n.Player, n.Name, players.NameKey(n.Name), players.Skeleton(n.Name), n.Password)
		switch {
		case err != nil:
			return err
		case named == 0:
			if _, err := scanPlayer(q.queryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE id = $1`, n.Player)); err != nil {
				return err
			}
			return alreadyNamed()
		}
		if err := issue(ctx, q, n.Issued); err != nil {
			return err
		}
		revoked, err := q.exec(ctx, `DELETE FROM credentials WHERE hash = $1 AND player = $2`, n.Revoked, n.Player)
		if err != nil || revoked == 0 {
			return err
		}
		return s.db.notify(ctx, q, players.NoticeRevoked(n.Revoked))
	})
	if isNameViolation(err) {
		return s.refuseName(ctx, n.Name)
	}
	return wrapStore(err, "naming a player")
}

const standingColumns = `variant, speed, rating, deviation, volatility, games, last_at`

func scanStanding(sc scanner) (players.Standing, error) {
	var st players.Standing
	var last int64
	var speed string
	err := sc.Scan(&st.Variant, &speed, &st.Rating.Rating, &st.Rating.Deviation, &st.Rating.Volatility, &st.Games, &last)
	st.Speed, st.Last = rating.Speed(speed), fromMS(last)
	return st, err
}

// Standings returns the player's standings.
func (s sqlPlayers) Standings(ctx context.Context, id string) ([]players.Standing, error) {
	if !validText(id) {
		return nil, nil
	}
	r, err := s.db.query(ctx, `SELECT `+standingColumns+` FROM standings WHERE player = $1`, id)
	if err != nil {
		return nil, fmt.Errorf("reading standings: %w", err)
	}
	out, err := collect(r, scanStanding)
	if err != nil {
		return nil, fmt.Errorf("reading standings: %w", err)
	}
	sortStandings(out)
	return out, nil
}

// collect scans every row with scan, and closes the rows.
func collect[T any](r rows, scan func(scanner) (T, error)) ([]T, error) {
	defer r.Close()
	var out []T
	for r.Next() {
		v, err := scan(r)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, r.Err()
}

// Standing returns the player's standing in variant at speed.
func (s sqlPlayers) Standing(ctx context.Context, id, variant string, speed rating.Speed) (players.Standing, error) {
	st, err := standing(ctx, s.db, id, variant, speed)
	return st, wrapStore(err, "reading a standing")
}

// standing reads a standing (a new one when there is none).
func standing(ctx context.Context, q querier, id, variant string, speed rating.Speed) (players.Standing, error) {
	st, err := scanStanding(q.queryRow(ctx, `SELECT `+standingColumns+` FROM standings WHERE player = $1 AND variant = $2 AND speed = $3`,
		id, variant, string(speed)))
	if errors.Is(err, errNoRows) {
		return players.NewStanding(variant, speed), nil
	}
	return st, err
}

// playedQuery lists a player's games, newest first, from the index
// played_newest: $1 the player, $2 and $3 the cursor, $4 the limit.
const playedQuery = `SELECT game, ended_at, color, opponent, score, result, ending, variant, speed, rated, rating_before, rating_after, fen
	FROM played WHERE player = $1 AND (ended_at < $2 OR ended_at = $2 AND game < $3)
	ORDER BY ended_at DESC, game DESC LIMIT $4`

// PlayedGames returns up to limit of the player's finished games that
// ended before the cursor, newest first.
func (s sqlPlayers) PlayedGames(ctx context.Context, id string, before players.PlayedGamesCursor, limit int) ([]players.PlayedGame, error) {
	if !validText(id) || !validText(before.Game) || limit <= 0 {
		return nil, nil
	}
	end, game := int64(1<<62), ""
	if before.Game != "" {
		end, game = ms(before.Ended), before.Game
	} else {
		game = "\x7f" // after every id (ids are URL-safe base64)
	}
	r, err := s.db.query(ctx, playedQuery, id, end, game, limit)
	if err != nil {
		return nil, fmt.Errorf("listing played games: %w", err)
	}
	out, err := collect(r, scanPlayed)
	if err != nil {
		return nil, fmt.Errorf("listing played games: %w", err)
	}
	return out, nil
}

// PlayedGame returns the entry of game in the player's list of finished
// games, and whether there is one.
func (s sqlPlayers) PlayedGame(ctx context.Context, id, game string) (players.PlayedGame, bool, error) {
	if !validText(id) || !validText(game) {
		return players.PlayedGame{}, false, nil
	}
	r, err := s.db.query(ctx, `SELECT game, ended_at, color, opponent, score, result, ending, variant, speed, rated, rating_before, rating_after, fen
		FROM played WHERE player = $1 AND game = $2`, id, game)
	if err != nil {
		return players.PlayedGame{}, false, fmt.Errorf("reading a played game: %w", err)
	}
	out, err := collect(r, scanPlayed)
	if err != nil {
		return players.PlayedGame{}, false, fmt.Errorf("reading a played game: %w", err)
	}
	if len(out) == 0 {
		return players.PlayedGame{}, false, nil
	}
	return out[0], true, nil
}

// scanPlayed scans a row of played, its columns as playedQuery lists them.
func scanPlayed(sc scanner) (players.PlayedGame, error) {
	var g players.PlayedGame
	var ended int64
	var color, speed string
	var score float64
	err := sc.Scan(&g.Game, &ended, &color, &g.Opponent, &score, &g.Result, &g.Ending, &g.Variant, &speed, &g.Rated, &g.Before, &g.After, &g.FEN)
	g.Ended, g.Score, g.Speed = fromMS(ended), rating.Score(score), rating.Speed(speed)
	g.Color, _ = rules.ParseColor(color)
	return g, err
}

// leadersQuery lists the highest rated of a variant ($1) at a speed ($2)
// from the partial index standings_leaders: its condition (games >= 10)
// is written out for SQLite to use it; $3 raises the bar, $4 is the
// limit.
const leadersQuery = `SELECT p.name, s.variant, s.speed, s.rating, s.deviation, s.volatility, s.games, s.last_at
	FROM standings s JOIN players p ON p.id = s.player
	WHERE s.variant = $1 AND s.speed = $2 AND s.games >= 10 AND s.games >= $3
	ORDER BY s.rating DESC LIMIT $4`

// anyLeadersQuery is leadersQuery for a bar below the partial index's.
const anyLeadersQuery = `SELECT p.name, s.variant, s.speed, s.rating, s.deviation, s.volatility, s.games, s.last_at
	FROM standings s JOIN players p ON p.id = s.player
	WHERE s.variant = $1 AND s.speed = $2 AND s.games >= $3
	ORDER BY s.rating DESC LIMIT $4`

// Leaders returns up to limit players with at least minGames rated games
// of variant at speed, the highest rated first. minGames below 10 counts
// as 10, the index's bound.
func (s sqlPlayers) Leaders(ctx context.Context, variant string, speed rating.Speed, minGames, limit int) ([]players.Leader, error) {
	if !validText(variant) || !validText(string(speed)) {
		return nil, nil
	}
	q := leadersQuery
	if minGames < players.LeaderGames {
		q = anyLeadersQuery
	}
	r, err := s.db.query(ctx, q, variant, string(speed), minGames, limit)
	if err != nil {
		return nil, fmt.Errorf("listing leaders: %w", err)
	}
	out, err := collect(r, func(sc scanner) (players.Leader, error) {
		var l players.Leader
		var last int64
		var sp string
		st := &l.Standing
		err := sc.Scan(&l.Name, &st.Variant, &sp, &st.Rating.Rating, &st.Rating.Deviation, &st.Rating.Volatility, &st.Games, &last)
		st.Speed, st.Last = rating.Speed(sp), fromMS(last)
		return l, err
	})
	if err != nil {
		return nil, fmt.Errorf("listing leaders: %w", err)
	}
	return out, nil
}

// StartAttempt counts attempt under each of its counters' keys unless one
// of them is full: then it says which. The keys' counts and the attempt's
// rows are one transaction that holds the keys' locks (PostgreSQL's
// advisory locks; SQLite's transaction holds the whole database), so that
// concurrent attempts, on any server, are counted one after another.
// Attempts that no longer count are forgotten first, in a statement of
// their own, which takes no key's lock.
func (s sqlPlayers) StartAttempt(ctx context.Context, attempt players.Attempt) (*players.Refused, error) {
	if _, err := s.db.exec(ctx, `DELETE FROM failed_logins WHERE expires_at <= $1`, ms(attempt.At)); err != nil {
		return nil, fmt.Errorf("forgetting old attempts: %w", err)
	}
	var keys []string
	for _, c := range attempt.Counters {
		if validText(c.Key) {
			keys = append(keys, c.Key)
		}
	}
	slices.Sort(keys)
	var refused *players.Refused
	err := s.db.inTx(ctx, func(q querier) error {
		refused = nil
		for _, k := range keys { // in order, so that two attempts never wait for each other's
			if err := s.db.lock(ctx, q, "login:"+k); err != nil {
				return err
			}
		}
		for i, c := range attempt.Counters {
			if !validText(c.Key) {
				continue
			}
			r, err := q.query(ctx, `SELECT expires_at FROM failed_logins WHERE key = $1 AND expires_at > $2 ORDER BY expires_at`, c.Key, ms(attempt.At))
			if err != nil {
				return err
			}
			until, err := collect(r, func(sc scanner) (time.Time, error) {
				var at int64
				err := sc.Scan(&at)
				return fromMS(at), err
			})
			if err != nil {
				return err
			}
			if len(until) >= c.Max {
				refused = &players.Refused{Counter: i, Until: until}
				return nil
			}
		}
		for _, c := range attempt.Counters {
			if !validText(c.Key) {
				continue
			}
			if _, err := q.exec(ctx, `INSERT INTO failed_logins (key, at, attempt, expires_at) VALUES ($1, $2, $3, $4)`,
				c.Key, ms(attempt.At), attempt.ID, ms(attempt.At.Add(c.Window))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, wrapStore(err, "counting an attempt")
	}
	return refused, nil
}

// ForgetAttempt forgets attempt.
func (s sqlPlayers) ForgetAttempt(ctx context.Context, attempt players.Attempt) error {
	for _, c := range attempt.Counters {
		if !validText(c.Key) {
			continue
		}
		if _, err := s.db.exec(ctx, `DELETE FROM failed_logins WHERE key = $1 AND expires_at = $2 AND attempt = $3`,
			c.Key, ms(attempt.At.Add(c.Window)), attempt.ID); err != nil {
			return fmt.Errorf("forgetting an attempt: %w", err)
		}
	}
	return nil
}

// ServerKey returns the key named name, made the first time: of servers
// asking at once, the first to insert it makes it, and all read it back.
func (s sqlPlayers) ServerKey(ctx context.Context, name string) ([]byte, error) {
	fresh := make([]byte, serverKeyBytes)
	rand.Read(fresh)
	if _, err := s.db.exec(ctx, `INSERT INTO server_keys (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
		name, base64.StdEncoding.EncodeToString(fresh)); err != nil {
		return nil, fmt.Errorf("making the key %q: %w", name, err)
	}
	var stored string
	if err := s.db.queryRow(ctx, `SELECT secret FROM server_keys WHERE name = $1`, name).Scan(&stored); err != nil {
		return nil, fmt.Errorf("reading the key %q: %w", name, err)
	}
	key, err := base64.StdEncoding.DecodeString(stored)
	if err != nil {
		return nil, fmt.Errorf("reading the key %q: %w", name, err)
	}
	return key, nil
}

// serverKeyBytes is the size of a key ServerKey makes.
const serverKeyBytes = 32

// recordResult records, in the transaction of the save that finished
// rec's game, its result if it has one (games.ResultOf): the players'
// lists of games, wins, losses and draws, and for a rated game their
// standings. A result recorded already is
// not recorded again (and the save's revision check lets only one save
// finish a game).
func recordResult(ctx context.Context, db database, q querier, rec *games.Record) error {
	res, ok := games.ResultOf(rec)
	if !ok {
		return nil
	}
	var one int
	err := q.queryRow(ctx, `SELECT 1 FROM played WHERE player = $1 AND game = $2`, res.White.Player, res.Game).Scan(&one)
	if err == nil {
		return nil // recorded already
	}
	if !errors.Is(err, errNoRows) {
		return err
	}
	// Lock both players' rows, in one order (by id) so that two
	// transactions never wait for each other: a player's games finishing
	// at once on two servers are rated one after the other.
	first, second := res.White.Player, res.Black.Player
	if second < first {
		first, second = second, first
	}
	for _, id := range []string{first, second} {
		if _, err := q.exec(ctx, `SELECT id FROM players WHERE id = $1`+db.forUpdate(), id); err != nil {
			return err
		}
	}
	if res.Rated {
		w, err := standing(ctx, q, res.White.Player, res.Variant, res.Speed)
		if err != nil {
			return err
		}
		b, err := standing(ctx, q, res.Black.Player, res.Variant, res.Speed)
		if err != nil {
			return err
		}
		if w, b, err = res.Rate(w, b); err != nil {
			return err
		}
		if err := saveStanding(ctx, q, res.White.Player, w); err != nil {
			return err
		}
		if err := saveStanding(ctx, q, res.Black.Player, b); err != nil {
			return err
		}
	}
	for _, side := range []rules.Color{rules.White, rules.Black} {
		me, them := res.Side(side), res.Side(side.Other())
		g := playedGame(&res, side, me, them)
		_, err := q.exec(ctx, `INSERT INTO played (player, game, ended_at, color, opponent, score, result, ending, variant, speed, rated, rating_before, rating_after, fen)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
			me.Player, g.Game, ms(g.Ended), side.String(), g.Opponent, float64(g.Score), g.Result, g.Ending, g.Variant, string(g.Speed), g.Rated, g.Before, g.After, g.FEN)
		if err != nil {
			return err
		}
		col := map[rating.Score]string{rating.Win: "wins", rating.Loss: "losses", rating.Draw: "draws"}[me.Score]
		if _, err := q.exec(ctx, `UPDATE players SET `+col+` = `+col+` + 1 WHERE id = $1`, me.Player); err != nil {
			return err
		}
	}
	return nil
}

// saveStanding writes a player's standing.
func saveStanding(ctx context.Context, q querier, player string, st players.Standing) error {
	_, err := q.exec(ctx, `INSERT INTO standings (player, variant, speed, rating, deviation, volatility, games, last_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (player, variant, speed) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
			volatility = excluded.volatility, games = excluded.games, last_at = excluded.last_at`,
		player, st.Variant, string(st.Speed), st.Rating.Rating, st.Rating.Deviation, st.Rating.Volatility, st.Games, ms(st.Last))
	return err
}

// forgottenPlayers are the anonymous players made before $1 (unix ms)
// who hold no seat in any game and have done no lesson step, no rated
// puzzle and no scored streak or storm: nothing they did is kept, and no
// one can see them.
const forgottenPlayers = `SELECT id FROM players p WHERE p.name = '' AND p.created_at < $1
	AND NOT EXISTS (SELECT 1 FROM games WHERE white = p.id AND white <> '')
	AND NOT EXISTS (SELECT 1 FROM games WHERE black = p.id AND black <> '')
	AND NOT EXISTS (SELECT 1 FROM learners WHERE player = p.id)
	AND NOT EXISTS (SELECT 1 FROM lesson_steps WHERE player = p.id)
	AND NOT EXISTS (SELECT 1 FROM training_bests WHERE player = p.id AND best > 0)`

// sweepPlayers removes the anonymous players made before cutoff who hold
// no seat in any game (theirs were swept, or they never had one), with
// their credentials and lists of games: every visitor is a player, and
// the games' TTL would otherwise leave them all behind. A credential of
// one presented later is a new visitor's. Streak's and Storm's runs
// started before cutoff go too.
func (s sqlPlayers) sweepPlayers(ctx context.Context, cutoff time.Time) error {
	err := s.db.inTx(ctx, func(q querier) error {
		for _, table := range []string{"credentials", "played"} {
			if _, err := q.exec(ctx, `DELETE FROM `+table+` WHERE player IN (`+forgottenPlayers+`)`, ms(cutoff)); err != nil {
				return err
			}
		}
		if _, err := q.exec(ctx, `DELETE FROM players WHERE id IN (`+forgottenPlayers+`)`, ms(cutoff)); err != nil {
			return err
		}
		// Streak's and Storm's runs as old: long over (their bests are kept).
		_, err := q.exec(ctx, `DELETE FROM training_runs WHERE started < $1`, ms(cutoff))
		return err
	})
	return wrapStore(err, "sweeping players")
}
