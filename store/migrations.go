package store

import (
	"context"
	"fmt"
	"strings"
)

// migration is a step of the schema: a name saying what it makes, and
// its SQL, written once for both databases (see sqliteDDL).
type migration struct {
	name string
	sql  string
}

// migrations make and evolve the schema, in order. A database records how
// many of them have run, its schema version (SQLite's PRAGMA
// user_version, PostgreSQL's table schema_version), so the list only
// grows at its end, and a migration that has run somewhere never changes
// what it makes. The list replaced two, one a database, that counted the
// same steps one for one: the version a database made by them records
// means the same here (TestMigrationsFromOldSchemas).
var migrations = [...]migration{
	{"games", `CREATE TABLE games (
		id         TEXT PRIMARY KEY,
		variant    TEXT NOT NULL,
		start_fen  TEXT NOT NULL,
		actions    TEXT NOT NULL,  -- every ply in BCN, separated by spaces
		declared   TEXT NOT NULL,  -- '', 'white-resigned', 'black-resigned' or 'draw-agreed'
		tags       TEXT NOT NULL,  -- PGN tags as JSON
		from_chess BOOLEAN NOT NULL,
		created_at BIGINT NOT NULL, -- unix seconds
		touched_at BIGINT NOT NULL  -- unix seconds of the last request
	) WITHOUT ROWID;
	CREATE INDEX games_touched_at ON games(touched_at);`},
	// Games stored before have no holders: the browser whose cookie names
	// one claims it.
	{"games_seats_summary", `ALTER TABLE games ADD COLUMN white TEXT NOT NULL DEFAULT '';  -- the holders of the seats
	ALTER TABLE games ADD COLUMN black TEXT NOT NULL DEFAULT '';
	ALTER TABLE games ADD COLUMN white_hidden BOOLEAN NOT NULL DEFAULT false;
	ALTER TABLE games ADD COLUMN black_hidden BOOLEAN NOT NULL DEFAULT false;
	ALTER TABLE games ADD COLUMN mode TEXT NOT NULL DEFAULT 'hotseat';
	ALTER TABLE games ADD COLUMN updated_at BIGINT NOT NULL DEFAULT 0; -- unix milliseconds of the last change
	ALTER TABLE games ADD COLUMN fen TEXT NOT NULL DEFAULT '';
	ALTER TABLE games ADD COLUMN ply INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE games ADD COLUMN actor TEXT NOT NULL DEFAULT '';
	ALTER TABLE games ADD COLUMN phase TEXT NOT NULL DEFAULT '';
	ALTER TABLE games ADD COLUMN result TEXT NOT NULL DEFAULT '';
	UPDATE games SET updated_at = touched_at * 1000;
	CREATE INDEX games_white ON games(white) WHERE white <> '';
	CREATE INDEX games_black ON games(black) WHERE black <> '';`},
	// Every save checks and increments the revision, so a save from a
	// stale copy of a game (another process's) overwrites nothing; a
	// health check may write write_probe's row to learn whether writes
	// work.
	{"games_revision_write_probe", `ALTER TABLE games ADD COLUMN revision BIGINT NOT NULL DEFAULT 0; -- counts the row's saves
	CREATE TABLE write_probe (id INTEGER PRIMARY KEY CHECK (id = 1), at BIGINT NOT NULL);`},
	// What a game between two players has besides its game (the invite,
	// the clock, the offers), as JSON: '' for a hot-seat game.
	{"games_table_state", `ALTER TABLE games ADD COLUMN table_state TEXT NOT NULL DEFAULT '';`},
	// Each game's review (games.StoredReview).
	{"reviews", `CREATE TABLE reviews (
		game_id     TEXT PRIMARY KEY,
		game_key    TEXT NOT NULL,    -- SHA-256 of the game reviewed: variant, start, plies
		status      TEXT NOT NULL,    -- 'queued', 'running' or 'done'
		owner       TEXT NOT NULL,    -- the server that queued or runs it
		lease_until BIGINT NOT NULL,  -- unix milliseconds: until when owner holds it
		place       INTEGER NOT NULL, -- a queued review's place in its server's queue
		total       INTEGER NOT NULL, -- positions to evaluate
		positions   TEXT NOT NULL     -- JSON: the positions evaluated so far
	) WITHOUT ROWID;`},
	// Players, the credentials issued to them (hashes), their results and
	// ratings, failed logins and the lobby's seeks (times in unix
	// milliseconds). Every seat's holder so far becomes a player, and its
	// hash (the SHA-256 of the cookie or token it was) that player's
	// credential: seats now belong to players. One migration, as it ran:
	// splitting it would renumber the versions databases record.
	{"players_results_lobby", `CREATE TABLE players (
		id         TEXT PRIMARY KEY,
		name       TEXT NOT NULL DEFAULT '', -- '' until chosen
		name_key   TEXT UNIQUE,              -- lower(name), NULL until chosen: names are unique in any case
		password   TEXT NOT NULL DEFAULT '', -- argon2id, PHC string
		created_at BIGINT NOT NULL,
		wins       INTEGER NOT NULL DEFAULT 0,
		losses     INTEGER NOT NULL DEFAULT 0,
		draws      INTEGER NOT NULL DEFAULT 0
	) WITHOUT ROWID;
	CREATE TABLE credentials (
		hash       TEXT PRIMARY KEY, -- SHA-256 of the cookie or token
		player     TEXT NOT NULL,
		kind       TEXT NOT NULL,    -- 'cookie' or 'token'
		created_at BIGINT NOT NULL
	) WITHOUT ROWID;
	CREATE INDEX credentials_player ON credentials(player);
	CREATE TABLE standings (
		player     TEXT NOT NULL,
		variant    TEXT NOT NULL,
		speed      TEXT NOT NULL,
		rating     DOUBLE PRECISION NOT NULL,
		deviation  DOUBLE PRECISION NOT NULL,
		volatility DOUBLE PRECISION NOT NULL,
		games      INTEGER NOT NULL,
		last_at    BIGINT NOT NULL, -- the last rated game's end
		PRIMARY KEY (player, variant, speed)
	) WITHOUT ROWID;
	CREATE INDEX standings_leaders ON standings(variant, speed, rating) WHERE games >= 10;
	CREATE TABLE played (
		player        TEXT NOT NULL,
		game          TEXT COLLATE "C" NOT NULL,
		ended_at      BIGINT NOT NULL,
		color         TEXT NOT NULL,
		opponent      TEXT NOT NULL, -- the name the game recorded, '' for none
		score         DOUBLE PRECISION NOT NULL,
		result        TEXT NOT NULL,
		ending        TEXT NOT NULL,
		variant       TEXT NOT NULL,
		speed         TEXT NOT NULL,
		rated         BOOLEAN NOT NULL,
		rating_before DOUBLE PRECISION NOT NULL,
		rating_after  DOUBLE PRECISION NOT NULL,
		fen           TEXT NOT NULL,
		PRIMARY KEY (player, game)
	) WITHOUT ROWID;
	CREATE INDEX played_newest ON played(player, ended_at, game);
	CREATE TABLE seeks (
		id           TEXT PRIMARY KEY,
		player       TEXT NOT NULL,
		name         TEXT NOT NULL,
		rating       INTEGER NOT NULL,
		provisional  BOOLEAN NOT NULL,
		variant      TEXT NOT NULL,
		initial_ms   BIGINT NOT NULL,
		increment_ms BIGINT NOT NULL,
		color        TEXT NOT NULL, -- the maker's, '' for random
		rated        BOOLEAN NOT NULL,
		pool         TEXT NOT NULL, -- '' for a custom seek
		created_at   BIGINT NOT NULL,
		alive_at     BIGINT NOT NULL, -- the maker last seen in the lobby
		game         TEXT NOT NULL,   -- once accepted
		acceptor     TEXT NOT NULL,
		accepted_at  BIGINT NOT NULL
	) WITHOUT ROWID;
	CREATE INDEX seeks_player ON seeks(player);
	CREATE INDEX seeks_acceptor ON seeks(acceptor) WHERE acceptor <> '';
	CREATE INDEX seeks_pool ON seeks(pool, created_at) WHERE game = '';
	CREATE TABLE failed_logins (key TEXT NOT NULL, at BIGINT NOT NULL);
	CREATE INDEX failed_logins_key ON failed_logins(key, at);
	CREATE INDEX failed_logins_at ON failed_logins(at);
	INSERT INTO players (id, created_at)
		SELECT holder, min(created) * 1000 FROM (
			SELECT white AS holder, created_at AS created FROM games WHERE white <> '' AND white NOT LIKE 'engine:%'
			UNION ALL SELECT black, created_at FROM games WHERE black <> '' AND black NOT LIKE 'engine:%'
		) AS holders GROUP BY holder;
	INSERT INTO credentials (hash, player, kind, created_at) SELECT id, id, 'cookie', created_at FROM players;`},
	// Training (package training): each player's puzzle rating and
	// counts, the lesson steps they have done, each puzzle's rating once
	// it is rated, and each player's last finished attempt at each puzzle
	// (its ratings as shown).
	{"training", `CREATE TABLE learners (
		player     TEXT PRIMARY KEY,
		rating     DOUBLE PRECISION NOT NULL,
		deviation  DOUBLE PRECISION NOT NULL,
		volatility DOUBLE PRECISION NOT NULL,
		rated_at   BIGINT NOT NULL,  -- the last rated attempt
		puzzles    INTEGER NOT NULL, -- rated attempts
		solved     INTEGER NOT NULL
	) WITHOUT ROWID;
	CREATE TABLE lesson_steps (
		player  TEXT NOT NULL,
		lesson  TEXT NOT NULL,
		step    INTEGER NOT NULL, -- from 0
		done_at BIGINT NOT NULL,
		PRIMARY KEY (player, lesson, step)
	) WITHOUT ROWID;
	CREATE TABLE puzzle_ratings (
		puzzle     TEXT PRIMARY KEY,
		rating     DOUBLE PRECISION NOT NULL,
		deviation  DOUBLE PRECISION NOT NULL,
		volatility DOUBLE PRECISION NOT NULL,
		plays      INTEGER NOT NULL, -- rated attempts
		solved     INTEGER NOT NULL
	) WITHOUT ROWID;
	CREATE TABLE puzzle_attempts (
		player           TEXT NOT NULL,
		puzzle           TEXT COLLATE "C" NOT NULL,
		at               BIGINT NOT NULL,
		solved           BOOLEAN NOT NULL,
		failed_at        INTEGER NOT NULL, -- the wrong action's index, -1 when solved
		actions          TEXT NOT NULL,    -- the solver's actions, BCN, space-separated
		reason           TEXT NOT NULL,    -- why the wrong action fails
		rated            BOOLEAN NOT NULL,
		before_rating    DOUBLE PRECISION NOT NULL,
		before_deviation DOUBLE PRECISION NOT NULL,
		after_rating     DOUBLE PRECISION NOT NULL,
		after_deviation  DOUBLE PRECISION NOT NULL,
		puzzle_before    DOUBLE PRECISION NOT NULL,
		puzzle_after     DOUBLE PRECISION NOT NULL,
		PRIMARY KEY (player, puzzle)
	) WITHOUT ROWID;`},
	// A sign-in attempt is counted before its password is checked, and
	// forgotten if it was right: each row is an attempt, which a success
	// finds by its id ('' for the failures recorded before).
	{"failed_logins_attempt", `ALTER TABLE failed_logins ADD COLUMN attempt TEXT NOT NULL DEFAULT '';`},
	// An attempt counts under each of its keys for a window of that key's
	// (a sign-in's name from an address, a name, an address, a device): a
	// row says until when it counts. The rows before counted a minute.
	{"failed_logins_expire", `ALTER TABLE failed_logins ADD COLUMN expires_at BIGINT NOT NULL DEFAULT 0;
	UPDATE failed_logins SET expires_at = at + 60000;
	DROP INDEX failed_logins_key;
	DROP INDEX failed_logins_at;
	CREATE INDEX failed_logins_key ON failed_logins(key, expires_at);
	CREATE INDEX failed_logins_expires ON failed_logins(expires_at);`},
	// Secrets the servers sharing the database share (base64): the key
	// that signs device tokens (players.SignIn.Device).
	{"server_keys", `CREATE TABLE server_keys (
		name   TEXT PRIMARY KEY,
		secret TEXT NOT NULL
	) WITHOUT ROWID;`},
	// No two players' names look alike: each name's skeleton
	// (players.Skeleton, computed here as it computes it) is unique.
	// Players named alike before keep their names; the oldest of them
	// holds the skeleton, the others none (NULL, as the unnamed).
	{"players_name_skeleton", `ALTER TABLE players ADD COLUMN name_skeleton TEXT;
	UPDATE players SET name_skeleton = replace(replace(replace(replace(replace(replace(lower(name),
		'1', 'l'), '|', 'l'), 'i', 'l'), '0', 'o'), 'rn', 'm'), 'vv', 'w') WHERE name <> '';
	CREATE INDEX players_name_skeleton_alike ON players(name_skeleton);
	UPDATE players SET name_skeleton = NULL WHERE name_skeleton IS NOT NULL AND EXISTS (
		SELECT 1 FROM players AS older WHERE older.name_skeleton = players.name_skeleton
		AND (older.created_at < players.created_at OR older.created_at = players.created_at AND older.id < players.id));
	DROP INDEX players_name_skeleton_alike;
	CREATE UNIQUE INDEX players_name_skeleton ON players(name_skeleton);`},
	// The client address a seek was made from: the seeks open from one
	// address are bounded (lobby.MaxAddressSeeks).
	{"seeks_address", `ALTER TABLE seeks ADD COLUMN address TEXT NOT NULL DEFAULT '';
	CREATE INDEX seeks_address ON seeks(address) WHERE game = '' AND address <> '';`},
	// When each game's clock ends it (games.Record.Due), so that any
	// server finds the games its clocks should have ended without reading
	// every game: a game whose server died is ended on time. 0 for none
	// (no clock, a stopped one, a game over, and the games saved before
	// this, until their next save). A sweep claims a due game by moving it
	// on (a lease), and the game's next save writes it afresh.
	{"games_due_at", `ALTER TABLE games ADD COLUMN due_at BIGINT NOT NULL DEFAULT 0; -- unix milliseconds
	CREATE INDEX games_due_at ON games(due_at) WHERE due_at > 0;`},
	// Each server records that it is alive every second or so (a beat),
	// and a seek the server that holds its maker's lobby page, so that
	// the seeks of a server that died end within seconds ('' for the
	// seeks made before, which keep the lobby's other limits).
	{"instances", `CREATE TABLE instances (
		id      TEXT PRIMARY KEY,
		beat_at BIGINT NOT NULL -- unix milliseconds of its last beat
	) WITHOUT ROWID;
	ALTER TABLE seeks ADD COLUMN instance TEXT NOT NULL DEFAULT '';`},
	// A failed attempt keeps the engine's answer to its wrong action, which
	// the result page plays on the board after it (training.Attempt).
	{"puzzle_attempts_refutation", `ALTER TABLE puzzle_attempts ADD COLUMN refutation TEXT NOT NULL DEFAULT ''; -- BCN, space-separated`},
	// The scopes a token is limited to (players.Scopes, space-separated;
	// '' for none: not limited), and bot accounts (the Bot API's).
	{"credential_scopes_bots", `ALTER TABLE credentials ADD COLUMN scopes TEXT NOT NULL DEFAULT '';
	ALTER TABLE players ADD COLUMN bot BOOLEAN NOT NULL DEFAULT false;`},
	// Each game's chat (package chat): its lines, numbered from 1 a game
	// across its two rooms, and the players who turned chat off.
	{"chat", `CREATE TABLE chat_lines (
		game   TEXT NOT NULL,
		seq    BIGINT NOT NULL, -- the line's number in its game, from 1
		room   TEXT NOT NULL,   -- 'player' or 'spectator'
		author TEXT NOT NULL,   -- the player's id
		name   TEXT NOT NULL,   -- the player's name when they wrote it, '' for none
		text   TEXT NOT NULL,
		at     BIGINT NOT NULL, -- unix milliseconds
		PRIMARY KEY (game, seq)
	) WITHOUT ROWID;
	CREATE INDEX chat_lines_author ON chat_lines(game, room, author, seq);
	CREATE TABLE chat_settings (
		player TEXT PRIMARY KEY,
		off    BOOLEAN NOT NULL
	) WITHOUT ROWID;`},
	// Whom players follow and whom they block (package relations).
	{"relations", `CREATE TABLE follows (
		follower TEXT NOT NULL,   -- the players' ids
		followed TEXT NOT NULL,
		at       BIGINT NOT NULL, -- unix milliseconds
		PRIMARY KEY (follower, followed)
	) WITHOUT ROWID;
	CREATE TABLE blocks (
		blocker TEXT NOT NULL,   -- the players' ids
		blocked TEXT NOT NULL,
		at      BIGINT NOT NULL, -- unix milliseconds
		PRIMARY KEY (blocker, blocked)
	) WITHOUT ROWID;
	CREATE INDEX blocks_blocked ON blocks(blocked, blocker);`},
	// Recovery codes (their hashes) and closed accounts (package players).
	{"account_safety", `CREATE TABLE recovery_codes (
		player TEXT NOT NULL, -- the player's id
		id     TEXT NOT NULL, -- the code's first group, which tells a player's codes apart
		hash   TEXT NOT NULL, -- the code's argon2id hash
		PRIMARY KEY (player, id)
	) WITHOUT ROWID;
	CREATE TABLE closed_accounts (
		player TEXT PRIMARY KEY, -- the player's id
		at     BIGINT NOT NULL   -- unix milliseconds
	) WITHOUT ROWID;`},
	// Moderators, reports, chat mutes and the moderation log (package
	// moderation).
	{"moderation", `CREATE TABLE moderators (
		player TEXT PRIMARY KEY, -- the player's id
		since  BIGINT NOT NULL   -- unix milliseconds
	) WITHOUT ROWID;
	CREATE TABLE reports (
		id            TEXT PRIMARY KEY,
		reporter      TEXT NOT NULL, -- the players' ids, and their names then
		reporter_name TEXT NOT NULL,
		reported      TEXT NOT NULL,
		reported_name TEXT NOT NULL,
		reason        TEXT NOT NULL, -- 'abuse', 'cheating' or 'other'
		text          TEXT NOT NULL,
		game          TEXT NOT NULL, -- the chat line reported: '', '', 0 for a player
		room          TEXT NOT NULL,
		seq           BIGINT NOT NULL,
		at            BIGINT NOT NULL, -- unix milliseconds
		closed_at     BIGINT NOT NULL, -- unix milliseconds; 0 while open
		outcome       TEXT NOT NULL    -- the action that closed it
	) WITHOUT ROWID;
	CREATE INDEX reports_open ON reports(closed_at, at);
	CREATE INDEX reports_reporter ON reports(reporter, closed_at);
	CREATE TABLE mutes (
		player   TEXT PRIMARY KEY, -- the player's id
		until_at BIGINT NOT NULL   -- unix milliseconds
	) WITHOUT ROWID;
	CREATE TABLE moderation_log (
		id             TEXT PRIMARY KEY,
		at             BIGINT NOT NULL, -- unix milliseconds
		moderator      TEXT NOT NULL,   -- the moderator's id ('' for the server's command) and name
		moderator_name TEXT NOT NULL,
		action         TEXT NOT NULL,
		player         TEXT NOT NULL,   -- the player acted on, and their name then
		player_name    TEXT NOT NULL,
		report         TEXT NOT NULL,   -- the report closed, '' for none
		until_at       BIGINT NOT NULL, -- a mute's end, unix milliseconds; 0 for none
		why            TEXT NOT NULL
	) WITHOUT ROWID;
	CREATE INDEX moderation_log_at ON moderation_log(at);`},
	// Correspondence (games.TimeControl.Days): a seek's days a move (-1:
	// unlimited; 0: a live clock), and whom each game awaits
	// (games.Record.ToAct), which every page's header counts in one
	// indexed read; the games in play are given theirs now.
	{"correspondence", `ALTER TABLE seeks ADD COLUMN days BIGINT NOT NULL DEFAULT 0;
	ALTER TABLE games ADD COLUMN to_act TEXT NOT NULL DEFAULT '';
	UPDATE games SET to_act = CASE WHEN actor = 'white' AND NOT white_hidden THEN white
		WHEN actor = 'black' AND NOT black_hidden THEN black ELSE '' END
	WHERE mode = 'invite' AND phase <> 'over' AND white <> '' AND black <> '';
	CREATE INDEX games_to_act ON games(to_act) WHERE to_act <> '';`},
	// Tournaments (package tournament): each a row, its state as JSON
	// saved over its revision, with a claim on running it (lease_owner,
	// until lease_until); and each player's place in those finished.
	{"tournaments", `CREATE TABLE tournaments (
		id          TEXT PRIMARY KEY,
		kind        TEXT NOT NULL,
		status      TEXT NOT NULL,   -- 'created', 'started', 'finished'
		starts_at   BIGINT NOT NULL, -- unix milliseconds
		ends_at     BIGINT NOT NULL,
		revision    BIGINT NOT NULL,
		lease_owner TEXT NOT NULL DEFAULT '',
		lease_until BIGINT NOT NULL DEFAULT 0,
		data        TEXT NOT NULL    -- tournament.Tournament as JSON
	) WITHOUT ROWID;
	CREATE INDEX tournaments_status ON tournaments(status, starts_at);
	CREATE TABLE tournament_results (
		player     TEXT NOT NULL,
		tournament TEXT NOT NULL,
		name       TEXT NOT NULL,   -- the tournament's
		place      BIGINT NOT NULL,
		score      BIGINT NOT NULL,
		players    BIGINT NOT NULL,
		ended_at   BIGINT NOT NULL, -- unix milliseconds
		PRIMARY KEY (player, tournament)
	) WITHOUT ROWID;`},
	// Challenges (package challenges): one player's to another, open
	// while status is 'created'; what it asks for and how its players
	// stood when it was made are its terms, as JSON.
	{"challenges", `CREATE TABLE challenges (
		id         TEXT PRIMARY KEY,
		challenger TEXT NOT NULL, -- the players' ids
		dest       TEXT NOT NULL,
		status     TEXT NOT NULL, -- 'created', 'accepted', 'declined', 'canceled'
		reason     TEXT NOT NULL DEFAULT '', -- a declined challenge's reason
		game       TEXT NOT NULL DEFAULT '', -- the game an accepted one started
		terms      TEXT NOT NULL, -- JSON: variant, clock, colour, rated, FEN, the players
		created_at BIGINT NOT NULL, -- unix milliseconds
		updated_at BIGINT NOT NULL
	) WITHOUT ROWID;
	CREATE INDEX challenges_challenger ON challenges(challenger, updated_at);
	CREATE INDEX challenges_dest ON challenges(dest, updated_at);
	CREATE INDEX challenges_updated ON challenges(updated_at);`},
	// Moderators' one-time reset links (their SHA-256 hashes), and
	// accounts their players deleted (players.SafetyStore).
	{"reset_links_deleted", `CREATE TABLE reset_links (
		hash       TEXT PRIMARY KEY, -- SHA-256 of the link's token
		player     TEXT NOT NULL,
		expires_at BIGINT NOT NULL   -- unix milliseconds
	) WITHOUT ROWID;
	CREATE INDEX reset_links_player ON reset_links(player);
	ALTER TABLE closed_accounts ADD COLUMN deleted BOOLEAN NOT NULL DEFAULT false;`},
	// Notifications (package notify): each named player's last 100, and
	// the kinds each turned off (a comma-separated list).
	{"notifications", `CREATE TABLE notifications (
		player     TEXT NOT NULL,
		id         TEXT NOT NULL,
		kind       TEXT NOT NULL,
		text       TEXT NOT NULL,
		link       TEXT NOT NULL,
		created_at BIGINT NOT NULL, -- unix milliseconds
		read_at    BIGINT NOT NULL DEFAULT 0, -- 0 while unread
		PRIMARY KEY (player, id)
	) WITHOUT ROWID;
	CREATE INDEX notifications_unread ON notifications(player, read_at);
	CREATE TABLE notify_settings (
		player TEXT PRIMARY KEY,
		off    TEXT NOT NULL
	) WITHOUT ROWID;`},
	// A tournament result's kind: a Swiss event's score is in
	// half-points, an arena's in points.
	{"tournament_result_kind", `ALTER TABLE tournament_results ADD COLUMN kind TEXT NOT NULL DEFAULT 'arena';`},
	// The runs of Puzzle Streak and Puzzle Storm (package training):
	// their puzzles are a function of the seed, their progress is here;
	// and the players' best scores of each kind, ever (day '') and by
	// UTC date.
	{"training_runs", `CREATE TABLE training_runs (
		id      TEXT PRIMARY KEY,
		player  TEXT NOT NULL,
		kind    TEXT NOT NULL,    -- 'streak' or 'storm'
		seed    BIGINT NOT NULL,
		started BIGINT NOT NULL,  -- unix milliseconds, the server's
		pos     BIGINT NOT NULL,  -- the puzzle at hand
		score   BIGINT NOT NULL,  -- puzzles solved
		combo   BIGINT NOT NULL,
		bonus   BIGINT NOT NULL,  -- ms added to Storm's clock (less penalties)
		skipped BOOLEAN NOT NULL,
		ended   BOOLEAN NOT NULL
	) WITHOUT ROWID;
	CREATE INDEX training_runs_started ON training_runs(started); -- the sweep's
	CREATE TABLE training_bests (
		player TEXT NOT NULL,
		kind   TEXT NOT NULL,
		day    TEXT NOT NULL, -- 2006-01-02, '' for ever
		best   BIGINT NOT NULL,
		PRIMARY KEY (player, kind, day)
	) WITHOUT ROWID;`},
	// Each player's rated attempt at each puzzle (their first), kept
	// apart from puzzle_attempts, whose row a later try replaces: the
	// themes page's solved share and rating change. Filled from the
	// rated attempts still standing.
	{"puzzle_firsts", `CREATE TABLE puzzle_firsts (
		player        TEXT NOT NULL,
		puzzle        TEXT COLLATE "C" NOT NULL,
		solved        BOOLEAN NOT NULL,
		rating_change DOUBLE PRECISION NOT NULL,
		PRIMARY KEY (player, puzzle)
	) WITHOUT ROWID;
	INSERT INTO puzzle_firsts (player, puzzle, solved, rating_change)
		SELECT player, puzzle, solved, after_rating - before_rating FROM puzzle_attempts WHERE rated;`},
	// A notification's text as a message (i18n.Message as JSON), said in
	// the reader's language; '' for the rows stored before, which keep
	// their English text.
	{"notification_messages", `ALTER TABLE notifications ADD COLUMN message TEXT NOT NULL DEFAULT '';`},
	// A tournament result's mark that the server's schedule made the
	// tournament (tournament.Result.Scheduled), whose name pages say in
	// the reader's language; the results stored before get it from their
	// tournament, whose state names no creator when the schedule made it.
	{"tournament_result_scheduled", `ALTER TABLE tournament_results ADD COLUMN scheduled BOOLEAN NOT NULL DEFAULT false;
	UPDATE tournament_results SET scheduled = (1 = 1) WHERE tournament IN
		(SELECT id FROM tournaments WHERE data NOT LIKE '%"creator":%');`},
}

// SchemaVersion is the schema version this binary writes.
const SchemaVersion = len(migrations)

// The migrations are written in PostgreSQL's types, which say more than
// SQLite's (a 64-bit integer, a boolean), and with SQLite's WITHOUT
// ROWID, which PostgreSQL has no use for: each database reads them in its
// own words.
var (
	// sqliteDDL gives SQLite's types, which hold the same values (false
	// as 0, as SQLite's own migrations wrote it), and drops COLLATE "C":
	// SQLite's BINARY collation is byte order already.
	sqliteDDL = strings.NewReplacer(
		"BIGINT", "INTEGER",
		"BOOLEAN", "INTEGER",
		"DOUBLE PRECISION", "REAL",
		"DEFAULT false", "DEFAULT 0",
		` COLLATE "C"`, "",
	).Replace
	postgresDDL = strings.NewReplacer(" WITHOUT ROWID", "").Replace
)

// migrate brings db's schema to SchemaVersion, in one transaction: it
// reads how many migrations have run, refuses a database newer than this
// binary, runs those left and records the new version.
func migrate(ctx context.Context, db database) error {
	return db.inTx(ctx, func(q querier) error {
		version, err := db.schemaVersion(ctx, q)
		if err != nil {
			return fmt.Errorf("migrate: reading the schema version: %w", err)
		}
		if version > len(migrations) {
			return fmt.Errorf("migrate: the database has schema version %d, newer than this binary's %d", version, len(migrations))
		}
		for i, m := range migrations[version:] {
			if _, err := q.exec(ctx, db.ddl(m.sql)); err != nil {
				return fmt.Errorf("migrate to schema version %d (%s): %w", version+i+1, m.name, err)
			}
		}
		if err := db.setSchemaVersion(ctx, q, len(migrations)); err != nil {
			return fmt.Errorf("migrate: recording the schema version: %w", err)
		}
		return nil
	})
}
