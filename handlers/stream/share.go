package stream

import (
	"sync"
)

// Encodings share among the API streams of a game the data of the event
// each change makes (the game object, 60 KB for a game of 2,000 plies):
// it is built once per revision, by the first stream to wake for it, and
// the others send the same bytes. It is kept until every stream of the
// game has taken it, then dropped, so what it holds is only what is on
// its way.
type Encodings struct {
	mu sync.Mutex
	m  map[string]*Encoding // by game and what else the data says (the PGN's tags)
}

// Encoding is the last event data built for one key's streams.
type Encoding struct {
	key string

	mu       sync.Mutex // held while the data is built, and to read it
	watchers int        // streams sharing it
	rev      int64      // the revision data says
	data     []byte     // nil once every stream took it
	untaken  int        // streams that have not taken data
}

// Join adds a stream to key's Encoding, and returns it.
func (e *Encodings) Join(key string) *Encoding {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.m == nil {
		e.m = map[string]*Encoding{}
	}
	enc := e.m[key]
	if enc == nil {
		enc = &Encoding{key: key, rev: -1}
		e.m[key] = enc
	}
	enc.mu.Lock()
	enc.watchers++
	enc.mu.Unlock()
	return enc
}

// Leave takes a stream from its Encoding, forgetting the Encoding with its
// last stream.
func (e *Encodings) Leave(enc *Encoding) {
	e.mu.Lock()
	defer e.mu.Unlock()
	enc.mu.Lock()
	enc.watchers--
	enc.untaken = min(enc.untaken, enc.watchers)
	last := enc.watchers == 0
	enc.mu.Unlock()
	if last && e.m[enc.key] == enc {
		delete(e.m, enc.key)
	}
}

// Get returns the data at revision rev or a later one, and its revision:
// the data built last, if it is that recent, or else what build makes now
// (while the others wait for it).
func (enc *Encoding) Get(rev int64, build func() (int64, []byte, error)) (int64, []byte, error) {
	enc.mu.Lock()
	defer enc.mu.Unlock()
	if enc.data == nil || enc.rev < rev {
		r, data, err := build()
		if err != nil {
			return 0, nil, err
		}
		enc.rev, enc.data, enc.untaken = r, data, enc.watchers
	}
	r, data := enc.rev, enc.data
	if enc.untaken--; enc.untaken <= 0 {
		enc.data = nil
	}
	return r, data, nil
}
