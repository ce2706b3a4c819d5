package views

import (
	"testing"
	"time"

	"github.com/banchess/banchess/i18n"
)

// TestAgoText: a relative time in each tense and size, counted by the
// language's plural forms; past a month, the date.
func TestAgoText(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	c := i18n.Builtin()
	for _, tc := range []struct {
		lang string
		d    time.Duration // how long before now
		want string
	}{
		{"en", 20 * time.Second, "just now"},
		{"en", time.Minute, "1 minute ago"},
		{"en", 5 * time.Minute, "5 minutes ago"},
		{"en", 3 * time.Hour, "3 hours ago"},
		{"en", 49 * time.Hour, "2 days ago"},
		{"en", -30 * time.Second, "just now"},
		{"en", -3 * 24 * time.Hour, "in 3 days"},
		{"en", 40 * 24 * time.Hour, "24 Oct 2026"},
		{"de", 5 * time.Minute, "vor 5 Minuten"},
		{"de", -time.Hour, "in 1 Stunde"},
		{"ru", 21 * time.Minute, "21 минуту назад"},
		{"ru", 3 * time.Hour, "3 часа назад"},
		{"ru", 5 * 24 * time.Hour, "5 дней назад"},
		{"ru", -2 * 24 * time.Hour, "через 2 дня"},
		{"he", 2 * time.Hour, "לפני שעתיים"},
		{"fr", 10 * time.Second, "à l'instant"},
		{"es", -11 * time.Minute, "en 11 minutos"},
	} {
		if got := AgoText(c.Named(tc.lang), now.Add(-tc.d), now); got != tc.want {
			t.Errorf("%s, %v ago: %q, want %q", tc.lang, tc.d, got, tc.want)
		}
	}
}
