package rating

import (
	"fmt"
	"time"
)

// Speed is the class of time control a rating is kept for.
type Speed string

// The speeds, fastest first.
const (
	Bullet    Speed = "bullet"
	Blitz     Speed = "blitz"
	Rapid     Speed = "rapid"
	Classical Speed = "classical"
	// Correspondence is days a move (or unlimited), however many.
	Correspondence Speed = "correspondence"
)

// Speeds lists every speed, fastest first.
func Speeds() []Speed { return []Speed{Bullet, Blitz, Rapid, Classical, Correspondence} }

// SpeedOf classes a clock of initial time and increment by its estimated
// duration for one side, initial + 40 × increment (as lichess does):
// bullet under 3 minutes, blitz under 8, rapid under 25, else classical.
func SpeedOf(initial, increment time.Duration) Speed {
	est := initial + 40*increment
	switch {
	case est < 3*time.Minute:
		return Bullet
	case est < 8*time.Minute:
		return Blitz
	case est < 25*time.Minute:
		return Rapid
	}
	return Classical
}

// ParseSpeed reads a speed's name.
func ParseSpeed(s string) (Speed, error) {
	for _, sp := range Speeds() {
		if string(sp) == s {
			return sp, nil
		}
	}
	return "", fmt.Errorf("unknown speed %q: choose bullet, blitz, rapid, classical or correspondence", s)
}
