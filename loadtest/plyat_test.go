package loadtest

import (
	"bytes"
	"compress/gzip"
	"context"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// BenchmarkPlyAt measures one htmx ply (and one API ply, whole and with
// ?fields=compact) in process at ply 10 and at ply 300 of the same random
// game: its CPU (ns/op) and the size of its answer, as sent (B/answer) and
// gzipped (gzip-B/answer), and the process's CPU time for it
// (cpu-µs/op: on a busy machine, steadier than ns/op). Each
// iteration plays the ply, then takes it back through the games layer
// (not timed), so every iteration answers the same ply.
//
//	go test ./loadtest -run '^$' -bench PlyAt -benchtime 2000x -count 3
func BenchmarkPlyAt(b *testing.B) {
	for _, v := range []struct {
		k      kind
		fields string
	}{{htmlKind, ""}, {apiKind, ""}, {apiKind, "compact"}} {
		name := v.k.String()
		if v.fields != "" {
			name += "-" + v.fields
		}
		for _, at := range []int{10, 300} {
			b.Run(name+"/ply"+strconv.Itoa(at), func(b *testing.B) {
				benchmarkPlyAt(b, v.k, v.fields, at)
			})
		}
	}
}

func benchmarkPlyAt(b *testing.B, k kind, fields string, at int) {
	srv := inProcess(openStore(b, "memory"))
	var g *rules.Game
	for seed := uint64(1); ; seed++ {
		var n int
		if g, n = randomGame(rand.New(rand.NewPCG(seed, 0)), at); n == at && !g.Outcome().Over() {
			break
		}
	}
	a := g.Legal()[0]
	mirror, err := rules.Restore(g.Snapshot())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	cred, _, err := srv.games.Players.NewPlayer(ctx, players.Cookie)
	if err != nil {
		b.Fatal(err)
	}
	id, err := srv.games.Games.Create(ctx, cred, g)
	if err != nil {
		b.Fatal(err)
	}
	ss, err := newSessions(srv, k, 1, 0, 1)
	if err != nil {
		b.Fatal(err)
	}
	s := ss[0]
	s.id, s.game, s.fields = id, mirror, fields
	if k == htmlKind {
		s.cookie = "banchess_player=" + string(cred)
	} else {
		s.token = string(cred)
	}
	var size, zsize int
	var cpu time.Duration
	b.ResetTimer()
	for range b.N {
		cpu0 := cpuTime()
		if k == htmlKind {
			err = s.htmlPly(a)
		} else {
			err = s.apiPly(a)
		}
		if err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - cpu0
		b.StopTimer()
		size = s.buf.Len()
		zsize = gzipLen(s.buf.Bytes())
		if _, err := srv.games.Games.Undo(ctx, id, cred, nil); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(size), "B/answer")
	b.ReportMetric(float64(zsize), "gzip-B/answer")
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
}

// gzipLen is the size of p gzipped at the default level.
func gzipLen(p []byte) int {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	_, _ = w.Write(p)
	_ = w.Close()
	return buf.Len()
}
