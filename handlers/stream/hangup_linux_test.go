//go:build linux

package stream

import (
	"net"
	"testing"
	"time"
)

// TestHangupsOfAReusedDescriptor: a descriptor closed is soon another
// connection's; the old connection's unwatch leaves the new one watched,
// and its client's hang-up is told (an unwatch by descriptor alone took
// the new watch away: its stream would have waited for its next write).
func TestHangupsOfAReusedDescriptor(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	pair := func() (server, client net.Conn) {
		client, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		server, err = ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		return server, client
	}
	var h hangups
	oldServer, oldClient := pair()
	fd, _ := descriptor(oldServer)
	unwatchOld := h.watch(oldServer, func() {})
	oldServer.Close() // the stream ends before its unwatch runs
	oldClient.Close()

	server, client := pair()
	defer server.Close()
	if again, _ := descriptor(server); again != fd {
		t.Skipf("the new connection has descriptor %d, not %d", again, fd)
	}
	told := make(chan struct{})
	defer h.watch(server, func() { close(told) })()
	unwatchOld()
	client.Close()
	select {
	case <-told:
	case <-time.After(5 * time.Second):
		t.Fatal("the new connection's hang-up was not told after the old one's unwatch")
	}
}
