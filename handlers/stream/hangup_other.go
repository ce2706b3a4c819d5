//go:build !linux

package stream

import "net"

// hangups would tell streams of their clients closing their connections;
// here the system does not say, and a stream's next write fails instead.
type hangups struct{}

func (h *hangups) watch(net.Conn, func()) (unwatch func()) { return func() {} }
