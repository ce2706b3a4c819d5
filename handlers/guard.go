package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
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

// retryAfter is what a 503 asks the client to wait, in seconds.
const retryAfter = 5

// Messages of the refusals the handlers add to the games layer's.
const (
	busyMsg       = "The server is too busy to serve this game just now. Please try again in a few seconds."
	busySaveMsg   = "The server is too busy to save this just now, so the game is unchanged. Please try again in a few seconds."
	unreadableMsg = "This game could not be read from the server's store, so it cannot be shown or played. Your other games are not affected: start a new game or open another one."
)

// guarded is the games service as the handlers use it: a request gives up
// reading games (View, Games) after the server's game wait (WithGameWait) with
// a 503 "busy" refusal, a game whose stored record cannot be read is told
// apart ("unreadable"), and a store too busy to save answers 503 as well.
// Writes are never abandoned: once a write waits for its game, it runs.
type guarded struct {
	GameService
	s *Server
}

// View runs fn on the game as the service does, but gives up after the
// game wait: the stores' game locks and database reads
// follow the context, so a read stuck behind a slow save ends in time.
func (g *guarded) View(ctx context.Context, id string, cred games.Credential, fn games.ViewFunc) error {
	rctx, cancel := context.WithTimeout(ctx, g.s.gameWait)
	defer cancel()
	err := g.GameService.View(rctx, id, cred, fn)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return games.ErrorOf(ctx.Err()) // the request itself was cancelled
	case rctx.Err() != nil:
		return busy(busyMsg, err)
	}
	return g.readError(id, err)
}

// readError classifies the failure of a read of game id, whose view
// function cannot fail: a store's failure to read it, a cancelled
// request, or a game that is not there.
func (g *guarded) readError(id string, err error) error {
	if err == nil {
		return nil
	}
	e := games.ErrorOf(err)
	switch {
	case e.Code == games.NotFound, e.Code == games.TooMany, e.Detail == "cancelled", e.Detail == "busy":
		return e
	case e.Code == games.Internal && storeBusy(e):
		return busy(busyMsg, e)
	}
	// Whatever the games layer made of it (a record that does not replay
	// may read as a refusal from the rules), this is the store's failure.
	return &games.Error{Code: games.Internal, Detail: "unreadable", Msg: unreadableMsg, Err: &readFailure{id: id, err: err}}
}

// Games lists the browser's games as the service does, giving up after
// the game wait.
func (g *guarded) Games(ctx context.Context, cred games.Credential, limit int) ([]games.Summary, error) {
	ctx, cancel := context.WithTimeout(ctx, g.s.gameWait)
	defer cancel()
	list, err := g.GameService.Games(ctx, cred, limit)
	switch {
	case err == nil:
		return list, nil
	case ctx.Err() != nil && context.Cause(ctx) == context.DeadlineExceeded:
		return nil, busy(busyMsg, err)
	case ctx.Err() != nil:
		return nil, games.ErrorOf(context.Cause(ctx)) // the request was cancelled
	case storeBusy(games.ErrorOf(err)):
		return nil, busy(busyMsg, err)
	}
	return nil, err
}

// writeError classifies a write's failure: a store too busy to save is
// 503 (the game is unchanged).
func (g *guarded) writeError(err error) error {
	if err == nil {
		return nil
	}
	if e := games.ErrorOf(err); e.Code == games.Internal && e.Detail == "" && storeBusy(e) {
		return busy(busySaveMsg, e)
	}
	return err
}

func (g *guarded) Create(ctx context.Context, cred games.Credential, game *rules.Game) (string, error) {
	id, err := g.GameService.Create(ctx, cred, game)
	return id, g.writeError(err)
}

func (g *guarded) Play(ctx context.Context, id string, cred games.Credential, in games.Input, then games.ViewFunc) error {
	return g.writeError(g.GameService.Play(ctx, id, cred, in, then))
}

func (g *guarded) Undo(ctx context.Context, id string, cred games.Credential, then games.ViewFunc) (games.Undone, error) {
	u, err := g.GameService.Undo(ctx, id, cred, then)
	return u, g.writeError(err)
}

func (g *guarded) Resign(ctx context.Context, id string, cred games.Credential, side rules.Color, then games.ViewFunc) error {
	return g.writeError(g.GameService.Resign(ctx, id, cred, side, then))
}

func (g *guarded) Draw(ctx context.Context, id string, cred games.Credential, then games.ViewFunc) error {
	return g.writeError(g.GameService.Draw(ctx, id, cred, then))
}

func (g *guarded) Hide(ctx context.Context, id string, cred games.Credential) error {
	return g.writeError(g.GameService.Hide(ctx, id, cred))
}

func (g *guarded) Claim(ctx context.Context, id string, cred games.Credential) (bool, error) {
	held, err := g.GameService.Claim(ctx, id, cred)
	return held, g.writeError(err)
}

// busy is the refusal of a request the store could not serve in time.
func busy(msg string, cause error) *games.Error {
	return &games.Error{Code: games.Internal, Detail: "busy", Msg: msg, Err: cause}
}

// storeBusy reports whether e's cause is SQLite's "database is busy" or
// "locked" (result codes 5 and 6, in their extended forms too): another
// connection held the database past the busy timeout.
func storeBusy(e *games.Error) bool {
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
func (s *Server) firstFailure(id string) bool {
	s.failedMu.Lock()
	defer s.failedMu.Unlock()
	if s.failed[id] {
		return false
	}
	if len(s.failed) >= maxFailedLogged {
		clear(s.failed)
	}
	s.failed[id] = true
	return true
}

// retryLater asks the client to come back later on a 503.
func retryLater(c echo.Context, status int) {
	if h := c.Response().Header(); status == http.StatusServiceUnavailable && h.Get("Retry-After") == "" {
		h.Set("Retry-After", strconv.Itoa(retryAfter))
	}
}

// stuck answers a request the server failed (a game it could not read, a
// store that failed) with a page that offers ways on: a new game, and the
// browser's games, not only a link back that may fail the same way.
func (p *pages) stuck(c echo.Context, e *games.Error) error {
	status := httpStatus(e)
	title := errorTitle(e)
	if e.Detail == "unreadable" {
		title = "This game could not be read"
	}
	o := views.NoSelection()
	o.Asset = p.asset
	if id := c.Param("id"); validID(id) {
		o.Base = gamePath(id)
	}
	if isHX(c) {
		return render(c, status, views.StuckMain(title, e.Msg, o))
	}
	o.Games = p.gameLinks(c.Request().Context(), player(c), c.Param("id"))
	return render(c, status, views.StuckPage(title, e.Msg, o))
}

// readableGame returns the most recently played of the browser's games
// that can be read, skipping those that cannot (a damaged record, a game
// removed since it was listed), or "" when it has none. When it has games
// and none can be read, the error is the last one's.
func (p *pages) readableGame(ctx context.Context, cred games.Credential) (string, error) {
	list, err := p.s.games.Games(ctx, cred, listSize)
	if err != nil {
		return "", err
	}
	var last error
	for _, sum := range list {
		err := p.s.games.View(ctx, sum.ID, cred, func(*games.Record, games.Seats) {})
		if err == nil {
			return sum.ID, nil
		}
		switch e := games.ErrorOf(err); {
		case e.Detail == "unreadable":
			last = err
		case e.Code != games.NotFound: // busy, cancelled: the next would fare no better
			return "", err
		}
	}
	return "", last
}
