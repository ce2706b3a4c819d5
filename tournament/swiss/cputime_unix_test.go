//go:build unix

package swiss

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used (user and system), which a
// shared machine's load does not inflate as it does the wall clock's.
func cpuTime() (time.Duration, bool) {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0, false
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()), true
}
