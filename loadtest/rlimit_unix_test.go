//go:build unix

package loadtest

import "syscall"

// raiseFileLimit raises the process's limit on open files to at least n
// (a stream is a connection, a file on each side), within the hard limit,
// and returns the limit now in force.
func raiseFileLimit(n uint64) uint64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	if lim.Cur < n {
		lim.Cur = min(n, lim.Max)
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim) != nil {
			syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim)
		}
	}
	return lim.Cur
}
