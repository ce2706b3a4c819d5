// Package rating rates players with Glicko-2 (Mark Glickman, "Example of
// the Glicko-2 system", 2013) and sorts games into the speeds ratings are
// kept for.
//
// As on lichess, every game is a rating period of its own: a player's
// rating changes after each rated game, against the opponent's rating
// before it. Between games a rating's deviation grows with the time the
// player did not play, so a rating left alone becomes uncertain again.
package rating

import (
	"errors"
	"math"
	"time"
)

// The Glicko-2 constants this package plays by: a new player's rating,
// deviation and volatility, the system constant τ, and the scale between
// the Glicko and Glicko-2 scales.
const (
	DefaultRating     = 1500
	DefaultDeviation  = 350
	DefaultVolatility = 0.06
	Tau               = 0.5
	scale             = 173.7178

	// MaxDeviation bounds the deviation inactivity can grow to: that of
	// a new player.
	MaxDeviation = DefaultDeviation
	// ProvisionalDeviation is the deviation above which a rating is
	// provisional, shown with a question mark.
	ProvisionalDeviation = 110
	// minDeviation keeps a very active player's rating able to move.
	minDeviation = 45
	// periodsPerDay is how many rating periods a day of inactivity counts
	// for when the deviation grows (lichess's figure).
	periodsPerDay = 0.21436
	// epsilon is the convergence tolerance of the volatility iteration.
	epsilon = 1e-6
)

// Rating is a player's Glicko-2 rating on the Glicko scale (1500 is the
// start): the rating, its deviation (RD) and its volatility σ.
type Rating struct {
	Rating     float64
	Deviation  float64
	Volatility float64
}

// New is the rating of a player who has not played.
func New() Rating {
	return Rating{Rating: DefaultRating, Deviation: DefaultDeviation, Volatility: DefaultVolatility}
}

// Provisional reports whether the rating is still too uncertain to be
// shown without a question mark.
func (r Rating) Provisional() bool { return r.Deviation > ProvisionalDeviation }

// Valid reports whether r holds finite, positive values a stored rating
// may have.
func (r Rating) Valid() bool {
	ok := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	return ok(r.Rating) && ok(r.Deviation) && ok(r.Volatility) && r.Deviation > 0 && r.Volatility > 0
}

// Score is a game's result for the player rated: 1 a win, 0.5 a draw,
// 0 a loss.
type Score float64

// The scores of a game.
const (
	Loss Score = 0
	Draw Score = 0.5
	Win  Score = 1
)

// Result is one game of a rating period: the opponent's rating before it
// and the player's score.
type Result struct {
	Opponent Rating
	Score    Score
}

// ErrNoConvergence is returned when the volatility iteration does not
// settle, which valid ratings never cause.
var ErrNoConvergence = errors.New("rating: the volatility did not converge")

// Idle returns r after a player has not played for idle: the deviation
// grows as after idle's share of rating periods with no games (Glickman's
// step 6 alone), up to MaxDeviation.
func (r Rating) Idle(idle time.Duration) Rating {
	if idle <= 0 {
		return r
	}
	periods := idle.Hours() / 24 * periodsPerDay
	phi := r.Deviation / scale
	phi = math.Sqrt(phi*phi + periods*r.Volatility*r.Volatility)
	r.Deviation = math.Min(phi*scale, MaxDeviation)
	return r
}

// Update returns r after one rating period in which the player had
// results (Glickman's steps 1–8). With no results only the deviation
// grows, by one period.
func (r Rating) Update(results []Result) (Rating, error) {
	// Step 2: to the Glicko-2 scale.
	mu := (r.Rating - DefaultRating) / scale
	phi := r.Deviation / scale
	sigma := r.Volatility
	if len(results) == 0 {
		r.Deviation = math.Min(math.Sqrt(phi*phi+sigma*sigma)*scale, MaxDeviation)
		return r, nil
	}

	// Steps 3 and 4: the estimated variance v and improvement Δ.
	var invV, sum float64
	for _, res := range results {
		muJ := (res.Opponent.Rating - DefaultRating) / scale
		phiJ := res.Opponent.Deviation / scale
		g := 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
		e := 1 / (1 + math.Exp(-g*(mu-muJ)))
		invV += g * g * e * (1 - e)
		sum += g * (float64(res.Score) - e)
	}
	v := 1 / invV
	delta := v * sum

	// Step 5: the new volatility, by the Illinois algorithm.
	sigma, err := volatility(delta, phi, v, sigma)
	if err != nil {
		return r, err
	}

	// Steps 6 and 7: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu += phi * phi * sum

	// Step 8: back to the Glicko scale.
	return Rating{
		Rating:     mu*scale + DefaultRating,
		Deviation:  math.Max(math.Min(phi*scale, MaxDeviation), minDeviation),
		Volatility: sigma,
	}, nil
}

// volatility is Glickman's step 5: σ' solving f(x) = 0 with the Illinois
// variant of regula falsi.
func volatility(delta, phi, v, sigma float64) (float64, error) {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(Tau*Tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*Tau) < 0 {
			k++
			if k > 1000 {
				return 0, ErrNoConvergence
			}
		}
		B = a - k*Tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon; i++ {
		if i > 1000 {
			return 0, ErrNoConvergence
		}
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2), nil
}

// Game rates one game between white and black, given White's score, as
// a rating period of its own for each: both new ratings, each computed
// against the other's rating before the game.
func Game(white, black Rating, whiteScore Score) (Rating, Rating, error) {
	w, err := white.Update([]Result{{Opponent: black, Score: whiteScore}})
	if err != nil {
		return white, black, err
	}
	b, err := black.Update([]Result{{Opponent: white, Score: 1 - whiteScore}})
	if err != nil {
		return white, black, err
	}
	return w, b, nil
}
