//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// fileLock is an exclusive advisory lock (flock) on the database file
// itself, held while a store has the database open. The lock belongs to
// the file (its inode), not to a name, so a second server is refused
// whatever name it gives the file: the same path, a symbolic link, or a
// hard link (which, locking a ".lock" file beside each name, took two
// locks and let two servers write one database through two write-ahead
// logs). The system releases it when the process ends, however it ends,
// so a killed server leaves no stale lock. flock and SQLite's own locks
// (fcntl byte ranges) do not meet; the descriptor is kept open until the
// store has closed the database, because closing a descriptor of a file
// drops the process's fcntl locks on it.
type fileLock struct{ f *os.File }

// lockFile locks the database at path, creating the file if it is not
// there yet (SQLite takes an empty file as a new database). It fails at
// once, saying so, when another store holds it.
func lockFile(path string) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
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
			return nil, fmt.Errorf("open database %s: another banchess process is serving it (it holds the file's lock, under this name or another); "+
				"run one server per database file, or give this one another --db", path)
		}
		return nil, fmt.Errorf("open database %s: locking it: %w", path, err)
	}
	return &fileLock{f: f}, nil
}

// release gives up the lock; a nil lock (":memory:", or a test's shared
// file) releases nothing.
func (l *fileLock) release() {
	if l != nil {
		l.f.Close() // closing the file releases the lock (after the database is closed)
	}
}
