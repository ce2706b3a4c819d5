package store

import (
	"testing"
	"time"
)

// TestCommitterGathers: a transaction takes the saves queued behind its
// first; only when the one before carried several (busy) does it wait for
// more, and then it takes those that arrive while it waits.
func TestCommitterGathers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		busy   bool
		queued int  // saves queued behind the first before it gathers
		late   bool // another save arrives while it gathers
		want   int
	}{
		{"lone save", false, 0, false, 1}, // were it to wait for more, with no timer, it would hang
		{"queued saves", false, 2, false, 3},
		{"busy: waits for a late save", true, 1, true, 3},
		{"busy, nothing comes", true, 0, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &committer{queue: make(chan save, maxBatch), wait: time.Second}
			for range tc.queued {
				c.queue <- save{}
			}
			started := make(chan struct{})
			if tc.late {
				go func() {
					<-started
					time.Sleep(10 * time.Millisecond)
					c.queue <- save{}
				}()
			}
			close(started)
			got := c.gather([]save{{}}, tc.busy)
			if len(got) != tc.want {
				t.Errorf("gathered %d saves, want %d", len(got), tc.want)
			}
		})
	}
}
