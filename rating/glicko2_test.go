package rating

import (
	"math"
	"testing"
	"time"
)

// TestGlickmanExample checks Update against the worked example of
// Glickman's "Example of the Glicko-2 system": a player rated 1500 (RD 200,
// σ 0.06) beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700
// (RD 300), and ends at μ' = −0.2069, φ' = 0.8722, σ' = 0.05999 on the
// Glicko-2 scale: 1464.06, RD 151.52 on the Glicko scale. The paper rounds
// its steps to four decimals, so the values are checked to its precision.
func TestGlickmanExample(t *testing.T) {
	player := Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}
	results := []Result{
		{Opponent: Rating{Rating: 1400, Deviation: 30, Volatility: 0.06}, Score: Win},
		{Opponent: Rating{Rating: 1550, Deviation: 100, Volatility: 0.06}, Score: Loss},
		{Opponent: Rating{Rating: 1700, Deviation: 300, Volatility: 0.06}, Score: Loss},
	}
	got, err := player.Update(results)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
		tolerance float64
	}{
		{"μ'", (got.Rating - DefaultRating) / scale, -0.2069, 0.00005},
		{"φ'", got.Deviation / scale, 0.8722, 0.00005},
		{"σ'", got.Volatility, 0.05999, 0.00001},
		{"rating", got.Rating, 1464.06, 0.01},
		{"deviation", got.Deviation, 151.52, 0.01},
	} {
		if math.Abs(c.got-c.want) > c.tolerance {
			t.Errorf("%s = %.5f, want %.5f (±%g)", c.name, c.got, c.want, c.tolerance)
		}
	}
}

func TestGame(t *testing.T) {
	cases := []struct {
		name               string
		score              Score
		whiteUp, blackUp   bool
		whiteSame, blackSm bool
	}{
		{name: "white wins", score: Win, whiteUp: true},
		{name: "black wins", score: Loss, blackUp: true},
		{name: "draw between equals", score: Draw, whiteSame: true, blackSm: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, b, err := Game(New(), New(), c.score)
			if err != nil {
				t.Fatal(err)
			}
			check := func(side string, r Rating, up, same bool) {
				switch {
				case same && math.Abs(r.Rating-DefaultRating) > 1e-9:
					t.Errorf("%s: %.2f, want unchanged", side, r.Rating)
				case !same && up != (r.Rating > DefaultRating):
					t.Errorf("%s: %.2f, up=%v", side, r.Rating, up)
				}
				if r.Deviation >= DefaultDeviation {
					t.Errorf("%s: deviation %.2f did not shrink", side, r.Deviation)
				}
			}
			check("white", w, c.whiteUp, c.whiteSame)
			check("black", b, c.blackUp, c.blackSm)
			if !c.whiteSame && math.Abs((w.Rating-DefaultRating)+(b.Rating-DefaultRating)) > 1e-9 {
				t.Errorf("equal players should move by equal amounts: %.3f, %.3f", w.Rating, b.Rating)
			}
		})
	}
}

func TestIdleGrowsDeviation(t *testing.T) {
	r := Rating{Rating: 1800, Deviation: 60, Volatility: 0.06}
	if got := r.Idle(0); got != r {
		t.Errorf("Idle(0) = %+v, want unchanged", got)
	}
	month := r.Idle(30 * 24 * time.Hour)
	if month.Deviation <= r.Deviation || month.Rating != r.Rating {
		t.Errorf("a month idle: %+v from %+v, want a larger deviation, same rating", month, r)
	}
	if years := r.Idle(50 * 365 * 24 * time.Hour); years.Deviation != MaxDeviation {
		t.Errorf("fifty years idle: deviation %.2f, want the cap %d", years.Deviation, MaxDeviation)
	}
}

func TestProvisional(t *testing.T) {
	if !New().Provisional() {
		t.Error("a new rating should be provisional")
	}
	if (Rating{Rating: 1500, Deviation: 80, Volatility: 0.06}).Provisional() {
		t.Error("RD 80 should not be provisional")
	}
}

func TestUpdateWithoutGames(t *testing.T) {
	r := Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}
	got, err := r.Update(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := math.Sqrt(200*200/scale/scale+0.06*0.06) * scale
	if math.Abs(got.Deviation-want) > 1e-9 || got.Rating != 1500 {
		t.Errorf("Update(nil) = %+v, want RD %.4f", got, want)
	}
}

func TestSpeedOf(t *testing.T) {
	m, s := time.Minute, time.Second
	cases := []struct {
		initial, increment time.Duration
		want               Speed
	}{
		{1 * m, 0, Bullet},
		{2 * m, 1 * s, Bullet},      // 2:40
		{3 * m, 0, Blitz},           // 3:00
		{3 * m, 2 * s, Blitz},       // 4:20
		{5 * m, 3 * s, Blitz},       // 7:00
		{5 * m, 5 * s, Rapid},       // 8:20
		{10 * m, 5 * s, Rapid},      // 13:20
		{15 * m, 10 * s, Rapid},     // 21:40
		{20 * m, 10 * s, Classical}, // 26:40
		{30 * m, 0, Classical},      // 30:00
	}
	for _, c := range cases {
		if got := SpeedOf(c.initial, c.increment); got != c.want {
			t.Errorf("SpeedOf(%v, %v) = %s, want %s", c.initial, c.increment, got, c.want)
		}
	}
}

func TestVolatilityMoves(t *testing.T) {
	// The example's results are close to what was expected, so σ falls a
	// little below 0.06: it must not stay put.
	player := Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}
	got, err := player.Update([]Result{
		{Opponent: Rating{Rating: 1400, Deviation: 30, Volatility: 0.06}, Score: Win},
		{Opponent: Rating{Rating: 1550, Deviation: 100, Volatility: 0.06}, Score: Loss},
		{Opponent: Rating{Rating: 1700, Deviation: 300, Volatility: 0.06}, Score: Loss},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.Volatility >= 0.06 || got.Volatility < 0.0599 {
		t.Errorf("σ' = %.8f, want just below 0.06", got.Volatility)
	}
	// A surprising result raises it.
	upset, err := player.Update([]Result{{Opponent: Rating{Rating: 2300, Deviation: 50, Volatility: 0.06}, Score: Win}})
	if err != nil {
		t.Fatal(err)
	}
	if upset.Volatility <= 0.06 {
		t.Errorf("after an upset σ' = %.8f, want above 0.06", upset.Volatility)
	}
}
