package games

import (
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/rating"
)

// UnlimitedDays is TimeControl.Days of a correspondence game without a
// limit: no side ever runs out of time.
const UnlimitedDays = -1

// CorrespondenceDays are the days a move a correspondence game may give.
func CorrespondenceDays() []int { return []int{1, 2, 3, 5, 7, 10, 14} }

// DaysPerMove is the time control of a correspondence game of days a
// move (UnlimitedDays: without a limit).
func DaysPerMove(days int) TimeControl {
	if days <= 0 {
		return TimeControl{Days: UnlimitedDays}
	}
	return TimeControl{Initial: time.Duration(days) * 24 * time.Hour, Days: days}
}

// DaysChoices are the correspondence controls as ParseTimeControl reads
// them: "1d" … "14d", and "unlimited".
func DaysChoices() []string {
	var out []string
	for _, d := range CorrespondenceDays() {
		out = append(out, daysString(d))
	}
	return append(out, daysString(UnlimitedDays))
}

// daysString writes days a move as ParseTimeControl reads it.
func daysString(days int) string {
	if days <= 0 {
		return "unlimited"
	}
	return strconv.Itoa(days) + "d"
}

// parseDays reads "3d" (one of CorrespondenceDays) or "unlimited".
func parseDays(s string) (TimeControl, bool) {
	if strings.EqualFold(s, "unlimited") {
		return DaysPerMove(UnlimitedDays), true
	}
	n, ok := strings.CutSuffix(strings.ToLower(s), "d")
	if !ok {
		return TimeControl{}, false
	}
	for _, d := range CorrespondenceDays() {
		if strconv.Itoa(d) == n {
			return DaysPerMove(d), true
		}
	}
	return TimeControl{}, false
}

// Correspondence reports whether the control is correspondence's: days a
// move, or unlimited.
func (tc TimeControl) Correspondence() bool { return tc.Days != 0 }

// Unlimited reports whether the control never lets a side run out of time.
func (tc TimeControl) Unlimited() bool { return tc.Days == UnlimitedDays }

// limited reports whether a side may run out of time.
func (tc TimeControl) limited() bool { return !tc.Unlimited() }

// Speed is the class of the control a rating is kept for:
// correspondence's, or a live clock's by its estimated duration.
func (tc TimeControl) Speed() rating.Speed {
	if tc.Correspondence() {
		return rating.Correspondence
	}
	return rating.SpeedOf(tc.Initial, tc.Increment)
}

// firstWait is how long a side of a game between two players has for its
// first action on this control: live's (live), the days of a turn at
// correspondence, and 0 (no limit) when unlimited.
func (tc TimeControl) firstWait(live time.Duration) time.Duration {
	switch {
	case tc.Unlimited():
		return 0
	case tc.Correspondence():
		return tc.Initial
	}
	return live
}
