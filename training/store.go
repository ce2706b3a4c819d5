package training

import (
	"context"
	"time"

	"github.com/banchess/banchess/rating"
)

// Store keeps what training remembers of players and puzzles: each
// player's lesson steps done and puzzle rating, each puzzle's rating, and
// each player's last attempt at each puzzle. A player is a key the front
// ends give (see Service): the same key, the same progress. Package store
// implements it in memory, SQLite and PostgreSQL.
type Store interface {
	// Learner returns what is kept of player: a Learner with only its
	// Player set when nothing is.
	Learner(ctx context.Context, player string) (Learner, error)
	// CompleteStep records that player has done step (from 0) of lesson;
	// doing it again changes nothing.
	CompleteStep(ctx context.Context, player, lesson string, step int, at time.Time) error
	// PuzzleStats returns what is kept of puzzle id; ok is false when it
	// has never been rated.
	PuzzleStats(ctx context.Context, id string) (stats PuzzleStats, ok bool, err error)
	// Attempted lists the puzzles player has attempted.
	Attempted(ctx context.Context, player string) ([]string, error)
	// LastAttempt returns player's last finished attempt at puzzle.
	LastAttempt(ctx context.Context, player, puzzle string) (a Attempt, ok bool, err error)
	// RecordAttempt records a finished attempt (a.Player, a.Puzzle, a.At,
	// a.Solved, a.FailedAt, a.Actions, a.Reason, a.Refutation) as the
	// player's last at the puzzle, atomically with the ratings it
	// changes. The player's first attempt at a puzzle is rated: rate gets
	// the player as kept and the puzzle as kept (start when it was never
	// rated) and returns their new ratings, which are kept, with the counts
	// of attempts and solutions. A later
	// attempt is kept unrated, the ratings as they are. It returns the
	// attempt as kept: Rated, and the ratings before and after.
	RecordAttempt(ctx context.Context, a Attempt, start PuzzleStats, rate RateFunc) (Attempt, error)
	// FirstAttempts lists player's first finished attempt at each
	// puzzle they were rated on: solved or not, and the rating it
	// changed.
	FirstAttempts(ctx context.Context, player string) ([]FirstAttempt, error)
	// RunStore keeps the runs of Puzzle Streak and Puzzle Storm and the
	// best scores.
	RunStore
}

// RateFunc works out the new ratings of a player and a puzzle after one
// rated attempt.
type RateFunc func(player Learner, puzzle PuzzleStats) (playerAfter, puzzleAfter rating.Rating, err error)

// Learner is what training keeps of one player.
type Learner struct {
	Player string
	// Rating is the puzzle rating (rating.New() before the first rated
	// attempt); RatedAt when it last changed (zero: never).
	Rating  rating.Rating
	RatedAt time.Time
	// Puzzles counts rated attempts, Solved those solved.
	Puzzles, Solved int
	// Steps are the lesson steps done, by lesson id, each list in order.
	Steps map[string][]int
}

// Done reports whether the learner has done step of lesson.
func (l Learner) Done(lesson string, step int) bool {
	for _, s := range l.Steps[lesson] {
		if s == step {
			return true
		}
	}
	return false
}

// PuzzleStats is what training keeps of one puzzle: its rating and how
// often it was attempted (rated attempts only) and solved.
type PuzzleStats struct {
	ID            string
	Rating        rating.Rating
	Plays, Solved int
}

// Attempt is one finished attempt at a puzzle: solved, or failed at an
// action.
type Attempt struct {
	Player, Puzzle string
	At             time.Time
	Solved         bool
	// FailedAt is the index of the wrong action among Actions; -1 when
	// solved.
	FailedAt int
	// Actions are the solver's actions, in BCN.
	Actions []string
	// Reason says why the wrong action fails ("" when solved): a message
	// written as JSON (see Why), or English text kept before reasons were
	// messages.
	Reason string
	// Refutation is how the engine answered the wrong action, in BCN:
	// its plies after it up to and including the opponent's first (after
	// a wrong move the solver's best ban comes first), or to the end of
	// the game. Empty when solved or when the engine gave no line.
	Refutation []string
	// Rated says the attempt changed the ratings: the player's first at
	// this puzzle. Before and After are the player's rating, PuzzleBefore
	// and PuzzleAfter the puzzle's (equal when not rated).
	Rated                     bool
	Before, After             rating.Rating
	PuzzleBefore, PuzzleAfter rating.Rating
}

// FirstAttempt is a player's first finished attempt at a puzzle, the one
// that rated them: solved or not, and what it changed their rating by.
type FirstAttempt struct {
	Puzzle string
	Solved bool
	Change float64
}
