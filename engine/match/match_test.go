package match

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/rules"
)

func TestScore(t *testing.T) {
	for _, tt := range []struct {
		sc     Score
		points float64
		games  int
		text   string
	}{
		{Score{}, 0, 0, "+0 =0 -0 (0.0%)"},
		{Score{Wins: 1}, 1, 1, "+1 =0 -0 (100.0%)"},
		{Score{Draws: 1}, 0.5, 1, "+0 =1 -0 (50.0%)"},
		{Score{Losses: 2}, 0, 2, "+0 =0 -2 (0.0%)"},
		{Score{Wins: 3, Draws: 1}, 3.5, 4, "+3 =1 -0 (87.5%)"},
		{Score{Wins: 93, Draws: 3, Losses: 4}, 94.5, 100, "+93 =3 -4 (94.5%)"},
		{Score{Wins: 1, Draws: 1, Losses: 1}, 1.5, 3, "+1 =1 -1 (50.0%)"},
	} {
		if got := tt.sc.Points(); got != tt.points {
			t.Errorf("%+v.Points() = %v, want %v", tt.sc, got, tt.points)
		}
		if got := tt.sc.Games(); got != tt.games {
			t.Errorf("%+v.Games() = %d, want %d", tt.sc, got, tt.games)
		}
		if got := tt.sc.String(); got != tt.text {
			t.Errorf("%+v.String() = %q, want %q", tt.sc, got, tt.text)
		}
	}
}

// TestScoreAdd: a game counts from the side the player had.
func TestScoreAdd(t *testing.T) {
	w, b := rules.White, rules.Black
	for _, tt := range []struct {
		o    rules.Outcome
		side rules.Color
		want Score
	}{
		{rules.Outcome{Status: rules.Checkmate, Reason: rules.ByBan, Winner: w}, w, Score{Wins: 1}},
		{rules.Outcome{Status: rules.Checkmate, Reason: rules.ByMove, Winner: w}, b, Score{Losses: 1}},
		{rules.Outcome{Status: rules.Checkmate, Reason: rules.ByMove, Winner: b}, b, Score{Wins: 1}},
		{rules.Outcome{Status: rules.Checkmate, Reason: rules.ByBan, Winner: b}, w, Score{Losses: 1}},
		{rules.Outcome{Status: rules.Stalemate, Reason: rules.ByBan}, w, Score{Draws: 1}},
		{rules.Outcome{Status: rules.Draw, Reason: rules.ThreefoldRepetition}, b, Score{Draws: 1}},
		{rules.Outcome{Status: rules.Draw}, w, Score{Draws: 1}}, // Play's cap
	} {
		sc := Score{Wins: 10, Draws: 20, Losses: 30}
		sc.add(tt.o, tt.side)
		if want := (Score{Wins: 10 + tt.want.Wins, Draws: 20 + tt.want.Draws, Losses: 30 + tt.want.Losses}); sc != want {
			t.Errorf("%v for %v: %v, want %v", tt.o, tt.side, sc, want)
		}
	}
}

// TestOpening: an opening is n random legal plies from the start, the same
// for the same seed, and a game still going.
func TestOpening(t *testing.T) {
	for _, n := range []int{0, 1, 4, 9} {
		seen := map[string]bool{}
		for seed := range uint64(8) {
			g, err := opening(n, seed)
			if err != nil {
				t.Fatal(err)
			}
			if g.StartFEN() != rules.New(rules.BanChess{}).StartFEN() || len(g.BCN()) != n || g.Outcome().Over() {
				t.Fatalf("opening(%d, %d): from %s, %d plies %v, outcome %v", n, seed, g.StartFEN(), len(g.BCN()), g.BCN(), g.Outcome())
			}
			again, _ := opening(n, seed)
			if !slices.Equal(g.BCN(), again.BCN()) {
				t.Errorf("opening(%d, %d) gave %v, then %v", n, seed, g.BCN(), again.BCN())
			}
			seen[strings.Join(g.BCN(), " ")] = true
		}
		if n > 0 && len(seen) < 2 {
			t.Errorf("opening(%d, 0…7) gave one opening for every seed: %v", n, seen)
		}
	}
}

// scripted plays, at each ply, the action its script names for it (BCN,
// by plies since the game's start), and fails the test when asked to act
// for the other side or past its script.
type scripted struct {
	t      *testing.T
	name   string
	side   rules.Color
	script []string
	asked  int
}

func (p *scripted) Name() string { return p.name }

func (p *scripted) Act(_ context.Context, g *rules.Game) (rules.Action, error) {
	p.asked++
	if actor := g.Turn().Actor; actor != p.side {
		p.t.Errorf("%s (%v) asked to act for %v at ply %d", p.name, p.side, actor, g.Ply())
	}
	i := g.Ply() - g.StartPly()
	if i >= len(p.script) {
		p.t.Fatalf("%s asked at ply %d, past its script", p.name, g.Ply())
	}
	return rules.ParseAction(p.script[i])
}

// banMate is a game White wins by a ban: Qxf7+, and the ban of Kxf7.
var banMate = []string{"b:d2d4", "m:e2e4", "b:d7d5", "m:e7e5", "b:f1c4", "m:d1h5", "b:g7g6", "m:b8c6", "b:h5e5", "m:h5f7", "b:e8f7"}

func TestPlay(t *testing.T) {
	white := &scripted{t: t, name: "W", side: rules.White, script: banMate}
	black := &scripted{t: t, name: "B", side: rules.Black, script: banMate}
	g := rules.New(rules.BanChess{})
	o, err := Play(context.Background(), g, white, black)
	if err != nil {
		t.Fatal(err)
	}
	want := rules.Outcome{Status: rules.Checkmate, Reason: rules.ByBan, Winner: rules.White}
	if o != want || g.Outcome() != want || !slices.Equal(g.BCN(), banMate) {
		t.Errorf("Play: %v after %v, want %v after %v", o, g.BCN(), want, banMate)
	}
	if white.asked != 6 || black.asked != 5 {
		t.Errorf("White asked %d times, Black %d; want 6 and 5", white.asked, black.asked)
	}
}

// failing is a player whose every action fails.
type failing struct{ err error }

func (f failing) Name() string { return "failing" }
func (f failing) Act(context.Context, *rules.Game) (rules.Action, error) {
	return rules.Action{}, f.err
}

// TestPlayRefused: a player that fails or plays an illegal action ends the
// game with an error that names it, the ply and the action.
func TestPlayRefused(t *testing.T) {
	crash := errors.New("engine crashed")
	black := &scripted{t: t, name: "B", side: rules.Black, script: banMate}
	_, err := Play(context.Background(), rules.New(rules.BanChess{}), failing{crash}, black)
	if !errors.Is(err, crash) || !strings.Contains(err.Error(), "failing at ply 2") {
		t.Errorf("a failing White: %v", err)
	}
	illegal := &scripted{t: t, name: "B", side: rules.Black, script: []string{"b:e2e5"}}
	_, err = Play(context.Background(), rules.New(rules.BanChess{}), failing{crash}, illegal)
	if err == nil || !strings.Contains(err.Error(), "B at ply 1") || !strings.Contains(err.Error(), "played b:e2e5") {
		t.Errorf("an illegal ban: %v", err)
	}
}

// TestPlayLength: a game that reaches maxPlies ends as a draw, though the
// rules would go on.
func TestPlayLength(t *testing.T) {
	script := []string{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5"}
	for _, tt := range []struct{ ply, asked int }{{maxPlies - 3, 4}, {maxPlies + 1, 0}} {
		g, err := rules.FromFEN(fmt.Sprintf("%s %d", rules.StartFEN, tt.ply), rules.BanChess{})
		if err != nil {
			t.Fatal(err)
		}
		white := &scripted{t: t, name: "W", side: rules.White, script: script}
		black := &scripted{t: t, name: "B", side: rules.Black, script: script}
		o, err := Play(context.Background(), g, white, black)
		if err != nil {
			t.Fatal(err)
		}
		if o != (rules.Outcome{Status: rules.Draw}) || g.Outcome().Over() || white.asked+black.asked != tt.asked {
			t.Errorf("from ply %d: %v (the rules: %v) after %d plies, want a draw after %d", tt.ply, o, g.Outcome(), white.asked+black.asked, tt.asked)
		}
	}
}

// recorder passes a player's actions on, noting each game it is asked
// about and the side it plays there.
type recorder struct {
	Player
	t     *testing.T
	games []*rules.Game
	sides map[*rules.Game]rules.Color
}

func record(t *testing.T, p Player) *recorder {
	return &recorder{Player: p, t: t, sides: map[*rules.Game]rules.Color{}}
}

func (r *recorder) Act(ctx context.Context, g *rules.Game) (rules.Action, error) {
	side := g.Turn().Actor
	if prev, ok := r.sides[g]; !ok {
		r.games = append(r.games, g)
		r.sides[g] = side
	} else if prev != side {
		r.t.Errorf("%s asked to act for %v and for %v in one game", r.Name(), prev, side)
	}
	return r.Player.Act(ctx, g)
}

// TestRun plays a short match between two levels and checks its books
// against the games played: colours alternate, each opening is played
// twice, and the score counts each game from A's side.
func TestRun(t *testing.T) {
	level := func(n int) *recorder {
		e, err := NewEngine(n, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		return record(t, e)
	}
	a, b := level(2), level(1)
	const games, openingPlies, seed = 4, 4, 7
	var log strings.Builder
	res, err := (&Match{A: a, B: b, Games: games, OpeningPlies: openingPlies, Seed: seed, Log: &log}).Run(context.Background())
	sc, times := res.Score, res.Times
	if err != nil || times != nil {
		t.Fatalf("%v, times %v", err, times)
	}
	if len(a.games) != games || !slices.Equal(a.games, b.games) {
		t.Fatalf("A played %d games, B %d, want the same %d", len(a.games), len(b.games), games)
	}
	var tally Score
	lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	if len(lines) != games {
		t.Fatalf("log of %d lines, want %d:\n%s", len(lines), games, log.String())
	}
	for i, g := range a.games {
		aSide := rules.White
		if i%2 == 1 {
			aSide = rules.Black
		}
		if a.sides[g] != aSide || b.sides[g] != aSide.Other() {
			t.Errorf("game %d: A played %v, B %v; want A %v", i+1, a.sides[g], b.sides[g], aSide)
		}
		want, _ := opening(openingPlies, seed+uint64(i/2))
		if got := g.BCN()[:openingPlies]; !slices.Equal(got, want.BCN()) {
			t.Errorf("game %d opened %v, want %v", i+1, got, want.BCN())
		}
		o := g.Outcome()
		if !o.Over() && g.Ply() > maxPlies {
			o = rules.Outcome{Status: rules.Draw} // Play's cap
		}
		switch {
		case !o.Over():
			t.Errorf("game %d stopped at ply %d, not over", i+1, g.Ply())
		case o.Winner == 0:
			tally.Draws++
		case o.Winner == aSide:
			tally.Wins++
		default:
			tally.Losses++
		}
		white, black := a.Name(), b.Name()
		if aSide == rules.Black {
			white, black = black, white
		}
		prefix := fmt.Sprintf("game %d: %s (white) – %s (black): %s ", i+1, white, black, o.Result())
		if !strings.HasPrefix(lines[i], prefix) {
			t.Errorf("log line %q, want it to start %q", lines[i], prefix)
		}
	}
	if first, second := a.games[0].BCN()[:openingPlies], a.games[2].BCN()[:openingPlies]; slices.Equal(first, second) {
		t.Errorf("the two pairs of games opened alike: %v", first)
	}
	if sc.Wins != tally.Wins || sc.Draws != tally.Draws || sc.Losses != tally.Losses || sc.pairs() != 2 {
		t.Errorf("Run scored %v (pairs %v), the games %v", sc, sc.Pairs, tally)
	}
	// Level 2 blunders less than level 1 (noise 100 against 300): these
	// games replay alike on every machine, and it wins more of them.
	if sc.Wins <= sc.Losses {
		t.Errorf("level 2 against level 1: %v", sc)
	}
	t.Logf("level 2 against level 1: %v", sc)
}

func TestElo(t *testing.T) {
	tests := []struct {
		sc              Score
		diff, low, high float64
	}{
		{Score{Wins: 50, Losses: 50}, 0, -68, 68},
		{Score{Wins: 70, Draws: 10, Losses: 20}, 191, 124, 274},
		{Score{Wins: 100}, math.Inf(1), 570, math.Inf(1)},
		{Score{Losses: 100}, math.Inf(-1), math.Inf(-1), -570},
	}
	near := func(a, b float64) bool { return a == b || math.Abs(a-b) < 1.5 }
	for _, tt := range tests {
		e := tt.sc.Elo()
		if !near(e.Diff, tt.diff) || !near(e.Low, tt.low) || !near(e.High, tt.high) {
			t.Errorf("%v: Elo %+v, want %v (%v to %v)", tt.sc, e, tt.diff, tt.low, tt.high)
		}
	}
}

// TestClockMatch plays two short games on a 20-second clock between levels
// 2 and 4: the time of every ply is recorded, and neither level flags.
func TestClockMatch(t *testing.T) {
	a, err := NewEngine(2, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewEngine(4, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	m := &Match{A: a, B: b, Games: 2, OpeningPlies: 4, Seed: 1}
	m.Clock.Initial = 20 * time.Second
	res, err := m.Run(t.Context())
	sc, times := res.Score, res.Times
	if err != nil || sc.Games() != 2 {
		t.Fatalf("%v, %v", sc, err)
	}
	if times == nil || len(times.Plies) < 10 || times.Flags != 0 || times.MinLeft <= 0 {
		t.Errorf("times: %v", times)
	}
	sf, _ := fakeStockfish(t, false)
	if _, err := (&Match{A: a, B: sf, Games: 1, Clock: m.Clock}).Run(t.Context()); err == nil || !strings.Contains(err.Error(), "cannot play on a clock") {
		t.Errorf("Stockfish on a clock: %v", err)
	}
}
