package views

import (
	"time"

	"github.com/banchess/banchess/i18n"
)

// AgoText says, coarsely and in l, how long before or after now t is:
// "just now", "5 minutes ago", "2 days ago", "in 3 hours", each counted
// by the language's plural forms. Past a month it is the date
// (DateText).
func AgoText(l *i18n.Language, t, now time.Time) string {
	d := now.Sub(t)
	future := d < 0
	if future {
		d = -d
	}
	minutes, hours, days := int(d/time.Minute), int(d/time.Hour), int(d/(24*time.Hour))
	switch {
	case days > 30:
		return DateText(l, t)
	case minutes < 1: // either way: clocks differ by a moment
		return l.T("ago.justNow")
	case hours < 1 && future:
		return l.N("ago.inMinutes", minutes)
	case hours < 1:
		return l.N("ago.minutes", minutes)
	case days < 1 && future:
		return l.N("ago.inHours", hours)
	case days < 1:
		return l.N("ago.hours", hours)
	case future:
		return l.N("ago.inDays", days)
	}
	return l.N("ago.days", days)
}
