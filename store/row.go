package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// row is a game as its database row stores it: what the game is made of,
// who holds its seats, and a summary of where it stands for lists.
type row struct {
	variant   string
	startFEN  string
	actions   string // BCN separated by spaces
	declared  string // see declaredNames
	tags      string // JSON: the PGN's tags, or its annotations (see annotations)
	fromChess bool

	white, black             string // the seats' holders
	whiteHidden, blackHidden bool
	mode                     string
	created                  int64 // unix seconds
	updated                  int64 // unix milliseconds

	fen, actor, phase, result string // the summary
	ply                       int

	table string // games.Table as JSON; "" for none (a hot-seat game)

	due int64 // unix milliseconds when its clock ends the game (games.Record.Due); 0 for never

	toAct string // whom the game awaits (games.Record.ToAct); "" for no one
}

// columns are the row's columns in the order args and scanArgs use.
const columns = `variant, start_fen, actions, declared, tags, from_chess, white, black, white_hidden, black_hidden, mode,
	created_at, updated_at, fen, ply, actor, phase, result, table_state, due_at, to_act`

// upsertSQL inserts a game's row, or updates the columns set, with the
// placeholders ph makes of a parameter's number (SQLite's "?" or
// PostgreSQL's "$"). The insert gives the row revision parameter 3; the
// update happens only if the row is at the revision before, so a save
// made from a stale copy of the game changes nothing (and affects no
// row). Every save rewrites the tags column, which
// holds the annotations too: an undo takes a ply's with it, and variations
// are edited (for most games it is "[]"). The set clause ends in a %s for
// what else the save rewrites (see saveSets).
func upsertSQL(ph string) string {
	n := 3 + strings.Count(columns, ",") + 1
	params := make([]string, n)
	for i := range params {
		params[i] = ph
		if ph == "$" {
			params[i] = fmt.Sprintf("$%d", i+1)
		}
	}
	return `INSERT INTO games (id, touched_at, revision, ` + columns + `)
	VALUES (` + strings.Join(params, ", ") + `)
	ON CONFLICT(id) DO UPDATE SET actions = excluded.actions, declared = excluded.declared,
		tags = excluded.tags, updated_at = excluded.updated_at, fen = excluded.fen,
		ply = excluded.ply, actor = excluded.actor, phase = excluded.phase, result = excluded.result,
		table_state = excluded.table_state, due_at = excluded.due_at, to_act = excluded.to_act, revision = excluded.revision%s
	WHERE games.revision = excluded.revision - 1`
}

// saveKind is what a save rewrites of a stored row besides what a ply
// changes.
type saveKind int

const (
	savePly     saveKind = iota // only what a ply changes
	saveTouched                 // and when the game was last used
	saveAll                     // and the seats, and when it was used
	saveKinds
)

// saveSets completes upsertSQL's set clause for each kind of save. A ply
// leaves the seat columns, and so their indexes, untouched; touched_at,
// indexed for sweeps, is rewritten only every touchGrain (rewriting its
// index entry cost a sixth of a save).
var saveSets = [saveKinds]string{
	savePly:     "",
	saveTouched: touchedSet,
	saveAll: touchedSet + `, white = excluded.white, black = excluded.black,
		white_hidden = excluded.white_hidden, black_hidden = excluded.black_hidden, mode = excluded.mode`,
}

const touchedSet = `, touched_at = excluded.touched_at`

// touchGrain is how stale a stored touched_at may grow while the game is
// played: a sweep first records when the games it holds were last used,
// so only a restart can lose that much of a game's time to live.
const touchGrain = 60 // seconds

// saveKind tells what c's next save, at now (unix seconds), rewrites: the
// seats when they changed, touched_at when it is touchGrain old.
func (c *cachedGame) saveKind(now int64) saveKind {
	switch {
	case c.stored && seatStateOf(c.rec) != c.seats:
		return saveAll
	case now-c.touched >= touchGrain:
		return saveTouched
	}
	return savePly
}

// saved records that c's game was saved, by a save of kind k at now, as
// the row's next revision.
func (c *cachedGame) saved(k saveKind, now int64) {
	c.rev, c.row, c.seats, c.stored, c.over = c.rec.Game.Revision(), c.row+1, seatStateOf(c.rec), true, c.rec.Game.Outcome().Over()
	c.rec.Revision = c.row
	if k != savePly {
		c.touched = now
	}
}

// writeRow commits c's game at now through commit, which writes a save of
// the kind given with args (id, touched_at, revision, then the columns), a
// new row or the changed columns of its row, if the row is still at the
// revision c read or wrote last (else it fails with errStale). It records
// how the write went in failures and returns the game's estimated size.
// It is gameCache.write and finish for both databases: upserting means a
// game a sweep removed while it was in use is written back whole.
func writeRow(c *cachedGame, now time.Time, failures *writeFailures, commit func(kind saveKind, args []any) error) (int64, error) {
	r, err := encodeRow(c.rec)
	if err != nil {
		return 0, err
	}
	kind := c.saveKind(now.Unix())
	// The row's revision is the record's: one more than the revision read
	// or written last (whether or not the change came through the games
	// layer, which counts its changes).
	err = commit(kind, append([]any{c.id, now.Unix(), c.row + 1}, r.args()...))
	failures.record(err, now)
	if err != nil {
		return 0, err
	}
	c.saved(kind, now.Unix())
	return r.size(), nil
}

// loadColumns are what loading a game reads of its row: its revision,
// then columns.
const loadColumns = `revision, ` + columns

// scanRecord reads game id's record with scan, which reads loadColumns of
// its row or fails with errNoRows when there is none, and returns it with
// the row's revision and the game's estimated size.
func scanRecord(id string, scan func(dest ...any) error) (rec *games.Record, revision, size int64, err error) {
	var r row
	err = scan(append([]any{&revision}, r.scanArgs()...)...)
	if errors.Is(err, errNoRows) {
		return nil, 0, 0, notFound(id)
	}
	if err != nil {
		return nil, 0, 0, fmt.Errorf("game %q: loading: %w", trimID(id), err)
	}
	rec, err = r.decode(id)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("game %q: %w: %w", trimID(id), errs.ErrUnreadable, err)
	}
	rec.Revision = revision
	return rec, revision, r.size(), nil
}

// summaryColumns are what a list of games reads of each row, in the order
// scanSummary takes them.
const summaryColumns = `id, variant, fen, ply, actor, phase, result, created_at, updated_at, mode, white, black, table_state`

// scanSummary reads a game's summary with scan, which reads summaryColumns
// of its row.
func scanSummary(scan func(dest ...any) error) (games.Summary, error) {
	var sum games.Summary
	var created, updated int64
	var mode, table string
	if err := scan(&sum.ID, &sum.Variant, &sum.FEN, &sum.Ply, &sum.Actor, &sum.Phase, &sum.Result, &created, &updated, &mode, &sum.White, &sum.Black, &table); err != nil {
		return games.Summary{}, err
	}
	sum.Created, sum.Updated, sum.Mode = time.Unix(created, 0), time.UnixMilli(updated), games.Mode(mode)
	if table != "" {
		var t games.Table
		if err := json.Unmarshal([]byte(table), &t); err != nil {
			return games.Summary{}, fmt.Errorf("decoding game %q's table: %w", trimID(sum.ID), err)
		}
		sum.Bot, sum.WhitePlayer, sum.BlackPlayer, sum.Clock = t.Bot, t.WhitePlayer, t.BlackPlayer, t.Clock
		if sum.Clock != nil {
			sum.Clock.After = nil // as games.Record.Summary
		}
	}
	return sum, nil
}

// args returns the row's values in the order of columns.
func (r *row) args() []any {
	return []any{r.variant, r.startFEN, r.actions, r.declared, r.tags, r.fromChess, r.white, r.black, r.whiteHidden, r.blackHidden, r.mode,
		r.created, r.updated, r.fen, r.ply, r.actor, r.phase, r.result, r.table, r.due, r.toAct}
}

// scanArgs returns pointers to the row's fields in the order of columns.
func (r *row) scanArgs() []any {
	return []any{&r.variant, &r.startFEN, &r.actions, &r.declared, &r.tags, &r.fromChess, &r.white, &r.black, &r.whiteHidden, &r.blackHidden, &r.mode,
		&r.created, &r.updated, &r.fen, &r.ply, &r.actor, &r.phase, &r.result, &r.table, &r.due, &r.toAct}
}

// declaredNames are how a row writes a declared outcome.
var declaredNames = map[string]rules.Outcome{
	"":               {},
	"white-resigned": {Status: rules.Resigned, Reason: rules.Resignation, Winner: rules.Black},
	"black-resigned": {Status: rules.Resigned, Reason: rules.Resignation, Winner: rules.White},
	"draw-agreed":    {Status: rules.Draw, Reason: rules.Agreement},
	"white-flagged":  {Status: rules.TimeForfeit, Reason: rules.Timeout, Winner: rules.Black},
	"black-flagged":  {Status: rules.TimeForfeit, Reason: rules.Timeout, Winner: rules.White},
	"flagged-draw":   {Status: rules.Draw, Reason: rules.Timeout},
	"aborted":        {Status: rules.Aborted, Reason: rules.Abort},
}

func encodeRow(rec *games.Record) (row, error) {
	s := rec.Game.Snapshot()
	sum := rec.Summary()
	r := row{
		variant:     s.Variant,
		startFEN:    s.StartFEN,
		actions:     strings.Join(s.Actions, " "),
		fromChess:   s.FromChessGame,
		tags:        "[]",
		white:       rec.White,
		black:       rec.Black,
		whiteHidden: rec.WhiteHidden,
		blackHidden: rec.BlackHidden,
		mode:        string(rec.Mode),
		created:     rec.Created.Unix(),
		updated:     rec.Updated.UnixMilli(),
		fen:         sum.FEN,
		ply:         sum.Ply,
		actor:       sum.Actor,
		phase:       sum.Phase,
		result:      sum.Result,
		due:         ms(rec.Due()),
		toAct:       rec.ToAct(),
	}
	found := false
	for name, o := range declaredNames {
		if o == s.Declared {
			r.declared, found = name, true
		}
	}
	if !found {
		return row{}, fmt.Errorf("encoding the game: cannot store the declared outcome %v", s.Declared)
	}
	var v any = s.Tags
	annotated := len(s.Comments) > 0 || len(s.NAGs) > 0 || len(s.Variations) > 0
	if annotated {
		v = annotations{Tags: s.Tags, Annotations: s.Annotations}
	}
	if len(s.Tags) > 0 || annotated {
		b, err := json.Marshal(v)
		if err != nil {
			return row{}, fmt.Errorf("encoding the game's tags: %w", err)
		}
		r.tags = string(b)
	}
	if rec.Table != (games.Table{}) {
		b, err := json.Marshal(rec.Table)
		if err != nil {
			return row{}, fmt.Errorf("encoding the game's table: %w", err)
		}
		r.table = string(b)
	}
	return r, nil
}

// annotations are what a game keeps of the PGN it was read from. The tags
// column holds them as a JSON object when the game has annotations
// (comments, NAGs, variations: {"tags":…,"comments":…,"nags":…,
// "variations":…}), and as the array of its tags alone otherwise (as every
// row did before games kept comments), so no row needs rewriting.
type annotations struct {
	Tags []rules.Tag `json:"tags"`
	rules.Annotations
}

// decodeAnnotations reads the tags column into s.
func decodeAnnotations(col string, s *rules.Snapshot) error {
	if strings.HasPrefix(col, "[") {
		return json.Unmarshal([]byte(col), &s.Tags)
	}
	var a annotations
	if err := json.Unmarshal([]byte(col), &a); err != nil {
		return err
	}
	s.Tags, s.Annotations = a.Tags, a.Annotations
	return nil
}

// decode rebuilds the record the row stores (replaying its game).
func (r row) decode(id string) (*games.Record, error) {
	s := rules.Snapshot{
		Variant:       r.variant,
		StartFEN:      r.startFEN,
		Actions:       strings.Fields(r.actions),
		FromChessGame: r.fromChess,
	}
	var ok bool
	if s.Declared, ok = declaredNames[r.declared]; !ok {
		return nil, fmt.Errorf("decoding the game: unknown declared outcome %q", r.declared)
	}
	if err := decodeAnnotations(r.tags, &s); err != nil {
		return nil, fmt.Errorf("decoding the game's tags: %w", err)
	}
	g, err := rules.Restore(s)
	if err != nil {
		return nil, err
	}
	var table games.Table
	if r.table != "" {
		if err := json.Unmarshal([]byte(r.table), &table); err != nil {
			return nil, fmt.Errorf("decoding the game's table: %w", err)
		}
	}
	return &games.Record{
		Table:       table,
		ID:          id,
		Game:        g,
		White:       r.white,
		Black:       r.black,
		WhiteHidden: r.whiteHidden,
		BlackHidden: r.blackHidden,
		Mode:        games.Mode(r.mode),
		Created:     time.Unix(r.created, 0),
		Updated:     time.UnixMilli(r.updated),
	}, nil
}

// The estimate of the memory a game takes in the cache, calibrated by
// TestSQLiteCacheEstimate (runtime.MemStats over games of 0 to 2,000 plies
// read back from their rows): a record and its cache entry with a game
// past its first moves, what each ply adds (its action and SAN; a move's
// position too; the movetext the game keeps once its PGN is written, about
// 20 bytes a ply: see rules' movetextCache) and what the tags take for
// each byte of their JSON. Live
// bytes, that is: after many games came and went, the heap in use was
// twice as much for games of 25 plies (docs/performance.md, Memory).
const (
	gameBaseBytes = 2_700
	plyBytes      = 120
	tagByteBytes  = 2
)

// gameBytes estimates the memory a game of plies plies and tagsJSON bytes
// of tags takes in the cache.
func gameBytes(plies, tagsJSON int) int64 {
	return gameBaseBytes + plyBytes*int64(plies) + tagByteBytes*int64(tagsJSON)
}

// size estimates the memory the row's game takes in the cache.
func (r *row) size() int64 {
	plies := 0
	if r.actions != "" {
		plies = strings.Count(r.actions, " ") + 1
	}
	tags := len(r.tags)
	if r.tags == "[]" {
		tags = 0
	}
	return gameBytes(plies, tags)
}

// seatState is what of a record besides its game a save writes: a change
// to it needs saving as a ply does.
type seatState struct {
	white, black             string
	whiteHidden, blackHidden bool
	mode                     games.Mode
}

func seatStateOf(rec *games.Record) seatState {
	return seatState{rec.White, rec.Black, rec.WhiteHidden, rec.BlackHidden, rec.Mode}
}
