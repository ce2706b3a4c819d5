// Package connlimit bounds the connections a server holds open: so many
// per client address, and in all fewer than the files the process may
// open, by closing the connections idle longest when it gets there. A
// server that ran out of files could accept no one, not even its health
// check.
package connlimit

import (
	"container/list"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// Config is what a Listener is made with.
type Config struct {
	// PerAddr caps the connections one client address (an IPv6 client by
	// its /64) may hold open; 0: no cap. The address is the connection's
	// peer: behind a reverse proxy, the proxy's.
	PerAddr int
	// Files is how many files the process may have open (FileLimit reads
	// it); the connections held are kept within Budget(Files). 0: unknown,
	// no bound in all.
	Files int
	// ExemptPrivate exempts peers at loopback, link-local and private
	// addresses from PerAddr: a reverse proxy's connections carry many
	// clients (main sets it with --trust-proxy).
	ExemptPrivate bool
	// Log is where closings and refusals are reported (at most once every
	// warnEvery); nil: nowhere.
	Log *slog.Logger
}

// Budget is how many connections a process that may open files files
// holds at once: all but a reserve of a sixteenth of them, or of 256 when
// that is more (a quarter of a small limit), for the database, the logs
// and the rest. It exceeds the live streams' limit (stream.Cap), so
// ordinary requests find room when the streams are at theirs. An unknown
// limit (0) gives 0, no bound.
func Budget(files int) int {
	if files <= 0 {
		return 0
	}
	return files - max(files/16, min(files/4, 256))
}

// shedOnFileLimit is how many idle connections are closed when accepting
// fails for want of files (EMFILE, ENFILE): the descriptors were taken by
// something else than the connections counted, and the next accept needs
// one.
const shedOnFileLimit = 32

// Why connections were closed or refused, as the warnings say.
const (
	perAddrFull = "a client address held as many as it may"
	filesFull   = "as many are open as the open-file limit leaves room for"
)

// warnEvery spaces the warnings about connections closed or refused.
const warnEvery = time.Minute

// Listener is a net.Listener that bounds the connections it hands out
// (see Config). Give its ConnState to the http.Server that serves it, so
// that it knows which connections are idle: only those are closed, the
// longest idle first, to make room. A connection in a request, or taken
// over by its handler (a live stream), is never closed by it.
type Listener struct {
	net.Listener
	perAddr       int
	max           int // Budget(Files); 0: no bound
	exemptPrivate bool
	log           *slog.Logger

	mu       sync.Mutex
	open     int
	byAddr   map[string]*peer
	idle     list.List // of *conn, the longest idle first
	closed   int       // idle connections closed to make room, since the last warning
	refused  int       // connections refused, since the last warning
	warnedAt time.Time
}

// peer is one client address's connections.
type peer struct {
	n    int
	idle list.List // of *conn, the longest idle first
}

// New returns ln bounded by c.
func New(ln net.Listener, c Config) *Listener {
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	return &Listener{Listener: ln, perAddr: max(c.PerAddr, 0), max: Budget(c.Files), exemptPrivate: c.ExemptPrivate,
		log: c.Log, byAddr: map[string]*peer{}}
}

// Accept waits for the next connection and returns it once there is room
// for it: an idle connection closed, if need be, the peer's own first.
// One there is no room for is closed at once and the next awaited. When
// accepting fails for want of files, the longest idle connections are
// closed and the error returned as it is, so that http.Server, seeing a
// temporary net.Error, waits before it tries again instead of spinning.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		nc, err := l.Listener.Accept()
		if err != nil {
			if errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) {
				l.shed(shedOnFileLimit)
			}
			return nil, err // unwrapped: http.Server asserts net.Error to back off
		}
		if c := l.admit(nc); c != nil {
			return c, nil
		}
	}
}

// ConnState follows the state of the connections an http.Server serves:
// set it as the server's ConnState hook. A connection is idle while it
// waits for its first request or the next.
func (l *Listener) ConnState(nc net.Conn, state http.ConnState) {
	c, ok := nc.(*conn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !c.counted {
		return
	}
	l.unidleLocked(c)
	if state == http.StateNew || state == http.StateIdle {
		c.idle = l.idle.PushBack(c)
		if c.peer != nil {
			c.peerIdle = c.peer.idle.PushBack(c)
		}
	}
}

// Open is how many connections are open.
func (l *Listener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

// admit counts nc in, closing idle connections to make room, and returns
// it wrapped; or, with no room, closes it and returns nil.
func (l *Listener) admit(nc net.Conn) *conn {
	key := l.key(nc.RemoteAddr())
	c := &conn{Conn: nc, l: l}
	var victims []*conn
	l.mu.Lock()
	p := l.byAddr[key]
	if key != "" && p != nil && p.n >= l.perAddr {
		v := front(&p.idle)
		if v == nil {
			l.refused++
			l.warnLocked(perAddrFull)
			l.mu.Unlock()
			nc.Close()
			return nil
		}
		l.forgetLocked(v)
		victims = append(victims, v)
		l.closed++
		l.warnLocked(perAddrFull)
	}
	if l.max > 0 && l.open >= l.max {
		v := front(&l.idle)
		if v == nil {
			l.refused++
			l.warnLocked(filesFull)
			l.mu.Unlock()
			nc.Close()
			for _, v := range victims {
				v.Close()
			}
			return nil
		}
		l.forgetLocked(v)
		victims = append(victims, v)
		l.closed++
		l.warnLocked(filesFull)
	}
	c.counted = true
	l.open++
	if key != "" {
		if p == nil {
			p = &peer{}
			l.byAddr[key] = p
		}
		p.n++
		c.peer, c.key = p, key
	}
	l.mu.Unlock()
	for _, v := range victims {
		v.Close()
	}
	return c
}

// shed closes up to n of the longest idle connections.
func (l *Listener) shed(n int) {
	var victims []*conn
	l.mu.Lock()
	for len(victims) < n {
		v := front(&l.idle)
		if v == nil {
			break
		}
		l.forgetLocked(v)
		victims = append(victims, v)
	}
	l.closed += len(victims)
	l.warnLocked("the process ran out of files")
	l.mu.Unlock()
	for _, v := range victims {
		v.Close()
	}
}

// key is what PerAddr counts by: the peer's IP address, or for IPv6 its
// /64 prefix; "" for a peer not counted.
func (l *Listener) key(addr net.Addr) string {
	if l.perAddr == 0 {
		return ""
	}
	var ip net.IP
	switch a := addr.(type) {
	case *net.TCPAddr:
		ip = a.IP
	default:
		host, _, err := net.SplitHostPort(addr.String())
		if err != nil {
			return ""
		}
		ip = net.ParseIP(host)
	}
	switch {
	case ip == nil:
		return ""
	case l.exemptPrivate && (ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsPrivate()):
		return ""
	case ip.To4() != nil:
		return ip.To4().String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// warnLocked reports the connections closed to make room and those
// refused since the last report, at most once every warnEvery; why is
// what the latest of them was for.
func (l *Listener) warnLocked(why string) {
	if l.closed+l.refused == 0 || time.Since(l.warnedAt) < warnEvery {
		return
	}
	l.log.Warn("connections at their limit: "+why,
		"closed_idle", l.closed, "refused", l.refused, "open", l.open, "most", l.max, "per_address", l.perAddr)
	l.closed, l.refused, l.warnedAt = 0, 0, time.Now()
}

// forgetLocked stops counting c: it is closed, or about to be.
func (l *Listener) forgetLocked(c *conn) {
	if !c.counted {
		return
	}
	c.counted = false
	l.unidleLocked(c)
	l.open--
	if c.peer != nil {
		if c.peer.n--; c.peer.n == 0 {
			delete(l.byAddr, c.key)
		}
	}
}

// unidleLocked takes c off the lists of idle connections.
func (l *Listener) unidleLocked(c *conn) {
	if c.idle != nil {
		l.idle.Remove(c.idle)
		c.idle = nil
	}
	if c.peerIdle != nil {
		c.peer.idle.Remove(c.peerIdle)
		c.peerIdle = nil
	}
}

// front is the first connection of list idle, or nil.
func front(idle *list.List) *conn {
	if e := idle.Front(); e != nil {
		return e.Value.(*conn)
	}
	return nil
}

// conn is a connection the Listener counts until it is closed. Its fields
// but Conn, l and once are guarded by l.mu.
type conn struct {
	net.Conn
	l        *Listener
	once     sync.Once
	err      error
	counted  bool
	key      string
	peer     *peer         // nil: not counted per address
	idle     *list.Element // in l.idle, while idle
	peerIdle *list.Element // in peer.idle, while idle
}

// Close closes the connection and stops counting it.
func (c *conn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		c.l.forgetLocked(c)
		c.l.mu.Unlock()
		c.err = c.Conn.Close()
	})
	return c.err
}

// CloseWrite shuts down the writing side, as http.Server does before it
// closes a connection after an error, so that the client reads the answer
// rather than a reset.
func (c *conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// SyscallConn gives the connection's descriptor (a live stream watches
// it for the client hanging up).
func (c *conn) SyscallConn() (syscall.RawConn, error) {
	if sc, ok := c.Conn.(syscall.Conn); ok {
		return sc.SyscallConn()
	}
	return nil, errors.ErrUnsupported
}

// ReadFrom copies r to the connection, with sendfile or splice where the
// connection can.
func (c *conn) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(c.Conn, r)
}
