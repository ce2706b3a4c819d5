package views

import (
	"testing"
	"time"

	"github.com/banchess/banchess/i18n"
)

// TestDateText: a date and time as each language writes it (CLDR's
// abbreviated months), in UTC.
func TestDateText(t *testing.T) {
	at := time.Date(2026, time.December, 3, 15, 4, 0, 0, time.FixedZone("CET", 3600))
	may := time.Date(2026, time.May, 21, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ lang, date, dateTime, may string }{
		{"en", "3 Dec 2026", "3 Dec 2026 14:04 UTC", "21 May 2026"},
		{"es", "3 dic 2026", "3 dic 2026, 14:04 UTC", "21 may 2026"},
		{"de", "3. Dez. 2026", "3. Dez. 2026, 14:04 UTC", "21. Mai 2026"},
		{"fr", "3 déc. 2026", "3 déc. 2026, 14:04 UTC", "21 mai 2026"},
		{"ru", "3 дек. 2026 г.", "3 дек. 2026 г., 14:04 UTC", "21 мая 2026 г."},
		{"he", "3 בדצמ׳ 2026", "3 בדצמ׳ 2026, 14:04 UTC", "21 במאי 2026"},
	} {
		l := i18n.Builtin().Named(tc.lang)
		if got := DateText(l, at); got != tc.date {
			t.Errorf("%s: DateText %q, want %q", tc.lang, got, tc.date)
		}
		if got := DateTimeText(l, at); got != tc.dateTime {
			t.Errorf("%s: DateTimeText %q, want %q", tc.lang, got, tc.dateTime)
		}
		if got := DateText(l, may); got != tc.may {
			t.Errorf("%s: DateText of May %q, want %q", tc.lang, got, tc.may)
		}
	}
}

// TestDaysTextIn: a correspondence clock's time left in each language,
// days by the language's plural forms.
func TestDaysTextIn(t *testing.T) {
	const min, hour, day = 60_000, 3_600_000, 86_400_000
	for _, tc := range []struct {
		lang string
		ms   int64
		want string
	}{
		{"en", 3 * day, "3 days"},
		{"en", day + 5*hour, "1 day 5 h"},
		{"en", 5*hour + 12*min, "5 h 12 min"},
		{"ru", 5 * day, "5 дней"},
		{"ru", 3 * day, "3 дня"},
		{"ru", day + 5*hour, "1 день 5 ч"},
		{"de", 4 * day, "4 Tage"},
		{"fr", 12 * min, "12 min"},
	} {
		if got := DaysTextIn(i18n.Builtin().Named(tc.lang), tc.ms); got != tc.want {
			t.Errorf("%s %d ms: %q, want %q", tc.lang, tc.ms, got, tc.want)
		}
	}
}
