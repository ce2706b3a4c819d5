//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// fileLock is an exclusive advisory lock (flock) on a file beside the
// database, held while a store has the database open. The system releases
// it when the process ends, however it ends, so a killed server leaves no
// stale lock.
type fileLock struct{ f *os.File }

// lockFile takes the lock of the database at path: path's ".lock" file,
// after following symbolic links, so two names of one database take one
// lock. It fails at once, saying so, when another store holds it.
func lockFile(path string) (*fileLock, error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	name := path + ".lock"
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open database %s: taking its lock: %w", path, err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("open database %s: another banchess process is serving it (it holds %s); "+
				"run one server per database file, or give this one another --db", path, name)
		}
		return nil, fmt.Errorf("open database %s: locking %s: %w", path, name, err)
	}
	return &fileLock{f: f}, nil
}

// release gives up the lock; a nil lock (":memory:", or a test's shared
// file) releases nothing.
func (l *fileLock) release() {
	if l != nil {
		l.f.Close() // closing the file releases the lock
	}
}
