// Package pgtest starts a throwaway PostgreSQL server for tests: initdb and
// pg_ctl from Debian's postgresql package, in a temporary directory, as the
// unprivileged user postgres when the tests run as root, listening on a
// free loopback port. Tests skip when the binaries are missing, and fail
// instead when CI=true.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"
)

// Server is a running PostgreSQL server.
type Server struct {
	dir     string // the temporary directory holding data, socket and log
	bin     string
	port    int
	cred    *syscall.Credential // whom the server runs as; nil: this process's user
	opts    string              // the server's options (pg_ctl's -o)
	schemas atomic.Int64
}

// Lazy starts one server the first time a test asks for it, and stops it
// when the test binary ends (Stop, from TestMain).
type Lazy struct {
	// Fsync keeps PostgreSQL's fsync on (for benchmarks); off, a commit is
	// as durable as the process, which is all the tests need.
	Fsync bool

	once sync.Once
	srv  *Server
	err  error
}

// Server returns the running server, starting it if need be. It skips tb
// when the PostgreSQL binaries are missing, and fails it instead when
// CI=true, or when the server could not start.
func (l *Lazy) Server(tb testing.TB) *Server {
	tb.Helper()
	l.once.Do(func() { l.srv, l.err = Start(l.Fsync) })
	if errors.Is(l.err, ErrNoBinaries) && os.Getenv("CI") != "true" {
		tb.Skipf("skipping the PostgreSQL tests: %v", l.err)
	}
	if l.err != nil {
		tb.Fatalf("starting PostgreSQL: %v", l.err)
	}
	return l.srv
}

// Stop stops the server if it was started.
func (l *Lazy) Stop() {
	if l.srv != nil {
		l.srv.Stop()
	}
}

// ErrNoBinaries is the error Start returns where initdb and pg_ctl are not
// installed.
var ErrNoBinaries = errors.New("no initdb and pg_ctl in /usr/lib/postgresql/*/bin (apt-get install postgresql)")

// Start initialises a database cluster in a new temporary directory and
// starts a server on it. The caller stops it with Stop.
func Start(fsync bool) (*Server, error) {
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(bins) == 0 {
		return nil, ErrNoBinaries
	}
	sort.Strings(bins) // the newest version last (lexically: fine within 10..99)
	s := &Server{bin: filepath.Dir(bins[len(bins)-1])}
	parent := os.TempDir()
	if os.Geteuid() == 0 && !traversable(parent) {
		parent = "/tmp" // the server's user must reach its directory
	}
	dir, err := os.MkdirTemp(parent, "pgtest-")
	if err != nil {
		return nil, err
	}
	s.dir = dir
	if os.Geteuid() == 0 {
		// PostgreSQL refuses to run as root.
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root, and no user postgres to run the server as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		// The directory (0700 from MkdirTemp) becomes the server's.
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	if s.port, err = freePort(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	data := filepath.Join(dir, "data")
	if err := s.run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c max_connections=200 -c fsync=%s -c synchronous_commit=%s",
		s.port, dir, onOff(fsync), onOff(fsync))
	s.opts = opts
	if err := s.Up(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

// Up starts the server (again, after Down) on its data, at its port.
func (s *Server) Up() error {
	if err := s.run("pg_ctl", "start", "-w", "-t", "60", "-D", filepath.Join(s.dir, "data"), "-l", filepath.Join(s.dir, "log"), "-o", s.opts); err != nil {
		log, _ := os.ReadFile(filepath.Join(s.dir, "log"))
		return fmt.Errorf("%w\n%s", err, log)
	}
	return nil
}

// Down stops the server, as a database outage does (every connection is
// closed), keeping its data for Up.
func (s *Server) Down() error {
	return s.run("pg_ctl", "stop", "-m", "fast", "-w", "-D", filepath.Join(s.dir, "data"))
}

// traversable reports whether every user may pass through dir and each
// directory above it.
func traversable(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil || fi.Mode().Perm()&0o001 == 0 {
			return false
		}
		if d == filepath.Dir(d) {
			return true
		}
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// run runs one of the server's programs as the server's user.
func (s *Server) run(name string, args ...string) error {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w\n%s", name, err, out)
	}
	return nil
}

// freePort returns a loopback TCP port nothing listens on.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// URL is the address of the server's database postgres.
func (s *Server) URL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", s.port)
}

// Schema creates a fresh, empty schema and returns a URL whose
// connections use it: each test gets a database of its own, at the cost
// of a CREATE SCHEMA instead of a CREATE DATABASE.
func (s *Server) Schema(tb testing.TB) string {
	tb.Helper()
	name := fmt.Sprintf("t%d", s.schemas.Add(1))
	conn, err := pgx.Connect(context.Background(), s.URL())
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "CREATE SCHEMA "+name); err != nil {
		tb.Fatal(err)
	}
	return s.URL() + "&search_path=" + name
}

// Stop stops the server and removes its directory.
func (s *Server) Stop() {
	if err := s.run("pg_ctl", "stop", "-m", "immediate", "-D", filepath.Join(s.dir, "data")); err != nil {
		fmt.Fprintln(os.Stderr, "pgtest:", strings.TrimSpace(err.Error()))
	}
	os.RemoveAll(s.dir)
}
