// Package stream serves server-sent event streams: a game's, telling its
// watchers of each change, and the lobby's, within limits per client and
// in all, on connections taken from the HTTP server where it can, with a
// heartbeat, ending cleanly when the server shuts down.
package stream

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/internal/connlimit"

	"github.com/banchess/banchess/players"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
)

// Limits bound the server-sent event streams (live pages and the
// API's game streams) open at once: per client address and in all. Zero
// is no limit.
type Limits struct {
	PerClient, Total int
	// Heartbeat is how often an idle stream sends a comment, so proxies
	// keep it open and a vanished client is noticed; zero means
	// DefaultHeartbeat.
	Heartbeat time.Duration
}

// DefaultLimits are the stream limits main serves with: a browser
// with a dozen tabs open on games, a bot watching a few dozen games; and
// in all, as many as the process may open files for (a stream is a
// connection, and a connection a file) less a reserve for everything
// else — ordinary requests, /healthz, the database — so that streams are
// refused (429) before the server runs out of files, and at most
// MaxStreams, for memory (docs/deployment.md: about 20 KiB a stream).
func DefaultLimits() Limits {
	return Limits{PerClient: 64, Total: Cap(connlimit.FileLimit())}
}

// MaxStreams bounds the streams open at once whatever the file limit: at
// about 20 KiB each when idle, 400 MiB.
const MaxStreams = 20_000

// Cap is how many streams a process that may open files files
// serves at once: all but a reserve of an eighth of them, or of 1,024 when
// that is more (half of a small limit), and at most MaxStreams. An unknown
// limit (0) gives MaxStreams.
func Cap(files int) int {
	if files <= 0 {
		return MaxStreams
	}
	reserve := max(files/8, min(files/2, 1024))
	return min(MaxStreams, files-reserve)
}

// DefaultHeartbeat is how often an idle stream says it is alive.
const DefaultHeartbeat = 25 * time.Second

// streamRetry is how long a client refused a stream is asked to wait.
const streamRetry = time.Minute

// streamWriteTimeout bounds each write to a stream: a client that stops
// reading is dropped instead of holding the stream open.
const streamWriteTimeout = 10 * time.Second

// streams counts the streams open, by client and in all, and ends them
// all at shutdown.
type streams struct {
	limits   Limits
	mu       sync.Mutex
	byClient map[string]int
	total    int
	done     chan struct{} // closed at shutdown
	stopOnce sync.Once
	hangups  hangups        // tells the streams that took over their connections of clients that left
	pings    pings          // sends those streams' heartbeats
	lines    pings          // sends the NDJSON streams' heartbeats, LinesHeartbeat apart
	detached sync.WaitGroup // those streams
}

func newStreams(l Limits) *streams {
	if l.Heartbeat <= 0 {
		l.Heartbeat = DefaultHeartbeat
	}
	return &streams{limits: l, byClient: map[string]int{}, done: make(chan struct{})}
}

// open counts a stream of client, or refuses it over a limit.
func (st *streams) open(client string) (release func(), err error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case st.limits.Total > 0 && st.total >= st.limits.Total:
		return nil, &errs.Error{Code: errs.TooMany, Detail: errs.TooManyStreams, RetryAfter: streamRetry,
			Msg: "The server has as many live streams open as it takes: try again in a minute."}
	case st.limits.PerClient > 0 && st.byClient[client] >= st.limits.PerClient:
		return nil, &errs.Error{Code: errs.TooMany, Detail: errs.TooManyStreams, RetryAfter: streamRetry,
			Msg: fmt.Sprintf("This address has %d live streams open, the most this server allows: close some first.", st.limits.PerClient)}
	}
	st.total++
	st.byClient[client]++
	var once sync.Once
	return func() {
		once.Do(func() {
			st.mu.Lock()
			st.total--
			if st.byClient[client]--; st.byClient[client] <= 0 {
				delete(st.byClient, client)
			}
			st.mu.Unlock()
		})
	}, nil
}

// Open counts the streams open now.
func (st *streams) Open() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.total
}

// Close ends every open stream cleanly (each sends its last event
// and returns), and returns once they have ended: for a server shutting
// down, whose Shutdown waits for handlers but not for the streams that
// took over their connections. Streams opened afterwards end at once.
func (s *Server) Close() {
	st := s.streams
	st.mu.Lock() // closed under the lock: no stream starts on its own after this (see goDetached)
	st.stopOnce.Do(func() { close(st.done) })
	st.mu.Unlock()
	st.detached.Wait()
}

// goDetached runs stream on a goroutine of its own, counted for
// CloseStreams, unless the server shuts down (false).
func (st *streams) goDetached(stream func()) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	select {
	case <-st.done:
		return false
	default:
	}
	st.detached.Go(stream)
	return true
}

// Open counts the streams open now.
func (s *Server) Open() int { return s.streams.Open() }

// Event is one server-sent event.
type Event struct {
	ID   string // "" for none
	Name string // "" for the default, "message"
	Data []byte // one line
}

// Source writes server-sent events to its sink, each send one write; or,
// for an NDJSON stream, each event's data as a line.
type Source struct {
	sink eventSink
	fmt  *format
}

// Send writes evs in one write; an event's data (a game object, shared
// by a game's streams) is written as it is, not copied. An NDJSON stream
// writes each unnamed event's data and a newline, and leaves out named
// events (the SSE streams' "gone" and "bye"): its end says as much.
func (es *Source) Send(evs ...Event) error {
	parts := make([][]byte, 0, 3*len(evs))
	if es.fmt.lines {
		for _, ev := range evs {
			if ev.Name == "" {
				parts = append(parts, ev.Data, newline)
			}
		}
		if len(parts) == 0 {
			return nil
		}
		return es.sink.write(parts...)
	}
	for _, ev := range evs {
		head := make([]byte, 0, len(ev.ID)+len(ev.Name)+20)
		if ev.ID != "" {
			head = append(append(append(head, "id: "...), ev.ID...), '\n')
		}
		if ev.Name != "" {
			head = append(append(append(head, "event: "...), ev.Name...), '\n')
		}
		parts = append(parts, append(head, "data: "...), ev.Data, eventEnd)
	}
	return es.sink.write(parts...)
}

// eventEnd ends an event.
var eventEnd = []byte("\n\n")

// The comments a stream sends: first, and when idle.
var (
	streamOpen = []byte(": banchess live\n\n")
	streamPing = []byte(": ping\n\n")
	newline    = []byte("\n")
)

// format is how a stream is written: server-sent events, or NDJSON as
// lichess's streams are (a JSON object a line, an empty line as the
// heartbeat).
type format struct {
	contentType string
	open, beat  []byte // written first ("" for nothing), and when idle
	lines       bool
}

// The formats of the streams.
var (
	sseFormat    = &format{contentType: "text/event-stream", open: streamOpen, beat: streamPing}
	ndjsonFormat = &format{contentType: "application/x-ndjson", beat: newline, lines: true}
)

// LinesHeartbeat is how often an idle NDJSON stream writes an empty
// line, as lichess's do (or the streams' Heartbeat, when that is
// shorter).
const LinesHeartbeat = 6 * time.Second

// State is what a stream tells its client of a game: at every wake
// (a change of who watches wakes a stream as a change of the game does)
// the stream learns the game's revision from the feed, and only when it
// differs from the last sent does Events say the game as it stands at rev
// or later, with the revision it says. Done, if set, is called when the
// stream ends.
type State struct {
	Events func(ctx context.Context, rev int64) (int64, []Event, error)
	Done   func()
}

// Game serves a server-sent event stream of game id to the viewer
// holding cred: state's events at once (unless the client's Last-Event-ID
// says it has that revision) and again whenever the revision changes;
// between, a heartbeat. Every wake (a change of the game, of who watches
// it, of its chat) calls onWake with the stream's context, which may send
// events of its own. The stream ends when the client leaves, the server
// shuts down, or a write fails. Where it can, it takes the connection
// from the HTTP server and goes on without the handler (see detach), which
// returns at once; else the handler serves it to its end.
func (s *Server) Game(c echo.Context, id string, cred players.Credential, state State, onWake func(context.Context, *Source) error) error {
	end := func() {}
	if state.Done != nil {
		end = state.Done
	}
	release, err := s.streams.open(kit.ClientKey(c.RealIP()))
	if err != nil {
		end()
		// The connection is a file too: close it after the refusal rather
		// than keep it open, idle, for the client's next request.
		c.Response().Header().Set(echo.HeaderConnection, "close")
		return err
	}
	ctx := c.Request().Context()
	w, err := s.games.Watch(ctx, id, cred)
	if err != nil {
		release()
		end()
		return err
	}
	finish := func() {
		w.Close()
		release()
		end()
	}
	sent := int64(-1)
	if last, err := strconv.ParseInt(strings.TrimSpace(c.Request().Header.Get("Last-Event-ID")), 10, 64); err == nil {
		sent = last
	}
	s.serveEvents(c, sseFormat, finish, func(ctx context.Context, es *Source, beat <-chan time.Time) {
		s.serveStream(ctx, es, w, s.revisionOf(id, w), state, onWake, sent, beat)
	})
	return nil
}

// open writes what the stream starts with: SSE's comment; nothing for
// NDJSON, but the head, flushed.
func (es *Source) open() error {
	if len(es.fmt.open) == 0 {
		return es.sink.write()
	}
	return es.sink.write(es.fmt.open)
}

// serveEvents answers c with an event stream (the headers, a first
// comment) and serves it with body: where it can, on the connection taken
// from the HTTP server and in a goroutine of its own, the handler
// returning at once (see detach); else in the handler. body gets the
// stream's context (the request's values, not its end: for the HTTP
// server the request is over), where to send events, and a heartbeat's
// times (nil where the server's pings send them); done is called once the
// stream has ended.
func (s *Server) serveEvents(c echo.Context, f *format, done func(), body func(ctx context.Context, es *Source, beat <-chan time.Time)) {
	every, pinger := s.streams.limits.Heartbeat, &s.streams.pings
	if f.lines {
		every, pinger = min(every, LinesHeartbeat), &s.streams.lines
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, f.contentType)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: pass events on at once
	if conn, ok := detach(c); ok {
		// A client that closes the connection ends the stream (hangups;
		// else its next write fails).
		ctx, cancel := context.WithCancel(context.WithoutCancel(c.Request().Context()))
		unwatch := s.streams.hangups.watch(conn, cancel)
		sink := &connSink{conn: conn, end: cancel, beat: f.beat}
		run := func() {
			defer conn.Close() // last: the stream is counted closed when its client sees the end
			defer done()
			defer unwatch()
			defer cancel()
			defer pinger.add(sink, every)()
			es := &Source{sink: sink, fmt: f}
			if es.open() == nil {
				body(ctx, es, nil)
			}
		}
		if !s.streams.goDetached(run) {
			run() // the server shuts down: it ends at once
		}
		return
	}
	defer done()
	res := c.Response()
	res.WriteHeader(http.StatusOK)
	beat := time.NewTicker(every)
	defer beat.Stop()
	es := &Source{sink: responseSink{res, http.NewResponseController(res.Writer)}, fmt: f}
	if es.open() == nil {
		body(c.Request().Context(), es, beat.C)
	}
}

// serveStream sends a stream's events until it must end (see stream), and
// a heartbeat at each beat (nil: the server's pings send them).
func (s *Server) serveStream(ctx context.Context, es *Source, w *games.Watch, revision func(context.Context) (int64, error), state State, onWake func(context.Context, *Source) error, sent int64, beat <-chan time.Time) {
	for {
		rev, err := revision(ctx)
		var evs []Event
		if err == nil && rev != sent {
			rev, evs, err = state.Events(ctx, rev)
		}
		switch {
		case err != nil && ctx.Err() != nil:
			return
		case err != nil:
			// The game is gone or unreadable: say so, and end the stream.
			e := errs.Of(err)
			es.Send(Event{Name: "gone", Data: []byte(strconv.Quote(e.Msg))})
			return
		case evs != nil:
			if es.Send(evs...) != nil {
				return
			}
			sent = rev
		}
		if !s.awaitChange(ctx, es, w.C(), beat, onWake) {
			return
		}
	}
}

// revisionOf is game id's latest revision as its watch w knows it from
// the feed; only when the feed lost track (PublishAll) is it read from the
// store, once, and the feed told.
func (s *Server) revisionOf(id string, w *games.Watch) func(ctx context.Context) (int64, error) {
	return func(ctx context.Context) (int64, error) {
		if rev, ok := w.Revision(); ok {
			return rev, nil
		}
		var rev int64
		err := s.games.View(ctx, id, "", func(rec *games.Record, _ games.Seats) { rev = rec.ShownRevision() })
		if err == nil {
			w.Learn(rev)
		}
		return rev, err
	}
}

// awaitChange waits until what the stream shows may have changed (wake
// receives: true) or the stream must end (false): the client left, the
// server shuts down, or a write failed. Meanwhile it sends heartbeats; a
// wake calls onWake, if not nil, which may send events of its own.
func (s *Server) awaitChange(ctx context.Context, es *Source, wake <-chan struct{}, beat <-chan time.Time, onWake func(context.Context, *Source) error) bool {
	return s.awaitChangeOrTick(ctx, es, wake, nil, beat, onWake)
}

// awaitChangeOrTick is awaitChange woken by tick too.
func (s *Server) awaitChangeOrTick(ctx context.Context, es *Source, wake <-chan struct{}, tick <-chan time.Time, beat <-chan time.Time, onWake func(context.Context, *Source) error) bool {
	for {
		select {
		case <-ctx.Done():
			return false
		case <-s.streams.done:
			es.Send(Event{Name: "bye", Data: []byte(`"the server is restarting"`)})
			return false
		case <-beat:
			if es.sink.write(es.fmt.beat) != nil {
				return false
			}
		case <-wake:
			return onWake == nil || onWake(ctx, es) == nil
		case <-tick:
			return onWake == nil || onWake(ctx, es) == nil
		}
	}
}

// Games are what streams need of the games service: a game's watch, and a
// read of its revision when the feed lost track.
type Games interface {
	Watch(ctx context.Context, id string, cred players.Credential) (*games.Watch, error)
	View(ctx context.Context, id string, cred players.Credential, fn games.ViewFunc) error
}

// Server serves the streams of games' games and of lb, within l.
type Server struct {
	streams *streams
	games   Games
	lobby   Lobby
}

// New returns a Server of the streams of games' games and of lb, within
// l.
func New(l Limits, games Games, lb Lobby) *Server {
	return &Server{streams: newStreams(l), games: games, lobby: lb}
}
