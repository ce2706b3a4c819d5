package kit

import (
	"context"
	"errors"
	"time"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// DefaultGameWait is how long a request waits to read games before it
// answers 503 (see WithGameWait). A read waits for the game's lock while a
// ply on the game is saved, and for the database. A save normally takes
// milliseconds; one stuck behind another process that holds the database's
// write lock waits for SQLite's busy timeout (10 s, in package store) and
// then fails, and a read of that game waited all that time and then failed
// too. Five seconds keeps a request's reads, whatever it waits for, well
// within the 30 s WriteTimeout main serves with.
const DefaultGameWait = 5 * time.Second

// Messages of the refusals the handlers add to the games layer's.
const (
	busyMsg       = "The server is too busy to serve this game just now. Please try again in a few seconds."
	busySaveMsg   = "The server is too busy to save this just now, so the game is unchanged. Please try again in a few seconds."
	unreadableMsg = "This game could not be read from the server's store, so it cannot be shown or played. Your other games are not affected: start a new game or open another one."
)

// Games is the games service as the handlers use it: a request gives up
// reading games (View, Games) after the server's game wait (WithGameWait),
// Unavailable (errs.Busy), and a game whose stored record cannot be
// decoded is told apart (errs.Unreadable). A request that changes games
// is bounded by the same wait (see boundGameWrites): a save is not begun
// past it and is given up at it, the game unchanged (a store too busy to
// save is Unavailable too, see ErrorOf).
type Games struct {
	*games.Service
	wait time.Duration
}

// View runs fn on the game as the service does, but gives up after the
// game wait: the stores' game locks and database reads
// follow the context, so a read stuck behind a slow save ends in time.
func (g *Games) View(ctx context.Context, id string, cred players.Credential, fn games.ViewFunc) error {
	rctx, cancel := context.WithTimeout(ctx, g.wait)
	defer cancel()
	err := g.Service.View(rctx, id, cred, fn)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return errs.Of(ctx.Err()) // the request itself was cancelled
	case rctx.Err() != nil:
		return Busy(busyMsg, err)
	}
	return readError(id, err)
}

// readError classifies the failure of a read of game id, whose view
// function cannot fail: a stored record that cannot be decoded
// (errs.ErrUnreadable: the one failure called unreadable), a store busy
// or down, a cancelled request, a game that is not there, or else the
// server's failure (Internal, not the game's: the game may be fine).
func readError(id string, err error) error {
	if errors.Is(err, errs.ErrUnreadable) {
		// Whatever the games layer made of it (a record that does not
		// replay may read as a refusal from the rules), this is the
		// store's record.
		return &errs.Error{Code: errs.Internal, Detail: errs.Unreadable, Msg: unreadableMsg, Err: &readFailure{id: id, err: err}}
	}
	e := errs.Of(err)
	switch {
	case e.Code == errs.Internal && storeBusy(e):
		return Busy(busyMsg, e)
	case e.Code == errs.Internal:
		return errs.Internalf(err, "reading game %q", id)
	}
	return e
}

// Games lists the browser's games as the service does, giving up after
// the game wait.
func (g *Games) Games(ctx context.Context, cred players.Credential, limit int) ([]games.Summary, error) {
	ctx, cancel := context.WithTimeout(ctx, g.wait)
	defer cancel()
	list, err := g.Service.Games(ctx, cred, limit)
	switch {
	case err == nil:
		return list, nil
	case ctx.Err() != nil && context.Cause(ctx) == context.DeadlineExceeded:
		return nil, Busy(busyMsg, err)
	case ctx.Err() != nil:
		return nil, errs.Of(context.Cause(ctx)) // the request was cancelled
	case storeBusy(errs.Of(err)):
		return nil, Busy(busyMsg, err)
	}
	return nil, err
}

// busy is the refusal of a request the store could not serve in time.
func Busy(msg string, cause error) *errs.Error {
	return &errs.Error{Code: errs.Unavailable, Detail: errs.Busy, Msg: msg, Err: cause}
}

// storeBusy reports whether e's cause is SQLite's "database is busy" or
// "locked" (result codes 5 and 6, in their extended forms too): another
// connection held the database past the busy timeout.
func storeBusy(e *errs.Error) bool {
	var coded interface{ Code() int }
	if !errors.As(e.Err, &coded) {
		return false
	}
	code := coded.Code() & 0xff
	return code == 5 || code == 6
}

// readFailure is a game whose record the store could not read. The first
// failure of each game is logged (see logFailure), not every request's.
type readFailure struct {
	id  string
	err error
}

func (f *readFailure) Error() string { return f.err.Error() }

func (f *readFailure) Unwrap() error { return f.err }

// maxFailedLogged bounds the games whose read failure the server
// remembers having logged; past it, it forgets them all and starts again.
const maxFailedLogged = 1024

// firstFailure reports whether this is the first read failure of game id
// to be logged.
func (k *Kit) firstFailure(id string) bool {
	k.failedMu.Lock()
	defer k.failedMu.Unlock()
	if k.failed[id] {
		return false
	}
	if len(k.failed) >= maxFailedLogged {
		clear(k.failed)
	}
	k.failed[id] = true
	return true
}

// Reviews tell a game's finished review (analysis.Service does).
type Reviews interface {
	FinishedReview(ctx context.Context, id string) (analysis.StoredReview, bool, error)
}

// PGN writes game id's PGN (games.Record.PGN) for the viewer holding cred,
// with own tags, the rating changes of a finished rated game (played
// tells them), and with its review's notes when reviews has one done.
func (g *Games) PGN(ctx context.Context, id string, cred players.Credential, reviews Reviews, played PlayedGames, own ...rules.Tag) (string, error) {
	rev, _, err := reviews.FinishedReview(ctx, id)
	if err != nil {
		return "", err
	}
	var text string
	err = g.View(ctx, id, cred, func(rec *games.Record, _ games.Seats) {
		tags := append(own[:len(own):len(own)], RatingDiffTags(RatingDiffs(ctx, played, rec))...)
		text = rec.PGN(rev.Notes(rec.Game), tags...)
	})
	return text, err
}
