package views

import (
	"testing"
	"time"
)

func TestDaysText(t *testing.T) {
	for _, c := range []struct {
		left time.Duration
		want string
	}{
		{14 * 24 * time.Hour, "14 days"},
		{3*24*time.Hour - time.Second, "3 days"},
		{3*24*time.Hour - time.Hour, "2 days 23 h"},
		{2 * 24 * time.Hour, "2 days"},
		{24*time.Hour + 5*time.Hour + 30*time.Minute, "1 day 5 h"},
		{24 * time.Hour, "1 day"},
		{5*time.Hour + 12*time.Minute, "5 h 12 min"},
		{time.Hour, "1 h 0 min"},
		{12 * time.Minute, "12 min"},
		{time.Second, "1 min"},
		{0, "0 min"},
		{-time.Second, "0 min"},
	} {
		if got := DaysText(c.left.Milliseconds()); got != c.want {
			t.Errorf("DaysText(%v) = %q, want %q", c.left, got, c.want)
		}
	}
	for tc, want := range map[string]string{"5+3": "5+3", "1d": "1 day a move", "14d": "14 days a move", "unlimited": "Unlimited"} {
		if got := ControlLabel(nil, tc); got != want {
			t.Errorf("ControlLabel(%q) = %q, want %q", tc, got, want)
		}
	}
}
