package match

import (
	"fmt"
	"math"
)

// SPRT is a sequential probability ratio test between two hypotheses about
// A's strength over B, as fishtest runs them: H0, that A is Elo0 stronger,
// against H1, that it is Elo1 stronger (logistic Elo; Elo0 < Elo1). A match
// with an SPRT stops as soon as the evidence accepts either one at the
// error rates Alpha (accepting H1 when H0 holds) and Beta (the reverse).
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
	// MinGames is how many games it sees before it may decide; 0 is
	// DefaultMinGames.
	MinGames int
}

// Verdict is where an SPRT stands.
type Verdict int

const (
	// Undecided: play on.
	Undecided Verdict = iota
	// AcceptH0: A is not Elo1 stronger (at most Elo0).
	AcceptH0
	// AcceptH1: A is Elo1 stronger or more.
	AcceptH1
)

func (v Verdict) String() string {
	switch v {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "undecided"
}

// Bounds returns the log-likelihood ratio's bounds: below lower H0 is
// accepted, above upper H1.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// LLR returns the log-likelihood ratio of H1 to H0 after sc, by the normal
// approximation of the results weighed by their observed variance, as
// fishtest's GSPRT: LLR = n (s1 − s0)(2 s̄ − s0 − s1) / (2 σ²), where s0
// and s1 are the expected scores a game at Elo0 and Elo1, s̄ the mean
// score a game and σ² the variance of a sample's mean score a game.
// Once sc counts pairs of games (the match plays each opening twice,
// colours swapped), a sample is a pair, its score one of 0, ¼, ½, ¾, 1
// a game — fishtest's pentanomial model: the two games of an opening are
// not independent, and their variance is the pairs' — else a game, its
// score a win, a draw or a loss (the trinomial model). While every sample
// has ended alike the variance is 0 and says nothing: the ratio is then 0
// (a sweep plays on to the match's last game).
func (s SPRT) LLR(sc Score) float64 {
	scores := []float64{1, 0.5, 0}
	counts := []int{sc.Wins, sc.Draws, sc.Losses}
	if sc.pairs() > 0 {
		scores = []float64{0, 0.25, 0.5, 0.75, 1}
		counts = sc.Pairs[:]
	}
	n, sum := 0.0, 0.0
	for i, c := range counts {
		n += float64(c)
		sum += float64(c) * scores[i]
	}
	if n == 0 {
		return 0
	}
	mean, variance := sum/n, 0.0
	for i, c := range counts {
		variance += float64(c) / n * (scores[i] - mean) * (scores[i] - mean)
	}
	if variance <= 0 {
		return 0
	}
	s0, s1 := expected(s.Elo0), expected(s.Elo1)
	return n * (s1 - s0) * (2*mean - s0 - s1) / (2 * variance)
}

// DefaultMinGames is how many games an SPRT sees before it may decide. The
// ratio's normal approximation is overconfident on a few games with few
// draws, as Ban Chess's are: simulated at [0, 100] with 5% draws and equal
// players, deciding from the first pair accepted H1 in 10.8% of matches
// (α was 5%), from the 40th game in 4.5% (TestSPRTErrorRates).
const DefaultMinGames = 40

// Decide returns the verdict after sc: Undecided before MinGames.
func (s SPRT) Decide(sc Score) Verdict {
	least := s.MinGames
	if least == 0 {
		least = DefaultMinGames
	}
	if sc.Games() < least {
		return Undecided
	}
	llr := s.LLR(sc)
	lower, upper := s.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Undecided
}

// Status writes "LLR 1.23 (−2.94, 2.94) [0, 10]".
func (s SPRT) Status(sc Score) string {
	lower, upper := s.Bounds()
	return fmt.Sprintf("LLR %.2f (%.2f, %.2f) [%g, %g]", s.LLR(sc), lower, upper, s.Elo0, s.Elo1)
}

// Valid reports whether s can be run: Elo0 below Elo1, error rates in (0, ½).
func (s SPRT) Valid() error {
	if !(s.Elo0 < s.Elo1) || !(s.Alpha > 0 && s.Alpha < 0.5) || !(s.Beta > 0 && s.Beta < 0.5) {
		return fmt.Errorf("SPRT [%g, %g] α %g β %g: give elo0 < elo1 and error rates between 0 and 0.5", s.Elo0, s.Elo1, s.Alpha, s.Beta)
	}
	return nil
}

// expected is the score a game of the side elo stronger (logistic).
func expected(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }
