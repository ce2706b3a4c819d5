package games

import (
	"context"
	"sync/atomic"
)

// ReadMeter counts what a request's reads of games cost: the plies
// replayed to read games that were not in memory (a store keeps each game
// as its actions, and reads one back by replaying it from its start,
// about 7 µs a ply: 14 ms for a game of 2,000 plies). A server charges
// them to the client's budget of reads.
type ReadMeter struct{ plies atomic.Int64 }

// Plies is the plies replayed so far.
func (m *ReadMeter) Plies() int64 { return m.plies.Load() }

type readMeterKey struct{}

// WithReadMeter returns ctx counting its reads' replays on m.
func WithReadMeter(ctx context.Context, m *ReadMeter) context.Context {
	return context.WithValue(ctx, readMeterKey{}, m)
}

// CountReplay adds plies replayed to read a game to ctx's meter, if it has
// one: for stores.
func CountReplay(ctx context.Context, plies int) {
	if m, ok := ctx.Value(readMeterKey{}).(*ReadMeter); ok {
		m.plies.Add(int64(plies))
	}
}
