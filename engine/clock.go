package engine

import "time"

// Clock is what the side to act has on its clock. In Ban Chess a side's
// time runs during its bans as well as its moves, so it budgets for both.
type Clock struct {
	Left      time.Duration // time left
	Increment time.Duration // added after each of its moves
	// MovesToGo is the number of moves to the next time control; 0 is the
	// rest of the game.
	MovesToGo int
	// Overhead is the time a ply loses outside the search (reading the
	// game, the network or a GUI); the budget keeps it aside.
	Overhead time.Duration
}

// clockPlies is how many plies of its own (bans and moves) a side keeps
// time for when no time control is near: each ply aims at 1/50 of its
// spare time, so the budget shrinks as the time does. The overhead of as
// many plies is kept aside besides (the spare time is what is left beyond
// it), so that a long game's last plies still have time to travel.
const clockPlies = 50

// Budget returns how long the side may think at most for this ply and the
// time it aims at (Limits.Time and Limits.Target): it aims at a share of
// the spare time plus half the increment (earned by a move, spent over a
// ban and a move), and stops at twice that, at most a third of the time
// left. A depth's search often takes several times the one before, so a
// ply often ends at its limit: the aim is about half of what it spends at
// most.
func (c Clock) Budget() (most, target time.Duration) {
	spare := max(c.Left-c.Overhead*clockPlies, 0)
	n := clockPlies
	if c.MovesToGo > 0 {
		n = min(n, 2*c.MovesToGo) // a ban and a move a move
	}
	target = spare/time.Duration(n) + c.Increment/2
	most = min(2*target, max(c.Left-c.Overhead, 0)/3)
	target = min(target, most)
	return max(most, time.Millisecond), max(target, time.Millisecond)
}

// LevelOnClock returns the limits of level n (1 to Levels) playing on clock
// c: level 8 thinks for the clock's budget; the levels below keep their
// depth and node bounds, and never take longer than the budget allows.
func LevelOnClock(n int, c Clock) (Limits, error) {
	lim, err := Level(n, DefaultPerPly)
	if err != nil {
		return lim, err
	}
	most, target := c.Budget()
	lim.Time = most
	if n == Levels {
		lim.Target = target
	}
	return lim, nil
}
