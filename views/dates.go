package views

import (
	"strconv"
	"time"

	"github.com/banchess/banchess/i18n"
)

// DateText writes t's day in UTC as language l writes dates, with the
// month's abbreviated name: "3 Dec 2026", "3. Dez. 2026", "3 déc. 2026".
func DateText(l *i18n.Language, t time.Time) string {
	t = t.UTC()
	return l.T("date.date", "Day", strconv.Itoa(t.Day()), "Month", monthText(l, t.Month()), "Year", strconv.Itoa(t.Year()))
}

// DateTimeText is DateText with the time of day in UTC, on the 24-hour
// clock every one of the site's languages reads: "3 Dec 2026 15:04 UTC".
func DateTimeText(l *i18n.Language, t time.Time) string {
	t = t.UTC()
	return l.T("date.dateTime", "Date", DateText(l, t), "Time", t.Format("15:04"))
}

// monthText is month m's abbreviated name in l, as a date writes it.
func monthText(l *i18n.Language, m time.Month) string {
	ids := [...]string{"date.month.jan", "date.month.feb", "date.month.mar", "date.month.apr", "date.month.may", "date.month.jun",
		"date.month.jul", "date.month.aug", "date.month.sep", "date.month.oct", "date.month.nov", "date.month.dec"}
	if m < time.January || m > time.December {
		return strconv.Itoa(int(m))
	}
	return l.T(ids[m-1])
}
