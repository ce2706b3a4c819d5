package stream

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// eventSink is where a stream's events go: one whole write of parts at a
// time, bounded in time (streamWriteTimeout) so that a client that stopped
// reading is noticed.
type eventSink interface {
	write(parts ...[]byte) error
}

// responseSink writes a stream served in its handler to the response,
// flushing each write.
type responseSink struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func (r responseSink) write(parts ...[]byte) error {
	if err := r.rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	for _, p := range parts {
		if _, err := r.w.Write(p); err != nil {
			return err
		}
	}
	return r.rc.Flush()
}

// connSink writes a stream to the connection it took over (see detach).
// Its heartbeats come from the server's pings, between its own writes.
type connSink struct {
	conn net.Conn
	end  func() // ends the stream, when a heartbeat cannot be written
	beat []byte // its heartbeat: an SSE comment, or NDJSON's empty line

	mu   sync.Mutex
	last time.Time // when it last wrote
}

func (c *connSink) write(parts ...[]byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writeWithin(streamWriteTimeout, parts...)
}

// writeWithin writes parts in one writev, within d; c.mu is held.
func (c *connSink) writeWithin(d time.Duration, parts ...[]byte) error {
	if err := c.conn.SetWriteDeadline(time.Now().Add(d)); err != nil {
		return err
	}
	bufs := net.Buffers(parts)
	if _, err := bufs.WriteTo(c.conn); err != nil {
		return err
	}
	c.last = time.Now()
	// No deadline between writes: its timer would go off for nothing.
	return c.conn.SetWriteDeadline(time.Time{})
}

// pingWait bounds the write of a heartbeat: a few bytes, which only a
// client that stopped reading keeps from going.
const pingWait = time.Second

// ping writes a heartbeat unless c wrote after idle, and ends the stream
// if it cannot.
func (c *connSink) ping(idle time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last.After(idle) {
		return
	}
	if c.writeWithin(pingWait, c.beat) != nil {
		c.end()
	}
}

// pings sends the heartbeats of the streams that took over their
// connections, from one goroutine: an idle stream's own goroutine sleeps
// until its game changes (10,000 idle streams' timers waking their
// goroutines took a core's percent or two).
type pings struct {
	mu      sync.Mutex
	sinks   map[*connSink]struct{}
	running bool
}

// add pings sink every, while it is idle, until remove. Its first
// heartbeat comes at a random moment of the first period, so that streams
// opened together (a server starting again, its clients coming back) are
// not pinged together.
func (p *pings) add(sink *connSink, every time.Duration) (remove func()) {
	sink.mu.Lock()
	sink.last = time.Now().Add(-rand.N(every))
	sink.mu.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sinks == nil {
		p.sinks = map[*connSink]struct{}{}
	}
	p.sinks[sink] = struct{}{}
	if !p.running {
		p.running = true
		go p.run(every)
	}
	return func() {
		p.mu.Lock()
		delete(p.sinks, sink)
		p.mu.Unlock()
	}
}

// run pings, a tenth of every apart, the streams idle for every, while
// there are any.
func (p *pings) run(every time.Duration) {
	tick := time.NewTicker(max(every/10, time.Millisecond))
	defer tick.Stop()
	var sinks []*connSink
	for now := range tick.C {
		sinks = sinks[:0]
		p.mu.Lock()
		if len(p.sinks) == 0 {
			p.running = false
			p.mu.Unlock()
			return
		}
		for s := range p.sinks {
			sinks = append(sinks, s)
		}
		p.mu.Unlock()
		for _, s := range sinks {
			s.ping(now.Add(-every))
		}
	}
}

// detach takes the connection of c's request from the HTTP server and
// writes on it the head of an event stream (status 200, the headers set,
// Connection: close: the events run until the connection closes), so
// that the handler can return and the stream go on with its connection
// and little else. Served in its handler, an idle stream held the
// server's goroutines, buffers and request: about 40 KB (docs/deployment.md).
// detach reports false, having written nothing, where the server does not
// hand over its connections (HTTP/2, a test's recorder).
func detach(c echo.Context) (net.Conn, bool) {
	res := c.Response()
	conn, _, err := http.NewResponseController(res.Writer).Hijack()
	if err != nil {
		return nil, false
	}
	h := res.Header()
	h.Set(echo.HeaderConnection, "close")
	var head bytes.Buffer
	head.WriteString("HTTP/1.1 200 OK\r\n")
	h.Write(&head)
	head.WriteString("\r\n")
	if err := (&connSink{conn: conn}).write(head.Bytes()); err != nil {
		conn.Close()
		return nil, false
	}
	res.Status, res.Committed = http.StatusOK, true // for the request log
	return conn, true
}
