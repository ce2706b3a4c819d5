package engine

import (
	"testing"
	"time"
)

func TestClockBudget(t *testing.T) {
	const ms = time.Millisecond
	tests := []struct {
		name         string
		c            Clock
		most, target time.Duration
	}{
		{"1+0 at the start", Clock{Left: 60 * time.Second}, 2400 * ms, 1200 * ms},
		{"1+0 with 30 ms a ply of overhead", Clock{Left: 60 * time.Second, Overhead: 30 * ms}, 2340 * ms, 1170 * ms},
		{"3+2", Clock{Left: 180 * time.Second, Increment: 2 * time.Second}, 9200 * ms, 4600 * ms},
		{"short of time", Clock{Left: 600 * ms}, 24 * ms, 12 * ms},
		{"within the overhead kept aside", Clock{Left: 600 * ms, Overhead: 30 * ms}, ms, ms},
		{"within it, with an increment", Clock{Left: 600 * ms, Increment: time.Second, Overhead: 30 * ms}, 190 * ms, 190 * ms},
		{"increment above the time left", Clock{Left: time.Second, Increment: 5 * time.Second}, 333333333, 333333333},
		{"one move to go", Clock{Left: 10 * time.Second, MovesToGo: 1}, 3333333333, 3333333333},
		{"ten moves to go", Clock{Left: 10 * time.Second, MovesToGo: 10}, 1 * time.Second, 500 * ms},
		{"nothing left", Clock{Left: 10 * ms, Overhead: 30 * ms}, ms, ms},
	}
	for _, tt := range tests {
		most, target := tt.c.Budget()
		if most != tt.most || target != tt.target {
			t.Errorf("%s: budget %v, aim %v; want %v, %v", tt.name, most, target, tt.most, tt.target)
		}
	}
}

// TestLevelOnClock: level 8 thinks by the clock; lower levels keep their
// bounds and are capped by it.
func TestLevelOnClock(t *testing.T) {
	c := Clock{Left: 60 * time.Second}
	lim, err := LevelOnClock(8, c)
	if err != nil || lim.Time != 2400*time.Millisecond || lim.Target != 1200*time.Millisecond {
		t.Errorf("level 8 on 1+0: %+v, %v", lim, err)
	}
	lim, err = LevelOnClock(6, c)
	if err != nil || lim.Nodes != 100_000 || lim.Time != 2400*time.Millisecond || lim.Target != 0 {
		t.Errorf("level 6 on 1+0: %+v, %v", lim, err)
	}
	if _, err := LevelOnClock(9, c); err == nil {
		t.Error("level 9: no error")
	}
}

func TestGrowth(t *testing.T) {
	for _, tt := range []struct {
		now, before time.Duration
		want        int64
	}{
		{100, 20, 5},
		{100, 80, 2},
		{100, 1, 10},
		{100, 0, 10},
	} {
		if got := growth(tt.now, tt.before); got != tt.want {
			t.Errorf("growth(%d, %d) = %d, want %d", tt.now, tt.before, got, tt.want)
		}
	}
}
