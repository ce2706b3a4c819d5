package engine

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/banchess/banchess/rules"
)

// TestPoolBounds checks that a pool of one worker and one queue place
// refuses a third search while two are under way, and that a cancelled
// request leaves at once.
func TestPoolBounds(t *testing.T) {
	p := NewPool(1, 1, 1)
	g := rules.New(rules.BanChess{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := p.Analyse(ctx, g, Limits{})
			done <- err
		}()
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(p.admit) < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if _, err := p.Analyse(context.Background(), g, Limits{Depth: 1}); !errors.Is(err, ErrBusy) {
		t.Errorf("third search: %v, want ErrBusy", err)
	}
	cancel()
	for range 2 {
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled search: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a cancelled search did not return")
		}
	}
	if res, err := p.Analyse(context.Background(), g, Limits{Depth: 2}); err != nil || res.Depth != 2 {
		t.Errorf("after the others: %+v, %v", res, err)
	}
}
