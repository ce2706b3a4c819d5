//go:build unix

package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// lowerFileLimit lowers the process's open-file limit to n files (see
// noFileEnv).
func lowerFileLimit(n string) {
	files, err := strconv.ParseUint(n, 10, 64)
	var lim syscall.Rlimit
	if err == nil {
		err = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim)
	}
	if err == nil {
		lim.Cur = files
		err = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "banchess test: lowering the open-file limit:", err)
		os.Exit(1)
	}
}

// TestIdleConnectionsLeaveRoom is the probe of issue 45 near a real
// open-file limit: a server that may open 256 files is sent 300
// keep-alive connections from ten addresses, each left idle after one
// /healthz. Every one is answered, and so is a new client (its /healthz
// and its first page), at once: the
// connections idle longest are closed to make room. Without that the
// server ran out of files ("accept4: too many open files") and answered
// no one.
func TestIdleConnectionsLeaveRoom(t *testing.T) {
	srv := startServerEnv(t, []string{noFileEnv + "=256"}, "--db", ":memory:")
	addr := strings.Replace(strings.TrimPrefix(srv.url, "http://"), "localhost", "127.0.0.1", 1)
	get := func(from, path string) (net.Conn, error) {
		d := net.Dialer{Timeout: 2 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		c, err := d.Dial("tcp", addr)
		if err != nil {
			return nil, err
		}
		c.SetDeadline(time.Now().Add(2 * time.Second))
		fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, addr)
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err == nil {
			_, err = io.Copy(io.Discard, res.Body)
			if res.StatusCode >= http.StatusBadRequest {
				err = fmt.Errorf("%s", res.Status)
			}
		}
		c.SetDeadline(time.Time{})
		if err != nil {
			c.Close()
			return nil, err
		}
		return c, nil
	}
	var idle []net.Conn
	t.Cleanup(func() {
		for _, c := range idle {
			c.Close()
		}
	})
	for i := range 300 {
		from := fmt.Sprintf("127.0.0.%d", 2+i%10)
		c, err := get(from, "/healthz")
		if err != nil {
			if i == 0 {
				t.Skipf("no loopback address %s: %v", from, err)
			}
			t.Fatalf("idle connection %d, from %s: %v (with %d held)", i+1, from, err, i)
		}
		idle = append(idle, c)
	}
	for _, path := range []string{"/healthz", "/"} {
		start := time.Now()
		c, err := get("127.0.0.1", path)
		if err != nil {
			t.Fatalf("a new client's GET %s, with 300 idle connections held: %v", path, err)
		}
		c.Close()
		if d := time.Since(start); d > time.Second {
			t.Errorf("a new client's GET %s took %v", path, d)
		}
	}
	idle[0].SetReadDeadline(time.Now().Add(time.Second))
	if _, err := idle[0].Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("the connection idle longest: read %v, want it closed (EOF)", err)
	}
}
