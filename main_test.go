package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/banchess/banchess/internal/connlimit"
	"github.com/banchess/banchess/store"
)

// serveArgsEnv, set in a child process of the test binary, makes it run
// the server with these arguments (separated by newlines) instead of the
// tests.
const serveArgsEnv = "BANCHESS_TEST_SERVE_ARGS"

// runArgsEnv, set in a child process of the test binary, makes it run as
// the banchess command with these arguments (separated by newlines): main
// without the tests.
const runArgsEnv = "BANCHESS_TEST_RUN_ARGS"

// noFileEnv, set in a child process of the test binary, lowers its
// open-file limit (RLIMIT_NOFILE) to this many before it serves.
const noFileEnv = "BANCHESS_TEST_NOFILE"

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(serveArgsEnv); ok {
		if n := os.Getenv(noFileEnv); n != "" {
			lowerFileLimit(n)
		}
		main2(strings.Split(args, "\n"))
		return
	}
	if args, ok := os.LookupEnv(runArgsEnv); ok {
		ctx, stop := signalContext()
		code := run(ctx, strings.Split(args, "\n"), os.Stdin, os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	code := m.Run()
	pg.Stop()
	os.Exit(code)
}

// main2 is main for a child server process.
func main2(args []string) {
	ctx, stop := signalContext()
	defer stop()
	if err := serve(ctx, args, os.Stdout, func(string) string { return "" }); err != nil {
		fmt.Fprintln(os.Stderr, "banchess:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// server is the banchess server running in a child process.
type server struct {
	cmd  *exec.Cmd
	url  string
	done chan error
}

// startServer runs the server in a child process on a free port.
func startServer(t testing.TB, args ...string) *server {
	t.Helper()
	return startServerEnv(t, nil, args...)
}

// startServerEnv runs the server in a child process on a free port, with
// env added to its environment.
func startServerEnv(t testing.TB, env []string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serveArgsEnv+"="+strings.Join(append([]string{"--addr", "127.0.0.1:0"}, args...), "\n"))
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, done: make(chan error, 1)}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := regexp.MustCompile(`playing at (http://\S+?)/?$`).FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		s.done <- cmd.Wait()
	}()
	t.Cleanup(func() { cmd.Process.Kill() })
	select {
	case s.url = <-found:
		return s
	case err := <-s.done:
		t.Fatalf("the server exited before listening: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not start within 30 s")
	}
	return nil
}

// apiGame is the part of the API's game object the tests compare.
type apiGame struct {
	ID       string   `json:"id"`
	FEN      string   `json:"fen"`
	Ply      int      `json:"ply"`
	Legal    []string `json:"legal"`
	Log      []string `json:"log"`
	Status   string   `json:"status"`
	Token    string   `json:"token"` // in the answer to a new game
	Revision int64    `json:"revision"`
}

// post sends body to path with token as the bearer ("" for none).
func (s *server) post(path, body, token string) (*apiGame, error) {
	req, err := http.NewRequest(http.MethodPost, s.url+path, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	return readGame(res)
}

func (s *server) get(path string) (*apiGame, error) {
	res, err := http.Get(s.url + path)
	if err != nil {
		return nil, err
	}
	return readGame(res)
}

func readGame(res *http.Response) (*apiGame, error) {
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusCreated {
		return nil, fmt.Errorf("%s: %s", res.Status, b)
	}
	var g apiGame
	if err := json.Unmarshal(b, &g); err != nil {
		return nil, fmt.Errorf("%w: %s", err, b)
	}
	return &g, nil
}

// TestKilledServerKeepsPlies plays games from several clients, kills the
// server with SIGKILL while plies are in flight, restarts it on the same
// database, and finds every acknowledged ply.
func TestKilledServerKeepsPlies(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	db := filepath.Join(t.TempDir(), "games.db")
	srv := startServer(t, "--db", db, "--post-rate", "0") // the clients post as fast as they can

	acked, wait := playUntilGone(t, 4, func(int, int) *server { return srv })
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	wait()
	<-srv.done
	checkAcked(t, startServer(t, "--db", db), acked)
}

// playUntilGone has clients each play a game of its own, ply after ply,
// each ply k of client i sent to at(i, k), until 200 plies in all were
// answered; they go on until their server is gone. It returns the last
// state each client's server acknowledged, to read once wait returns.
func playUntilGone(t *testing.T, clients int, at func(i, k int) *server) (acked []*apiGame, wait func()) {
	t.Helper()
	acked = make([]*apiGame, clients)
	var mu sync.Mutex
	var wg sync.WaitGroup
	plies := make(chan struct{}, 1000)
	for i := range clients {
		g, err := at(i, 0).post("/api/games", "{}", "")
		if err != nil {
			t.Fatal(err)
		}
		acked[i] = g
		token := g.Token
		wg.Go(func() {
			for k := 0; ; k++ {
				mu.Lock()
				g := acked[i]
				mu.Unlock()
				path, body := "/api/games/"+g.ID+"/actions", ""
				if len(g.Legal) == 0 {
					path = "/api/games/" + g.ID + "/undo"
				} else {
					body = fmt.Sprintf(`{"action":%q}`, g.Legal[(k*7+i)%len(g.Legal)])
				}
				next, err := at(i, k).post(path, body, token)
				if err != nil {
					return // the server is gone: this ply was never acknowledged
				}
				mu.Lock()
				acked[i] = next
				mu.Unlock()
				select {
				case plies <- struct{}{}:
				default:
				}
			}
		})
	}
	for range 200 {
		<-plies
	}
	return acked, wg.Wait
}

// checkAcked checks srv has every acknowledged ply of the games acked.
func checkAcked(t *testing.T, srv *server, acked []*apiGame) {
	t.Helper()
	for i, want := range acked {
		got, err := srv.get("/api/games/" + want.ID)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		// The ply in flight when the server died may have been saved
		// without being acknowledged; nothing acknowledged may be missing.
		inFlight := len(got.Log) == len(want.Log)+1 && slices.Equal(got.Log[:len(want.Log)], want.Log) ||
			len(want.Legal) == 0 && len(got.Log)+1 == len(want.Log) && slices.Equal(got.Log, want.Log[:len(got.Log)])
		if !slices.Equal(got.Log, want.Log) && !inFlight {
			t.Errorf("game %d: the log is\n%v\nwant the acknowledged\n%v", i, got.Log, want.Log)
		}
	}
}

// TestGracefulShutdown stops the server with SIGTERM: it exits cleanly and
// leaves a database another server opens with every game.
func TestGracefulShutdown(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	db := filepath.Join(t.TempDir(), "games.db")
	srv := startServer(t, "--db", db)
	g, err := srv.post("/api/games", "{}", "")
	if err != nil {
		t.Fatal(err)
	}
	if g, err = srv.post("/api/games/"+g.ID+"/actions", `{"action":"b:e2e4"}`, g.Token); err != nil {
		t.Fatal(err)
	}
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-srv.done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no exit within 20 s of SIGTERM")
	}
	if fi, err := os.Stat(db + "-wal"); err == nil && fi.Size() > 0 {
		t.Errorf("the write-ahead log was left with %d bytes: the database was not closed", fi.Size())
	}
	again := startServer(t, "--db", db)
	got, err := again.get("/api/games/" + g.ID)
	if err != nil || got.FEN != g.FEN {
		t.Fatalf("after a restart: %+v, %v; want %s", got, err, g.FEN)
	}
}

// TestSecondServerRefused starts a server on a database another process
// serves: it refuses to start, saying why.
func TestSecondServerRefused(t *testing.T) {
	switch runtime.GOOS {
	case "linux", "darwin", "freebsd", "openbsd", "netbsd", "dragonfly":
	default:
		t.Skip("the store takes no file lock on " + runtime.GOOS)
	}
	db := filepath.Join(t.TempDir(), "games.db")
	first, err := store.OpenSQLite(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	var out bytes.Buffer
	err = serve(context.Background(), []string{"--db", db, "--addr", "localhost:0"}, &out, func(string) string { return "" })
	if err == nil || !strings.Contains(err.Error(), "another banchess process is serving it") {
		t.Errorf("a second server on %s: %v", db, err)
	}
}

func TestServeFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--game-ttl", "soon"}, `"soon" is not a duration`},
		{[]string{"--game-ttl", "xd"}, `"xd" is not a number of days`},
		{[]string{"--db", "a?b"}, "without ? or #"},
		{[]string{"--addr", "256.0.0.1:99999"}, "listen"},
		{[]string{"--post-rate", "-1"}, "must be 0 (no limit) or more"},
		{[]string{"--games-per-minute", "-5"}, "must be 0 (no limit) or more"},
		{[]string{"--conns-per-ip", "-1"}, "must be 0 (no limit) or more"},
		{[]string{"--signups-per-hour", "-1"}, "must be 0 (no limit) or more"},
		{[]string{"--post-rate", "fast"}, "invalid value"},
		{[]string{"--base-url", "chess.example.com"}, "--base-url"},
		{[]string{"--base-url", "https://chess.example.com/play?x=1"}, "only the scheme and host"},
		{[]string{"--cache-mb", "-1"}, "must not be negative"},
		{[]string{"--db", "mysql://u:secret@h/db"}, `"mysql://…@h/db" is a URL but not a PostgreSQL one`},
		{[]string{"--db", "postgres://h/db", "--fsync"}, "--fsync is for SQLite"},
		{[]string{"--arena-clock", "fast"}, "--arena-clock"},
		{[]string{"--arena-minutes", "5"}, "--arena-minutes"},
		{[]string{"--arena-schedule", "-1h"}, "--arena-schedule"},
	}
	for _, tc := range tests {
		var out bytes.Buffer
		err := serve(context.Background(), append([]string{"--db", ":memory:"}, tc.args...), &out, func(string) string { return "" })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error with %q", tc.args, err, tc.want)
		}
	}
	// DATABASE_URL is the database when --db is not given.
	env := func(k string) string {
		if k == "DATABASE_URL" {
			return "mysql://u:secret@h/db"
		}
		return ""
	}
	err := serve(context.Background(), []string{"--addr", "localhost:0"}, io.Discard, env)
	if err == nil || !strings.Contains(err.Error(), "not a PostgreSQL one") || strings.Contains(err.Error(), "secret") {
		t.Errorf("DATABASE_URL: %v", err)
	}
	for in, want := range map[string]string{"30d": "30d", "12h": "12h0m0s", "0": "0s", "48h": "2d"} {
		var d days
		if err := d.Set(in); err != nil || d.String() != want {
			t.Errorf("days %q: %s, %v; want %s", in, d.String(), err, want)
		}
	}
}

// TestIdleConnectionsKeptBriefly: an idle keep-alive connection is kept
// 30 s, not 2 minutes (a probe held every file with them), and the
// listener is told which connections are idle, to close the longest idle
// first when files run short (TestIdleConnectionsLeaveRoom).
func TestIdleConnectionsKeptBriefly(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	srv := newHTTPServer(http.NotFoundHandler(), connlimit.New(ln, connlimit.Config{}), slog.New(slog.DiscardHandler))
	if srv.IdleTimeout <= 0 || srv.IdleTimeout > 30*time.Second {
		t.Errorf("idle connections kept %v, want at most 30 s", srv.IdleTimeout)
	}
	if srv.ConnState == nil {
		t.Error("the listener is not told which connections are idle")
	}
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 {
		t.Errorf("timeouts %v, %v, %v: a slow client may hold a connection", srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout)
	}
}

// TestHelp: -h and --help print the usage and succeed, starting nothing.
func TestHelp(t *testing.T) {
	for _, arg := range []string{"-h", "--help"} {
		var out bytes.Buffer
		if err := serve(context.Background(), []string{arg}, &out, func(string) string { return "" }); err != nil {
			t.Errorf("%s: %v", arg, err)
		}
		if !strings.Contains(out.String(), "usage: banchess") || !strings.Contains(out.String(), "-addr") || !strings.Contains(out.String(), "-signups-per-hour") {
			t.Errorf("%s printed %q", arg, out.String())
		}
	}
}

// TestStartLineSaysWhereItListens: the start line names the address the
// server listens on, with its real port, and the URL to open.
func TestStartLineSaysWhereItListens(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, []string{"--db", ":memory:", "--addr", "127.0.0.1:0"}, w, func(string) string { return "" })
	}()
	line, err := bufio.NewReader(r).ReadString('\n')
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^banchess: listening on 127\.0\.0\.1:(\d+), playing at http://localhost:(\d+)/\n$`).FindStringSubmatch(line)
	if m == nil || m[1] != m[2] || m[1] == "0" {
		t.Errorf("start line %q", line)
	}
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
	w.Close()
	r.Close()
}
