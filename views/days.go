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
func DaysText(ms int64) string {
	min := (max(ms, 0) + 59_999) / 60_000
	h, d := min/60, min/60/24
	switch {
	case d >= 3:
		return plural(strconv.FormatInt(d, 10), "day")
	case d >= 1 && h%24 == 0:
		return plural(strconv.FormatInt(d, 10), "day")
	case d >= 1:
		return plural(strconv.FormatInt(d, 10), "day") + " " + strconv.FormatInt(h%24, 10) + " h"
	case h >= 1:
		return strconv.FormatInt(h, 10) + " h " + strconv.FormatInt(min%60, 10) + " min"
	}
	return strconv.FormatInt(min, 10) + " min"
}

func plural(n, word string) string {
	if n == "1" {
		return n + " " + word
	}
	return n + " " + word + "s"
}

// NewDaysClockFace is a correspondence game's clock showing ms left: in
// days and hours (DaysText), not ticking.
func NewDaysClockFace(ms int64, running bool) *ClockFace {
	return &ClockFace{MS: ms, Text: DaysText(ms), Running: running, FirstMS: -1, Days: true}
}
