package main

import (
	"bufio"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// arrival is a game stream's event: the revision it carries and when it
// came.
type arrival struct {
	rev int64
	at  time.Time
}

// watch opens the API stream of game id on s and sends each event's
// revision as it arrives.
func watch(t testing.TB, s *server, id string) <-chan arrival {
	t.Helper()
	res, err := http.Get(s.url + "/api/games/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	if res.StatusCode != http.StatusOK {
		t.Fatalf("stream: %s", res.Status)
	}
	out := make(chan arrival, 1024)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 4<<20)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
				if rev, err := strconv.ParseInt(v, 10, 64); err == nil {
					out <- arrival{rev, time.Now()}
				}
			}
		}
	}()
	return out
}

// liveAcrossInstances plays plies on one instance while the other's stream
// watches, and returns how long each ply took from its acknowledgement to
// its arrival on the watcher.
func liveAcrossInstances(t testing.TB, pair [2]*server, plies int) []time.Duration {
	g, err := pair[0].post("/api/games", "{}", "")
	if err != nil {
		t.Fatal(err)
	}
	events := watch(t, pair[1], g.ID)
	next := func(rev int64) time.Time {
		t.Helper()
		timeout := time.After(5 * time.Second)
		for {
			select {
			case a, ok := <-events:
				if !ok {
					t.Fatal("the stream ended")
				}
				if a.rev == rev {
					return a.at
				}
				if a.rev > rev {
					t.Fatalf("revision %d came before %d", a.rev, rev)
				}
			case <-timeout:
				t.Fatalf("revision %d made on one instance never reached the other's stream", rev)
			}
		}
	}
	next(g.Revision)
	var lat []time.Duration
	for i := 0; i < plies; i++ {
		cur, err := pair[0].get("/api/games/" + g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if cur.Status != "ongoing" {
			break
		}
		action := cur.Legal[i*7%len(cur.Legal)]
		played, err := pair[0].post("/api/games/"+g.ID+"/actions", fmt.Sprintf(`{"action":%q}`, action), g.Token)
		if err != nil {
			t.Fatal(err)
		}
		acked := time.Now()
		lat = append(lat, next(played.Revision).Sub(acked))
	}
	return lat
}

// TestTwoInstancesLive: a watcher's stream on one instance receives every
// ply made on the other.
func TestTwoInstancesLive(t *testing.T) {
	_, pair := startPair(t)
	lat := liveAcrossInstances(t, pair, 40)
	if len(lat) < 10 {
		t.Fatalf("only %d plies played", len(lat))
	}
	slices.Sort(lat)
	t.Logf("%d plies: from the acknowledgement on one instance to the other's stream, p50 %v, max %v", len(lat), lat[len(lat)/2], lat[len(lat)-1])
}

// BenchmarkTwoInstancesLive measures how long a ply made on one instance
// takes to reach a stream on the other: p50 and p99 over b.N plies (one
// ply at a time, each waited for).
func BenchmarkTwoInstancesLive(b *testing.B) {
	_, pair := startPair(b)
	var lat []time.Duration
	for len(lat) < b.N {
		lat = append(lat, liveAcrossInstances(b, pair, b.N-len(lat))...)
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
