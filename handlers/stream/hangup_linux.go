//go:build linux

package stream

import (
	"net"
	"sync"
	"syscall"
)

// hangups tells the streams that took over their connections when their
// clients close them, as the HTTP server's read of a connection would:
// the connections are in an epoll set of their own, for hang-ups only, and
// one goroutine waits on it while any is.
type hangups struct {
	mu      sync.Mutex
	epfd    int              // the set, while gone is not nil
	gone    map[int32]hangup // by descriptor
	waiting bool             // a goroutine waits on the set
	watches int32            // counts the watches, to tell them apart
}

// hangup is a connection watched: which watch of its descriptor (a
// descriptor closed is soon another connection's, and the set may still
// tell of the old one), and what its hang-up ends.
type hangup struct {
	watch int32
	gone  func()
}

// watch calls gone when conn's client closes it, until unwatch. Each
// watch is told apart from a later one of the same descriptor (a closed
// connection's descriptor is soon another's): neither a late unwatch nor
// a hang-up the set told of before the descriptor changed hands ends the
// later watch.
// Where the system does not say, it does nothing: the stream's next write
// fails instead.
func (h *hangups) watch(conn net.Conn, gone func()) (unwatch func()) {
	fd, ok := descriptor(conn)
	if !ok {
		return func() {}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.gone == nil {
		epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
		if err != nil {
			return func() {}
		}
		h.epfd, h.gone = epfd, map[int32]hangup{}
	}
	h.watches++
	ev := syscall.EpollEvent{Events: syscall.EPOLLRDHUP | syscall.EPOLLHUP | syscall.EPOLLERR, Fd: fd, Pad: h.watches}
	if syscall.EpollCtl(h.epfd, syscall.EPOLL_CTL_ADD, int(fd), &ev) != nil {
		return func() {}
	}
	h.gone[fd] = hangup{watch: h.watches, gone: gone}
	if !h.waiting {
		h.waiting = true
		go h.wait()
	}
	watch := h.watches
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if w, ok := h.gone[fd]; ok && w.watch == watch {
			delete(h.gone, fd)
			syscall.EpollCtl(h.epfd, syscall.EPOLL_CTL_DEL, int(fd), nil)
		}
	}
}

// wait tells of hang-ups while any connection is watched; it looks again
// every second at most to end once none is.
func (h *hangups) wait() {
	events := make([]syscall.EpollEvent, 64)
	for {
		n, err := syscall.EpollWait(h.epfd, events, 1000)
		if err != nil && err != syscall.EINTR {
			n = 0
		}
		h.mu.Lock()
		var ends []func()
		for _, ev := range events[:max(n, 0)] {
			if w, ok := h.gone[ev.Fd]; ok && w.watch == ev.Pad {
				delete(h.gone, ev.Fd)
				syscall.EpollCtl(h.epfd, syscall.EPOLL_CTL_DEL, int(ev.Fd), nil)
				ends = append(ends, w.gone)
			}
		}
		last := len(h.gone) == 0
		if last { // the set goes with its last connection
			syscall.Close(h.epfd)
			h.gone, h.waiting = nil, false
		}
		h.mu.Unlock()
		for _, gone := range ends {
			gone()
		}
		if last {
			return
		}
	}
}

// descriptor is conn's file descriptor, for the epoll set.
func descriptor(conn net.Conn) (int32, bool) {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return 0, false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0, false
	}
	var fd int32
	if rc.Control(func(f uintptr) { fd = int32(f) }) != nil {
		return 0, false
	}
	return fd, true
}
