package games

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/rules"
)

// TimeControl is a clock's setting: each side's initial time and the
// increment added when it finishes a move; or, at a correspondence game,
// the days each side has for each of its turns (see Days).
type TimeControl struct {
	Initial   time.Duration `json:"initial"`
	Increment time.Duration `json:"increment"`
	// Days, at a correspondence game, is each side's time for each of its
	// turns, in days: Initial is as long, Increment 0, and a side's time
	// is reset to Initial once its turn is over (Clock.refill).
	// UnlimitedDays is a correspondence game without a limit. 0 for a
	// live clock.
	Days int `json:"days,omitempty"`
}

// The bounds of a time control read from a client: whole minutes of
// initial time from MinInitialMinutes to MaxInitialMinutes, whole seconds
// of increment up to MaxIncrementSeconds.
const (
	MinInitialMinutes   = 1
	MaxInitialMinutes   = 180
	MaxIncrementSeconds = 180
)

// ParseTimeControl reads "minutes+seconds", such as "5+3": whole numbers
// only, each checked against its bounds before it is turned into a
// duration (so no input overflows or rounds to a clock of 0). "" is no
// clock (the zero TimeControl, false).
func ParseTimeControl(s string) (TimeControl, bool, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "none" || s == "-" {
		return TimeControl{}, false, nil
	}
	if tc, ok := parseDays(s); ok {
		return tc, true, nil
	}
	min, inc, ok := strings.Cut(s, "+")
	m, okM := smallUint(min)
	i, okI := smallUint(inc)
	if !ok || !okM || !okI || m < MinInitialMinutes || m > MaxInitialMinutes || i > MaxIncrementSeconds {
		return TimeControl{}, false, (&errs.Error{Code: errs.Invalid, Msg: fmt.Sprintf("%q is not a clock: give whole minutes and whole seconds of increment, such as 5+3 (from %d+0 to %d+%d), or days a move: %s.",
			rules.Clip(s), MinInitialMinutes, MaxInitialMinutes, MaxIncrementSeconds, strings.Join(DaysChoices(), ", "))}).WithDetail(errs.BadClock)
	}
	return TimeControl{Initial: time.Duration(m) * time.Minute, Increment: time.Duration(i) * time.Second}, true, nil
}

// smallUint reads a whole number of one to three decimal digits (no sign,
// no space): every bound of a time control is below 1,000.
func smallUint(s string) (int, bool) {
	if len(s) == 0 || len(s) > 3 {
		return 0, false
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// String writes the time control as "minutes+seconds", or as
// correspondence's days ("3d", "unlimited"): what ParseTimeControl reads.
func (tc TimeControl) String() string {
	if tc.Correspondence() {
		return daysString(tc.Days)
	}
	return strconv.FormatFloat(tc.Initial.Minutes(), 'f', -1, 64) + "+" + strconv.Itoa(int(tc.Increment/time.Second))
}

// PGN writes the time control as PGN's TimeControl tag does: "300+3";
// "-" for correspondence (as lichess writes it).
func (tc TimeControl) PGN() string {
	if tc.Correspondence() {
		return "-"
	}
	return strconv.Itoa(int(tc.Initial/time.Second)) + "+" + strconv.Itoa(int(tc.Increment/time.Second))
}

// FirstActionWait is how long a side of a game between two players with a
// live clock may take over its first action: past it, the server aborts
// the game (WithFirstActionWait sets another; correspondence gives a
// turn's days).
const FirstActionWait = 30 * time.Second

// Clock is a game's clock, kept by the server. A side's time runs during
// all of its plies, bans included; the increment is added when it
// finishes a move. In a game between two players it starts once both
// players have come to the game (the free seat taken; in a rematch, whose
// seats are held from the start, each has opened it: Awaiting) and each
// side has made its first action (Black's first ban and White's first
// move in Ban Chess); until then each side has FirstActionWait for its
// first action, from when its turn came (FirstBy). Against the computer
// it runs from the start. At a correspondence game (TimeControl.Days) a
// side's time is reset to a turn's days once its turn is over (the
// opponent to act: in Ban Chess after its move and the ban that follows),
// a first action may take as long, and an unlimited game's clock never
// runs out.
type Clock struct {
	Control TimeControl `json:"control"`
	// Awaiting are the seats whose players have not yet come to the game:
	// the clock waits for the first actions once none is.
	Awaiting Seats `json:"awaiting,omitzero"`
	// FirstBy is when the side to act's first action is due, while the
	// clock waits for the first actions: past it, the game is aborted.
	// Zero otherwise.
	FirstBy time.Time `json:"firstBy,omitzero"`
	// White and Black are the time each side had left when Since was.
	White time.Duration `json:"white"`
	Black time.Duration `json:"black"`
	// Running is the side whose time runs (no Color: stopped).
	Running rules.Color `json:"running,omitempty"`
	Since   time.Time   `json:"since,omitzero"`
	// After holds, by the number of plies played since the game's start,
	// the time its actor had left after each ply (for PGN's %clk).
	After map[int]time.Duration `json:"after,omitempty"`
	// Berserk are the sides that halved their time before their first
	// action, in a tournament's game: they get no increment.
	Berserk Seats `json:"berserk,omitzero"`
}

// mark records that side had left what it has now after the first n plies,
// and forgets what was recorded after later plies (taken back).
func (c *Clock) mark(n int, side rules.Color, now time.Time) {
	for k := range c.After {
		if k > n {
			delete(c.After, k)
		}
	}
	if side == 0 {
		return
	}
	if c.After == nil {
		c.After = map[int]time.Duration{}
	}
	c.After[n] = c.Left(side, now)
}

// ClkComment is the PGN clock comment after the first n plies ("[%clk
// 0:04:59]"), or "" when none was recorded.
func (c *Clock) ClkComment(n int) string {
	d, ok := c.After[n]
	if !ok {
		return ""
	}
	s := int64(d.Round(time.Second) / time.Second)
	return fmt.Sprintf("[%%clk %d:%02d:%02d]", s/3600, s/60%60, s%60)
}

// NewClock returns a stopped clock set to tc.
func NewClock(tc TimeControl) *Clock {
	return &Clock{Control: tc, White: tc.Initial, Black: tc.Initial}
}

// awaits reports whether the clock waits for the player holding seats to
// come to the game.
func (c *Clock) awaits(seats Seats) bool {
	return c != nil && (c.Awaiting.White && seats.White || c.Awaiting.Black && seats.Black)
}

// arrive notes that the player holding seats has come to the game; once
// no one else is awaited, the update's Clock.pace waits for the first
// actions.
func (c *Clock) arrive(seats Seats) {
	c.Awaiting.White = c.Awaiting.White && !seats.White
	c.Awaiting.Black = c.Awaiting.Black && !seats.Black
}

// Left returns the time side has left at now (never below zero).
func (c *Clock) Left(side rules.Color, now time.Time) time.Duration {
	left := c.White
	if side == rules.Black {
		left = c.Black
	}
	if c.Running == side && side != 0 {
		left -= now.Sub(c.Since)
	}
	return max(left, 0)
}

// Expired reports whether the running side's time is out at now.
func (c *Clock) Expired(now time.Time) bool {
	return c != nil && c.Running != 0 && c.Control.limited() && c.Left(c.Running, now) <= 0
}

// Idle reports whether, at now, the first action the clock waits for is
// overdue.
func (c *Clock) Idle(now time.Time) bool {
	left, ok := c.FirstActionLeft(now)
	return ok && left <= 0
}

// due is when the clock would end its game, as it stands: the running
// side's flag falls (when Since was, plus what that side had left then),
// or the side to act's first action is overdue (FirstBy); zero when
// neither can happen (the clock stopped, not waiting for a first action).
func (c *Clock) due() time.Time {
	switch {
	case c == nil || !c.Control.limited():
		return time.Time{}
	case c.Running == rules.White:
		return c.Since.Add(max(c.White, 0))
	case c.Running == rules.Black:
		return c.Since.Add(max(c.Black, 0))
	}
	return c.FirstBy
}

// FirstActionLeft is how long the side to act has left for its first
// action at now; ok is false when the clock does not wait for one.
func (c *Clock) FirstActionLeft(now time.Time) (left time.Duration, ok bool) {
	if c == nil || c.Running != 0 || c.FirstBy.IsZero() {
		return 0, false
	}
	return max(0, c.FirstBy.Sub(now)), true
}

// charge stops the running side's time at now, keeping what it has left.
func (c *Clock) charge(now time.Time) {
	switch c.Running {
	case rules.White:
		c.White = c.Left(rules.White, now)
	case rules.Black:
		c.Black = c.Left(rules.Black, now)
	}
	c.Since = now
}

// run makes side's time run from now (no Color stops the clock).
func (c *Clock) run(side rules.Color, now time.Time) {
	c.charge(now)
	c.Running = side
	if side == 0 {
		c.Since = time.Time{}
	}
}

// refill gives the side whose time does not run the whole of a
// correspondence game's Initial: its turn is over (see TimeControl.Days).
func (c *Clock) refill() {
	if c.Control.Days <= 0 {
		return
	}
	switch c.Running {
	case rules.White:
		c.Black = c.Control.Initial
	case rules.Black:
		c.White = c.Control.Initial
	}
}

// addIncrement gives side its increment, after a move.
func (c *Clock) addIncrement(side rules.Color) {
	if c.Berserk.Has(side) {
		return
	}
	switch side {
	case rules.White:
		c.White += c.Control.Increment
	case rules.Black:
		c.Black += c.Control.Increment
	}
}

// ClockView is a clock as it stands at one moment, for a page or the API.
type ClockView struct {
	White, Black time.Duration
	Running      rules.Color
	Control      TimeControl
	// First is the time left for the side to act's first action, when
	// the clock waits for one (Waiting).
	First   time.Duration
	Waiting bool
}

// At returns the clock as it stands at now.
func (c *Clock) At(now time.Time) ClockView {
	v := ClockView{White: c.Left(rules.White, now), Black: c.Left(rules.Black, now), Running: c.Running, Control: c.Control}
	v.First, v.Waiting = c.FirstActionLeft(now)
	return v
}
