//go:build unix

package stream

import (
	"syscall"
	"testing"
)

func TestCap(t *testing.T) {
	for files, want := range map[int]int{0: MaxStreams, 1024: 512, 4096: 3072, 20_000: 17_500, 1 << 20: MaxStreams} {
		if got := Cap(files); got != want {
			t.Errorf("Cap(%d) = %d, want %d", files, got, want)
		}
	}
}

// TestDefaultStreamLimitsFollowFileLimit: the streams main allows in all
// leave a reserve of the files the process may open (the probe's server,
// with 20,000 files, allowed 20,000 streams and ran out of files).
func TestDefaultStreamLimitsFollowFileLimit(t *testing.T) {
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Skip(err)
	}
	for _, files := range []uint64{20_000, 3_000} {
		if files > old.Max {
			continue
		}
		lim := old
		lim.Cur = files
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			t.Skip(err)
		}
		got := DefaultLimits().Total
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old)
		if want := Cap(int(files)); got != want || got > int(files)-1024 {
			t.Errorf("with %d files: %d streams in all, want %d (a reserve of at least 1,024 files)", files, got, want)
		}
	}
}
