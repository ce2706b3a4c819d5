package views

import (
	"strconv"
	"strings"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
)

// DayControls are the correspondence controls a form offers beside the
// clocks: days a move, then unlimited, as games.ParseTimeControl reads
// them ("3d", "unlimited").
func DayControls() []string { return games.DaysChoices() }

// ControlLabel names a time control's value for people: "5+3" as it is,
// "3d" as "3 days a move", "unlimited" as "Unlimited".
func ControlLabel(l *i18n.Language, tc string) string {
	if tc == "unlimited" {
		return l.T("control.unlimited")
	}
	if n, ok := strings.CutSuffix(tc, "d"); ok {
		if days, err := strconv.Atoi(n); err == nil {
			return l.N("control.days", days)
		}
	}
	return tc
}

// DaysText writes a correspondence clock's time left, coarsely, as it
// need not tick, in whole minutes rounded up (as ClockText rounds up its
// seconds): "3 days", "1 day 5 h", "5 h 12 min", "12 min", "0 min".
func DaysText(ms int64) string { return DaysTextIn(nil, ms) }

// DaysTextIn is DaysText in language l (nil: the source, English), days
// counted by the language's plural forms.
func DaysTextIn(l *i18n.Language, ms int64) string {
	min := (max(ms, 0) + 59_999) / 60_000
	h, d := min/60, min/60/24
	switch {
	case d >= 3, d >= 1 && h%24 == 0:
		return l.N("date.left.days", int(d))
	case d >= 1:
		return l.N("date.left.daysHours", int(d), "Hours", l.Number(int(h%24)))
	case h >= 1:
		return l.T("date.left.hoursMinutes", "Hours", l.Number(int(h)), "Minutes", l.Number(int(min%60)))
	}
	return l.T("date.left.minutes", "Minutes", l.Number(int(min)))
}

// NewDaysClockFace is a correspondence game's clock showing ms left: in
// days and hours (DaysText), not ticking.
func NewDaysClockFace(ms int64, running bool) *ClockFace {
	return &ClockFace{MS: ms, Text: DaysText(ms), Running: running, FirstMS: -1, Days: true}
}
