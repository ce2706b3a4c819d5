//go:build unix

package connlimit

import "syscall"

// FileLimit is how many files (connections among them) the process may
// have open: its soft RLIMIT_NOFILE, which Go raises to the hard limit at
// start; 0 when it cannot be read.
func FileLimit() int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur > 1<<30 {
		return 0
	}
	return int(lim.Cur)
}
