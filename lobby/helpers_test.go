package lobby_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
)

var epoch = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// manualClock is a time that moves when told.
type manualClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// refused checks err is an *errs.Error of code (and detail, when given).
func refused(t *testing.T, what string, err error, code errs.Code, detail string) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) {
		t.Errorf("%s: %v (%T), want a *errs.Error of code %s", what, err, err, code)
		return
	}
	if e.Code != code || detail != "" && string(e.Detail) != detail {
		t.Errorf("%s: code %s, detail %q (%s); want %s, %q", what, e.Code, e.Detail, e.Msg, code, detail)
	}
}

func second[A, B any](_ A, b B) B        { return b }
func third[A, B, C any](_ A, _ B, c C) C { return c }
