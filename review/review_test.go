package review

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/rules"
)

// poolSearch searches with a pool of one worker at DefaultLimits, as the
// server's reviews do.
func poolSearch(tb testing.TB) Search {
	tb.Helper()
	pool := engine.NewPool(1, 4, 16)
	return func(ctx context.Context, g *rules.Game) (engine.Result, error) {
		return pool.Analyse(ctx, g, DefaultLimits)
	}
}

// play returns the game from fen (Ban Chess) with actions played.
func play(tb testing.TB, v rules.Variant, fen string, actions ...string) *rules.Game {
	tb.Helper()
	g, err := rules.Replay(v, fen, actions)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// reviewOf runs a whole review of g.
func reviewOf(t *testing.T, g *rules.Game) ([]Position, Review) {
	t.Helper()
	positions, err := Run(context.Background(), g, poolSearch(t), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(positions) != len(g.Actions())+1 {
		t.Fatalf("%d positions for %d plies", len(positions), len(g.Actions()))
	}
	return positions, Build(g, positions)
}

// The positions, checked with the rules before they are reviewed.
const (
	// White to move after Black's ban: Ra8+ leaves Black's king one way
	// out (h8g7), whose ban mates. No other White move does as much, and
	// Black's rook (on h4, which reaches neither a8 nor the eighth rank)
	// keeps the material level.
	backRank = "7k/7p/6p1/8/7r/8/5PPP/R5K1 w - - 0 1"
	// Black to move after White's ban: the knight on c6 covers b8 and d8;
	// once it leaves for e5, Ra8+ and Rb8+ each leave the king one way
	// out (g8g7), and one ban cannot take both.
	twoRooks = "6k1/5p1p/2n3p1/8/8/8/5PPP/RR4K1 b - - 0 1"
)

// forcing lists, by the rules alone, the moves of g's mover that leave the
// opponent in check with a single legal pair whose ban is checkmate.
func forcing(t *testing.T, g *rules.Game) []string {
	t.Helper()
	var out []string
	for _, a := range g.Legal() {
		cp := play(t, g.Variant(), g.FEN())
		if err := cp.Play(a); err != nil {
			t.Fatal(err)
		}
		if !cp.InCheck() || cp.Outcome().Over() {
			continue
		}
		bans := cp.Legal()
		if len(bans) != 1 {
			continue
		}
		if err := cp.Play(bans[0]); err != nil {
			t.Fatal(err)
		}
		if cp.Outcome().Status == rules.Checkmate && cp.Outcome().Reason == rules.ByBan {
			out = append(out, a.String())
		}
	}
	return out
}

func TestPositionsAreWhatTheyClaim(t *testing.T) {
	for _, tc := range []struct {
		fen     string
		actions []string
		want    []string
	}{
		{backRank, []string{"b:g1f1"}, []string{"m:a1a8"}},
		{backRank, []string{"b:a1a8"}, nil},
		{twoRooks, []string{"b:g8h8", "m:c6e5", "b:g1f1"}, []string{"m:a1a8", "m:b1b8"}},
		{twoRooks, []string{"b:g8h8", "m:c6e5", "b:a1a8"}, []string{"m:b1b8"}},
		{twoRooks, []string{"b:g8h8", "m:h7h6", "b:g1f1"}, nil},
	} {
		g := play(t, rules.BanChess{}, tc.fen, tc.actions...)
		if got := forcing(t, g); !slices.Equal(got, tc.want) {
			t.Errorf("%s after %v: moves mating by ban %v, want %v", tc.fen, tc.actions, got, tc.want)
		}
	}
}

func TestMissedAndAllowedMateByBan(t *testing.T) {
	for _, tc := range []struct {
		name    string
		fen     string
		actions []string
		want    map[int][]Label // by ply
		best    map[int]string
	}{
		{
			// Black's ban leaves Ra8+ (it could have banned it); White
			// plays f3 instead.
			name: "missed", fen: backRank, actions: []string{"b:g1f1", "m:f2f3"},
			want: map[int][]Label{1: {AllowedMateByBan}, 2: {MissedMateByBan}},
			best: map[int]string{1: "b:a1a8", 2: "m:a1a8"},
		},
		{
			// Black bans Ra8: nothing to miss or allow.
			name: "banned", fen: backRank, actions: []string{"b:a1a8", "m:f2f3"},
			want: map[int][]Label{1: {}, 2: {}},
		},
		{
			// White plays Ra8+ and bans the way out: mate by ban.
			name: "played", fen: backRank, actions: []string{"b:g1f1", "m:a1a8", "b:h8g7"},
			want: map[int][]Label{1: {AllowedMateByBan}, 2: {}, 3: {}},
			best: map[int]string{2: "m:a1a8", 3: "b:h8g7"},
		},
		{
			// Nc6-e5 gives White two such moves: no single ban stops
			// them, so the move is marked, not White's ban after it.
			name: "no ban stops it", fen: twoRooks, actions: []string{"b:g8h8", "m:c6e5", "b:a1a8", "m:b1b8"},
			want: map[int][]Label{3: {}, 4: {AllowedMateByBan}, 5: {}, 6: {}},
			best: map[int]string{6: "m:b1b8"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := play(t, rules.BanChess{}, tc.fen, tc.actions...)
			_, r := reviewOf(t, g)
			for _, p := range r.Plies {
				if want, ok := tc.want[p.Ply]; ok && !slices.Equal(p.Labels, want) {
					t.Errorf("ply %d (%s): labels %v, want %v", p.Ply, p.Action, p.Labels, want)
				}
				if want, ok := tc.best[p.Ply]; ok && p.Best != want {
					t.Errorf("ply %d: best %s, want %s", p.Ply, p.Best, want)
				}
			}
		})
	}
}

func TestMissedMateByBanIsABlunder(t *testing.T) {
	g := play(t, rules.BanChess{}, backRank, "b:g1f1", "m:f2f3")
	positions, r := reviewOf(t, g)
	p := r.Plies[1]
	if p.Before != (Eval{Mate: 2}) {
		t.Errorf("before f3: %+v, want White mates in 2 plies", p.Before)
	}
	if p.Class != Blunder {
		t.Errorf("f3 missing the mate: class %s (before %v, after %v)", p.Class, p.Before, p.Eval)
	}
	if !slices.Equal(positions[1].BanMates, []string{"m:a1a8"}) || len(positions[1].Mates) != 0 {
		t.Errorf("position before f3: mates %v, by ban %v", positions[1].Mates, positions[1].BanMates)
	}
	if r.White.MissedMatesByBan != 1 || r.Black.AllowedMatesByBan != 1 || r.White.Actions != 1 || r.Black.Actions != 1 {
		t.Errorf("sides: white %+v, black %+v", r.White, r.Black)
	}
}

func TestMatedGameEndsWithItsResult(t *testing.T) {
	g := play(t, rules.BanChess{}, backRank, "b:g1f1", "m:a1a8", "b:h8g7")
	positions, r := reviewOf(t, g)
	if last := positions[len(positions)-1]; last.Eval != (Eval{Result: "1-0"}) || last.Best != "" {
		t.Errorf("after the mate: %+v", last)
	}
	if p := r.Plies[2]; p.Before != (Eval{Mate: 1}) || p.Class != Best {
		t.Errorf("the mating ban: %+v", p)
	}
	if r.White.Accuracy == nil || *r.White.Accuracy < 99 {
		t.Errorf("white's accuracy %v, want 100 less the harmonic's rounding", r.White.Accuracy)
	}
}

// Fool's mate in Classic: g4 allows a mate at once, which the engine
// sees; another reply than Qh4# misses it.
func TestGeneralMates(t *testing.T) {
	start := rules.New(rules.Classic{}).StartFEN()
	g := play(t, rules.Classic{}, start, "m:f2f3", "m:e7e5", "m:g2g4", "m:a7a6")
	_, r := reviewOf(t, g)
	want := map[int][]Label{1: {}, 2: {}, 3: {AllowedMate}, 4: {MissedMate}}
	for _, p := range r.Plies {
		if !slices.Equal(p.Labels, want[p.Ply]) {
			t.Errorf("ply %d (%s): labels %v, want %v", p.Ply, p.Action, p.Labels, want[p.Ply])
		}
	}
	if p := r.Plies[2]; p.Class != Blunder {
		t.Errorf("g4: class %s, want blunder", p.Class)
	}
	if p := r.Plies[3]; p.Best != "m:d8h4" || p.Class == Best {
		t.Errorf("a6: best %s class %s, want Qh4 and a loss", p.Best, p.Class)
	}
}

func TestRunResumes(t *testing.T) {
	g := play(t, rules.BanChess{}, backRank, "b:g1f1", "m:f2f3", "b:h8g8")
	search := poolSearch(t)
	var seen []int
	first, err := Run(context.Background(), g, search, nil, func(ps []Position) error {
		seen = append(seen, len(ps))
		if len(ps) == 2 {
			return context.Canceled // stop after two positions
		}
		return nil
	})
	if err != context.Canceled || first != nil || !slices.Equal(seen, []int{1, 2}) {
		t.Fatalf("stopped run: %v, %v, saved at %v", first, err, seen)
	}
	whole, err := Run(context.Background(), g, search, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	counting := func(ctx context.Context, g *rules.Game) (engine.Result, error) {
		calls++
		return search(ctx, g)
	}
	resumed, err := Run(context.Background(), g, counting, whole[:2], nil)
	if err != nil {
		t.Fatal(err)
	}
	// The evaluation, not the best action: two bans may tie, and which one
	// a search names depends on what the pool's table holds from before.
	if calls != 2 || len(resumed) != 4 || resumed[2].Eval != whole[2].Eval {
		t.Errorf("resumed from 2 of 4: %d searches, %d positions", calls, len(resumed))
	}
	if _, err := Run(context.Background(), g, counting, whole[:1:1], nil); err != nil {
		t.Error(err)
	}
	if _, err := Run(context.Background(), g, counting, append(whole, whole[0]), nil); err == nil {
		t.Error("more positions than the game has: no error")
	}
	if r := Build(g, whole[:2]); len(r.Plies) != 1 || r.White.Accuracy != nil || r.Black.Accuracy == nil {
		t.Errorf("partial review: %+v", r)
	}
	if r := Build(g, nil); len(r.Plies) != 0 {
		t.Errorf("review of nothing: %+v", r)
	}
}

func TestEvalNote(t *testing.T) {
	r := Review{Plies: []Ply{{Eval: Eval{CP: 35}, Class: Mistake}, {Eval: Eval{Mate: -3}}, {Eval: Eval{Result: "0-1"}, Class: Blunder}}}
	for n, want := range []string{"", "[%eval 0.35]", "[%eval #-3]", "", ""} {
		if got := r.EvalNote(n); got != want {
			t.Errorf("after %d plies: %q, want %q", n, got, want)
		}
	}
	for n, want := range [][]rules.NAG{nil, {2}, nil, {4}, nil} {
		if got := r.NAGs(n); !slices.Equal(got, want) {
			t.Errorf("the NAGs of ply %d: %v, want %v", n, got, want)
		}
	}
}

func TestClasses(t *testing.T) {
	for _, tc := range []struct {
		loss float64
		want Class
	}{
		{-0.5, Best}, {0, Best}, {0.0999, Best}, {0.1, Inaccuracy}, {0.1999, Inaccuracy},
		{0.2, Mistake}, {0.2999, Mistake}, {0.3, Blunder}, {1.9, Blunder},
	} {
		if got := classOf(tc.loss); got != tc.want {
			t.Errorf("loss %v: %s, want %s", tc.loss, got, tc.want)
		}
	}
	for c, nag := range map[Class]string{Best: "", Inaccuracy: "$6", Mistake: "$2", Blunder: "$4"} {
		if c.NAG() != nag {
			t.Errorf("%s: NAG %q, want %q", c, c.NAG(), nag)
		}
	}
}

func TestWinningChances(t *testing.T) {
	for _, tc := range []struct {
		e    Eval
		want float64
	}{
		{Eval{}, 0}, {Eval{CP: 100}, 0.18205}, {Eval{CP: 300}, 0.50225}, {Eval{CP: -200}, -0.35242},
		{Eval{CP: 1000}, 0.95089}, {Eval{CP: 5000}, 0.95089}, {Eval{Mate: 7}, 0.95089}, {Eval{Mate: -1}, -0.95089},
		{Eval{Result: "0-1"}, -0.95089}, {Eval{Result: "1/2-1/2"}, 0},
	} {
		if got := tc.e.WinningChances(); math.Abs(got-tc.want) > 1e-5 {
			t.Errorf("%v: %.5f, want %.5f", tc.e, got, tc.want)
		}
		if got := tc.e.For(rules.Black); math.Abs(got+tc.want) > 1e-5 {
			t.Errorf("%v for Black: %.5f, want %.5f", tc.e, got, -tc.want)
		}
	}
}

func TestEvalText(t *testing.T) {
	for _, tc := range []struct {
		e          Eval
		json, text string
	}{
		{Eval{CP: 0}, `{"cp":0}`, "0.00"},
		{Eval{CP: -120}, `{"cp":-120}`, "-1.20"},
		{Eval{CP: 35}, `{"cp":35}`, "0.35"},
		{Eval{Mate: 5}, `{"mate":5}`, "#5"},
		{Eval{Mate: -3}, `{"mate":-3}`, "#-3"},
		{Eval{Result: "1/2-1/2"}, `{"result":"1/2-1/2"}`, "1/2-1/2"},
	} {
		b, err := json.Marshal(tc.e)
		if err != nil || string(b) != tc.json {
			t.Errorf("%+v: JSON %s (%v), want %s", tc.e, b, err, tc.json)
		}
		var back Eval
		if err := json.Unmarshal(b, &back); err != nil || back != tc.e {
			t.Errorf("%s read back as %+v (%v)", b, back, err)
		}
		if tc.e.String() != tc.text {
			t.Errorf("%+v: %q, want %q", tc.e, tc.e.String(), tc.text)
		}
	}
	for _, bad := range []string{`{}`, `{"mate":0}`, `{"result":"2-0"}`, `[1]`} {
		var e Eval
		if err := json.Unmarshal([]byte(bad), &e); err == nil {
			t.Errorf("%s read as %+v", bad, e)
		}
	}
}

// TestAccuracy checks the game accuracy against a direct transcription of
// lichess's AccuracyPercent.gameAccuracy (in Python, with statistics.pstdev),
// over 45 plies of Ban Chess (windows of 4).
func TestAccuracy(t *testing.T) {
	for _, tc := range []struct {
		cps          []int
		white, black float64
	}{
		{[]int{20, 20, -300, -300, -250}, 39.19416695708175, 90.78631076505268},
		{func() []int {
			cps := make([]int, 46)
			for i := range cps {
				cps[i] = i*37%200 - 100
				if i%7 == 0 {
					cps[i] -= 300
				}
			}
			return cps
		}(), 75.61831769812095, 71.31983368177018},
	} {
		positions := make([]Position, len(tc.cps))
		actors := make([]rules.Color, len(tc.cps)-1)
		for i, cp := range tc.cps {
			positions[i].Eval.CP = cp
			if i < len(actors) {
				actors[i] = rules.White
				if i%4 == 0 || i%4 == 3 { // Black bans, White moves, White bans, Black moves
					actors[i] = rules.Black
				}
			}
		}
		w, b := accuracy(positions, actors)
		if w == nil || b == nil || math.Abs(*w-tc.white) > 1e-9 || math.Abs(*b-tc.black) > 1e-9 {
			t.Errorf("%d plies: %v %v, want %v %v", len(actors), deref(w), deref(b), tc.white, tc.black)
		}
	}
	if got := moveAccuracy(60, 50); math.Abs(got-64.57982845372067) > 1e-9 {
		t.Errorf("a loss of 10%%: %v", got)
	}
	if moveAccuracy(50, 70) != 100 || moveAccuracy(100, 0) != 0 {
		t.Error("accuracy not within 0 and 100")
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}
