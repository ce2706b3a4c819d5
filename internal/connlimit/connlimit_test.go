package connlimit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// serve serves h (nil: "ok") on a Listener of c over ln (nil: a new one
// on loopback) until the test ends.
func serve(t *testing.T, ln net.Listener, c Config, h http.Handler) *Listener {
	t.Helper()
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
	}
	if h == nil {
		h = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") })
	}
	l := New(ln, c)
	srv := &http.Server{Handler: h, ConnState: l.ConnState, ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout: time.Minute, ErrorLog: log.New(io.Discard, "", 0)}
	done := make(chan struct{})
	go func() { srv.Serve(l); close(done) }()
	t.Cleanup(func() { srv.Close(); <-done })
	return l
}

// client is a keep-alive connection that sends requests by hand.
type client struct {
	net.Conn
	r *bufio.Reader
}

// dial connects to l from the loopback address from ("": any).
func dial(t *testing.T, l *Listener, from string) *client {
	t.Helper()
	d := net.Dialer{Timeout: 2 * time.Second}
	if from != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	c, err := d.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatalf("dial from %q: %v", from, err)
	}
	t.Cleanup(func() { c.Close() })
	return &client{Conn: c, r: bufio.NewReader(c)}
}

// get asks for / and returns the answer's status, or an error when none
// comes within a second.
func (c *client) get() (int, error) {
	c.SetDeadline(time.Now().Add(time.Second))
	defer c.SetDeadline(time.Time{})
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: test\r\n\r\n"); err != nil {
		return 0, err
	}
	res, err := http.ReadResponse(c.r, nil)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	_, err = io.Copy(io.Discard, res.Body)
	return res.StatusCode, err
}

// closed reports whether the server closed the connection (without a
// request in flight): a read finds its end within wait.
func (c *client) closed(wait time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(wait))
	defer c.SetReadDeadline(time.Time{})
	_, err := c.r.ReadByte()
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

// closedEach reports, for each of cs at once, whether it is closed (see
// closed).
func closedEach(cs []*client, wait time.Duration) []bool {
	out := make([]bool, len(cs))
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Go(func() { out[i] = c.closed(wait) })
	}
	wg.Wait()
	return out
}

// mustGet asks for / on c and fails the test unless it is answered 200.
func (c *client) mustGet(t *testing.T, what string) {
	t.Helper()
	if code, err := c.get(); err != nil || code != http.StatusOK {
		t.Fatalf("%s: %d, %v", what, code, err)
	}
}

// settled waits until l counts want connections open.
func settled(t *testing.T, l *Listener, want int) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); l.Open() != want; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections open, want %d", l.Open(), want)
		}
	}
}

// allIdle waits until every connection l counts is idle: a client reads
// its answer a moment before the server marks its connection idle.
func allIdle(t *testing.T, l *Listener) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(time.Millisecond) {
		l.mu.Lock()
		open, idle := l.open, l.idle.Len()
		l.mu.Unlock()
		if open == idle {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d connections open, %d idle", open, idle)
		}
	}
}

func TestBudget(t *testing.T) {
	for files, want := range map[int]int{0: 0, 64: 48, 256: 192, 1024: 768, 4096: 3840, 20_000: 18_750} {
		if got := Budget(files); got != want {
			t.Errorf("Budget(%d) = %d, want %d", files, got, want)
		}
	}
}

// TestReserveClosesLongestIdle: with 64 files the listener holds 48
// connections. Clients that each asked once and keep their connection
// (the probe's idle keep-alives) get no further: past 48, each new
// connection closes the one idle longest, so a fresh client is answered
// at once, and the newest idle ones are kept.
func TestReserveClosesLongestIdle(t *testing.T) {
	l := serve(t, nil, Config{Files: 64}, nil)
	const n = 60
	var cs []*client
	for i := range n {
		c := dial(t, l, "")
		c.mustGet(t, fmt.Sprintf("client %d", i))
		allIdle(t, l)
		cs = append(cs, c)
	}
	budget := Budget(64)
	settled(t, l, budget)
	for i, closed := range closedEach(cs, 50*time.Millisecond) {
		if want := i < n-budget; closed != want {
			t.Errorf("client %d: closed %v, want %v (the longest idle go first)", i, !want, want)
		}
	}
	start := time.Now()
	dial(t, l, "").mustGet(t, "a fresh client")
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("a fresh client waited %v", d)
	}
	cs[n-1].mustGet(t, "the newest idle client again")
	if l.Open() > budget {
		t.Errorf("%d connections open, more than %d", l.Open(), budget)
	}
}

// TestBusyConnectionsAreKept: connections in a request are never closed
// to make room; with every one busy a new connection is refused (closed
// at once), and served once one is free.
func TestBusyConnectionsAreKept(t *testing.T) {
	release := make(chan struct{})
	var inFlight sync.WaitGroup
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/wait" {
			inFlight.Done()
			<-release
		}
		io.WriteString(w, "ok\n")
	})
	l := serve(t, nil, Config{Files: 64}, h)
	budget := Budget(64)
	busy := make([]*client, budget)
	inFlight.Add(budget)
	for i := range busy {
		busy[i] = dial(t, l, "")
		io.WriteString(busy[i], "GET /wait HTTP/1.1\r\nHost: test\r\n\r\n")
	}
	inFlight.Wait()
	if c := dial(t, l, ""); !c.closed(time.Second) {
		t.Error("with every connection busy, a new one was kept open")
	}
	close(release)
	for i, c := range busy {
		res, err := http.ReadResponse(c.r, nil)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("busy client %d: %v, %v", i, res, err)
		}
		res.Body.Close()
	}
	dial(t, l, "").mustGet(t, "a client once the others are idle")
}

// TestPerAddrCap: one address holds at most PerAddr connections: a new
// one closes its own longest idle, or with none idle is refused; another
// address is not affected, nor, with ExemptPrivate, a proxy's.
func TestPerAddrCap(t *testing.T) {
	t.Run("idle", func(t *testing.T) {
		l := serve(t, nil, Config{PerAddr: 4}, nil)
		var cs []*client
		for i := range 10 {
			c := dial(t, l, "127.0.0.1")
			c.mustGet(t, fmt.Sprintf("client %d", i))
			allIdle(t, l)
			cs = append(cs, c)
		}
		settled(t, l, 4)
		for i, closed := range closedEach(cs, 50*time.Millisecond) {
			if want := i < 6; closed != want {
				t.Errorf("client %d: closed %v, want %v", i, !want, want)
			}
		}
		other := dialOrSkip(t, l, "127.0.0.2")
		other.mustGet(t, "another address")
		settled(t, l, 5)
	})
	t.Run("busy", func(t *testing.T) {
		release := make(chan struct{})
		var inFlight sync.WaitGroup
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			inFlight.Done()
			<-release
			io.WriteString(w, "ok\n")
		})
		l := serve(t, nil, Config{PerAddr: 4}, h)
		var cs []*client
		inFlight.Add(4)
		for range 4 {
			c := dial(t, l, "127.0.0.1")
			io.WriteString(c, "GET / HTTP/1.1\r\nHost: test\r\n\r\n")
			cs = append(cs, c)
		}
		inFlight.Wait()
		start := time.Now()
		if c := dial(t, l, "127.0.0.1"); !c.closed(time.Second) {
			t.Error("a fifth connection from the address was kept open")
		} else if d := time.Since(start); d > 500*time.Millisecond {
			t.Errorf("the fifth connection was closed after %v", d)
		}
		close(release)
		for i, c := range cs {
			res, err := http.ReadResponse(c.r, nil)
			if err != nil || res.StatusCode != http.StatusOK {
				t.Fatalf("client %d: %v, %v", i, res, err)
			}
			res.Body.Close()
		}
	})
	t.Run("exempt", func(t *testing.T) {
		l := serve(t, nil, Config{PerAddr: 4, ExemptPrivate: true}, nil)
		var cs []*client
		for i := range 10 {
			c := dial(t, l, "127.0.0.1")
			c.mustGet(t, fmt.Sprintf("client %d", i))
			allIdle(t, l)
			cs = append(cs, c)
		}
		settled(t, l, 10)
		for i, closed := range closedEach(cs, 50*time.Millisecond) {
			if closed {
				t.Errorf("client %d of a proxy's address was closed", i)
			}
		}
	})
}

// dialOrSkip dials from another loopback address, or skips the test
// where there is none (only Linux routes all of 127.0.0.0/8 to itself).
func dialOrSkip(t *testing.T, l *Listener, from string) *client {
	t.Helper()
	d := net.Dialer{Timeout: 2 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, err := d.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Skipf("no loopback address %s: %v", from, err)
	}
	t.Cleanup(func() { c.Close() })
	return &client{Conn: c, r: bufio.NewReader(c)}
}

// failing is a listener whose Accept fails for want of files, as
// accept(2) does with EMFILE, the next fails times.
type failing struct {
	net.Listener
	fails atomic.Int64
	calls atomic.Int64
}

func (f *failing) Accept() (net.Conn, error) {
	f.calls.Add(1)
	if f.fails.Add(-1) >= 0 {
		return nil, &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
	return f.Listener.Accept()
}

// TestOutOfFiles: when accepting fails for want of files (descriptors
// taken by something the listener does not count), the longest idle
// connections are closed to free some, and the error goes to the
// http.Server as it is, a temporary one it backs off from: it does not
// spin.
func TestOutOfFiles(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &failing{Listener: inner}
	l := serve(t, f, Config{}, nil)
	var cs []*client
	for i := range shedOnFileLimit + 8 {
		c := dial(t, l, "")
		c.mustGet(t, fmt.Sprintf("client %d", i))
		allIdle(t, l)
		cs = append(cs, c)
	}
	// The server waits in Accept: the next connection lets it return, and
	// the Accept after it fails.
	f.fails.Store(1)
	dial(t, l, "")
	settled(t, l, len(cs)+1-shedOnFileLimit)
	for i, closed := range closedEach(cs, 50*time.Millisecond) {
		if want := i < shedOnFileLimit; closed != want {
			t.Errorf("client %d: closed %v, want %v (the longest idle go first)", i, !want, want)
		}
	}

	f.fails.Store(1 << 30)
	dial(t, l, "")
	time.Sleep(50 * time.Millisecond)
	calls := f.calls.Load()
	time.Sleep(300 * time.Millisecond)
	if n := f.calls.Load() - calls; n > 10 {
		t.Errorf("%d accepts in 300 ms while out of files: the server spins", n)
	}
	f.fails.Store(0)
	dial(t, l, "").mustGet(t, "a client once files are free")
}

// TestTakenConnection: a connection a handler takes over (a live stream)
// keeps what the stream uses of a TCP connection — its descriptor, to
// watch for the client hanging up, and closing for writing — is never
// closed to make room, and is counted until the handler closes it.
func TestTakenConnection(t *testing.T) {
	taken := make(chan net.Conn, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		c, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n")
		taken <- c
	})
	l := serve(t, nil, Config{PerAddr: 1}, h)
	c := dial(t, l, "")
	c.mustGet(t, "the stream")
	stream := <-taken
	if _, ok := stream.(syscall.Conn); !ok {
		t.Error("a taken connection gives no descriptor")
	}
	if _, ok := stream.(interface{ CloseWrite() error }); !ok {
		t.Error("a taken connection cannot be closed for writing")
	}
	if c2 := dial(t, l, ""); !c2.closed(time.Second) {
		t.Error("a second connection from the address was kept, the stream's being busy")
	}
	if c.closed(50 * time.Millisecond) {
		t.Error("the stream's connection was closed to make room")
	}
	stream.Close()
	settled(t, l, 0)
}
