package engine

import "sync/atomic"

// table is the transposition table, shared by the threads of a search
// without locks: a slot holds an entry packed in one word and, in a second,
// the position's key XOR that word. A reader takes a slot's entry only when
// the two agree with its key, so an entry torn by two threads writing the
// slot at once reads as a miss (Hyatt and Mann's lockless hashing).
type table []ttSlot

type ttSlot struct {
	check atomic.Uint64 // key ^ data
	data  atomic.Uint64 // the entry, packed
}

// ttEntry is one entry: for a turn, the best and the second-best moves of
// distinct pairs (the banner bans the first's pair), the value and how it
// bounds the turn's, and the depth it was searched to.
type ttEntry struct {
	m1, m2 Move
	score  int16
	depth  int8
	flag   uint8
}

const (
	boundExact = iota + 1
	boundLower
	boundUpper
)

// newTable returns a table of about mb MiB (at least 1), a power of two
// slots.
func newTable(mb int) table {
	n := 1
	for n*2*16 <= max(mb, 1)<<20 {
		n *= 2
	}
	return make(table, n)
}

func (e ttEntry) pack() uint64 {
	return uint64(e.m1) | uint64(e.m2)<<16 | uint64(uint16(e.score))<<32 | uint64(uint8(e.depth))<<48 | uint64(e.flag)<<56
}

func unpack(d uint64) ttEntry {
	return ttEntry{m1: Move(d), m2: Move(d >> 16), score: int16(d >> 32), depth: int8(d >> 48), flag: uint8(d >> 56)}
}

func (t table) slot(key uint64) *ttSlot { return &t[key&uint64(len(t)-1)] }

// probe returns the entry for key, if the table holds one.
func (t table) probe(key uint64) (ttEntry, bool) {
	d, ok := t.get(key)
	if !ok {
		return ttEntry{}, false
	}
	return unpack(d), true
}

// get returns the packed entry for key, if the table holds one (a chess
// entry packs as ttEntry.pack, an EN-Chess one as enPack).
func (t table) get(key uint64) (uint64, bool) {
	s := t.slot(key)
	d := s.data.Load()
	if s.check.Load()^d != key {
		return 0, false
	}
	return d, true
}

// put keeps the packed entry d for key.
func (t table) put(key, d uint64) {
	s := t.slot(key)
	s.data.Store(d)
	s.check.Store(key ^ d)
}

// store keeps an entry for key, unless the slot holds a deeper bound for
// the same key; a mate score is stored as from the position (ply plies
// from the root), not from the root.
func (t table) store(key uint64, depth, score, flag, ply int, m1, m2 Move) {
	if old, ok := t.probe(key); ok && int(old.depth) > depth && flag != boundExact {
		return
	}
	if score > mateMin {
		score += ply
	} else if score < -mateMin {
		score -= ply
	}
	t.put(key, ttEntry{m1: m1, m2: m2, score: int16(score), depth: int8(depth), flag: uint8(flag)}.pack())
}

// clear empties the table.
func (t table) clear() {
	// No search runs (Clear's contract), so the slots need no atomic
	// stores: zeroing them at once is some forty times faster
	// (BenchmarkClear), and far more under the race detector, which gives
	// each atomic word its own state.
	clear(t)
}
