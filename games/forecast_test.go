package games_test

import (
	"slices"
	"testing"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
)

// TestForecasts: a line the opponent's actions follow plays the player's
// replies at once, in the same change, and stays while it has more; a
// line they leave is dropped; the first matching line wins. Lines are
// their author's alone, storing them is no change anyone else sees, and
// forecasts outside a correspondence game, at the author's own turn, or
// of actions not legal are refused.
func TestForecasts(t *testing.T) {
	set := func(tb *table, cred players.Credential, lines ...[]string) error {
		_, err := games.ForecastsOf(tb.svc.Service).Set(tb.ctx, tb.id, cred, lines)
		return err
	}
	get := func(tb *table, cred players.Credential) []games.Forecast {
		tb.t.Helper()
		lines, err := games.ForecastsOf(tb.svc.Service).Get(tb.ctx, tb.id, cred)
		if err != nil {
			tb.t.Fatal(err)
		}
		return lines
	}
	log := func(tb *table) []string {
		var out []string
		for _, a := range tb.view().Game.Actions() {
			out = append(out, a.String())
		}
		return out
	}
	for _, c := range []struct {
		name  string
		lines [][]string
		black []string // Black's actions after
		want  []string // the game's actions after
		left  int      // White's lines left
	}{
		{"a line followed plays the replies", [][]string{{"b:e2e4", "m:d2d4", "b:e7e5"}},
			[]string{"b:e2e4"}, []string{"b:e2e4", "m:d2d4", "b:e7e5"}, 0},
		{"a line followed twice", [][]string{{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:c2c4", "m:g1f3", "b:b8c6"}},
			[]string{"b:e2e4", "m:d7d5", "b:c2c4"}, []string{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:c2c4", "m:g1f3", "b:b8c6"}, 0},
		{"a line followed once, more to come", [][]string{{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:c2c4", "m:g1f3"}},
			[]string{"b:e2e4"}, []string{"b:e2e4", "m:d2d4", "b:e7e5"}, 1},
		{"a line left is dropped", [][]string{{"b:g1f3", "m:e2e4"}},
			[]string{"b:e2e4"}, []string{"b:e2e4"}, 0},
		{"the line followed of two", [][]string{{"b:g1f3", "m:e2e4"}, {"b:e2e4", "m:c2c4"}},
			[]string{"b:e2e4"}, []string{"b:e2e4", "m:c2c4"}, 0},
		{"the first line of two followed", [][]string{{"b:e2e4", "m:c2c4"}, {"b:e2e4", "m:d2d4"}},
			[]string{"b:e2e4"}, []string{"b:e2e4", "m:c2c4"}, 0},
		{"a line the opponent leaves later", [][]string{{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:c2c4", "m:g1f3"}},
			[]string{"b:e2e4", "m:d7d6"}, []string{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d6"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t, "3d")
			shown := func() int64 { r := tb.view(); return r.ShownRevision() }
			rev := shown()
			if err := set(tb, tb.white, c.lines...); err != nil {
				t.Fatal(err)
			}
			if got := shown(); got != rev {
				t.Errorf("storing forecasts showed revision %d, was %d", got, rev)
			}
			if len(get(tb, tb.white)) != len(c.lines) || len(get(tb, tb.black)) != 0 {
				t.Errorf("White sees %d lines, Black %d", len(get(tb, tb.white)), len(get(tb, tb.black)))
			}
			tb.mustPlay(tb.black, c.black...)
			if got := log(tb); !slices.Equal(got, c.want) {
				t.Errorf("the game: %q, want %q", got, c.want)
			}
			if n := len(get(tb, tb.white)); n != c.left {
				t.Errorf("White has %d lines left, want %d", n, c.left)
			}
		})
	}
	t.Run("refused", func(t *testing.T) {
		live := newTable(t, "5+3")
		if err := set(live, live.white, []string{"b:e2e4", "m:d2d4"}); code(err) != "bad_forecast" {
			t.Errorf("at a live game: %v", err)
		}
		tb := newTable(t, "3d")
		for _, c := range []struct {
			name string
			cred players.Credential
			line []string
			want string
		}{
			{"at one's own turn", tb.black, []string{"b:e2e4"}, "bad_forecast"},
			{"not legal", tb.white, []string{"b:e2e5", "m:d2d4"}, "bad_forecast"},
			{"banned", tb.white, []string{"b:e2e4", "m:e2e4"}, "bad_forecast"},
			{"no reply", tb.white, []string{"b:e2e4"}, "bad_forecast"},
			{"a spectator", "", []string{"b:e2e4", "m:d2d4"}, "unauthorized"},
		} {
			if err := set(tb, c.cred, c.line); code(err) != c.want {
				t.Errorf("%s: %v, want %s", c.name, err, c.want)
			}
		}
		if len(get(tb, tb.white)) != 0 {
			t.Error("a refused forecast was stored")
		}
		many := make([][]string, games.MaxForecastLines+1)
		for i := range many {
			many[i] = []string{"b:e2e4", "m:d2d4"}
		}
		if err := set(tb, tb.white, many...); code(err) != "bad_forecast" {
			t.Errorf("too many lines: %v", err)
		}
	})
}
