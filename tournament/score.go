package tournament

import (
	"cmp"
	"slices"
	"time"

	"github.com/banchess/banchess/rules"
)

// Outcome is a game's result for one player.
type Outcome int

// The outcomes.
const (
	Loss Outcome = iota
	Draw
	Win
)

// The scoring's thresholds, in full moves (bans not counted).
const (
	// BerserkMoves is how long a berserk win must be to score its point.
	BerserkMoves = 7
	// DrawMoves is how long a draw must be to score at all.
	DrawMoves = 10
)

// Game is one counted game of a player, in order.
type Game struct {
	Outcome Outcome
	Berserk bool // the player berserked
	Moves   int  // full moves played
}

// Mark is one game on a player's score sheet: the points it scored, and
// whether the player was on fire (two wins in a row before it) or
// berserked.
type Mark struct {
	Outcome Outcome `json:"-"`
	Points  int     `json:"points"`
	Fire    bool    `json:"fire,omitempty"`
	Berserk bool    `json:"berserk,omitempty"`
}

// Points scores one game played on a streak of wins in a row before it:
// a win 2, a draw 1, a loss 0; on fire (streak ≥ 2) a win 4 and a draw 2;
// a berserk win of at least BerserkMoves one more; a draw of fewer than
// DrawMoves nothing.
func Points(g Game, streak int) int {
	fire := streak >= 2
	switch g.Outcome {
	case Win:
		p := 2
		if fire {
			p = 4
		}
		if g.Berserk && g.Moves >= BerserkMoves {
			p++
		}
		return p
	case Draw:
		switch {
		case g.Moves < DrawMoves:
			return 0
		case fire:
			return 2
		}
		return 1
	}
	return 0
}

// Sheet scores a player's games in order: each game's mark, the total,
// and whether the player is on fire now.
func Sheet(played []Game) (marks []Mark, total int, fire bool) {
	streak := 0
	for _, g := range played {
		p := Points(g, streak)
		marks = append(marks, Mark{Outcome: g.Outcome, Points: p, Fire: streak >= 2, Berserk: g.Berserk})
		total += p
		if g.Outcome == Win {
			streak++
		} else {
			streak = 0
		}
	}
	return marks, total, streak >= 2
}

// Performance is a performance rating over games against opponents of
// the ratings given: their mean, plus 500 times (wins − losses) over the
// games; unrated opponents count as 1500. 0 for no games.
func Performance(outcomes []Outcome, opponents []int) int {
	if len(outcomes) == 0 {
		return 0
	}
	sum := 0
	for i, o := range outcomes {
		r := opponents[i]
		if r == 0 {
			r = 1500
		}
		sum += r
		switch o {
		case Win:
			sum += 500
		case Loss:
			sum -= 500
		}
	}
	return sum / len(outcomes)
}

// Standing is a player's row in a tournament's standings.
type Standing struct {
	Rank        int    `json:"rank"`
	Player      string `json:"-"`
	Name        string `json:"name"`
	Rating      int    `json:"rating,omitempty"`
	Score       int    `json:"score"`
	Performance int    `json:"performance,omitempty"`
	Sheet       []Mark `json:"sheet"`
	Fire        bool   `json:"fire,omitempty"`
	Paused      bool   `json:"withdrawn,omitempty"`
	// A Swiss event's tiebreaks (Score is then in half-points): Buchholz
	// in half-points, Sonneborn-Berger in quarter-points.
	Buchholz        int `json:"buchholz,omitempty"`
	SonnebornBerger int `json:"sonnebornBerger,omitempty"`
	// Game is the game the player plays now, "" for none.
	Game string `json:"game,omitempty"`
	// Whites and Blacks count their games on each side; Last is the side
	// of their last game and Opponent its opponent (for pairing).
	Whites, Blacks int         `json:"-"`
	Last           rules.Color `json:"-"`
	Opponent       string      `json:"-"`
	joined         time.Time
}

// Standings ranks t's players: by score, then performance, then who
// joined first. Only games that ended and were not aborted count. A
// Swiss event's go by package swiss (swissStandings).
func Standings(t *Tournament) []Standing {
	if t.Kind == Swiss {
		return swissStandings(t)
	}
	idx := map[string]int{}
	rows := make([]Standing, len(t.Players))
	outcomes := make([][]Outcome, len(t.Players))
	opps := make([][]int, len(t.Players))
	played := make([][]Game, len(t.Players))
	for i, p := range t.Players {
		idx[p.ID] = i
		rows[i] = Standing{Player: p.ID, Name: p.Name, Rating: p.Rating, Paused: p.Paused, joined: p.Joined}
	}
	for _, pr := range t.Pairings {
		for _, side := range []rules.Color{rules.White, rules.Black} {
			id, opp, oppRating, berserk := pr.White, pr.Black, pr.BlackRating, pr.WhiteBerserk
			if side == rules.Black {
				id, opp, oppRating, berserk = pr.Black, pr.White, pr.WhiteRating, pr.BlackBerserk
			}
			i, ok := idx[id]
			if !ok {
				continue
			}
			r := &rows[i]
			if !pr.Done {
				r.Game = pr.Game
			}
			if pr.Aborted {
				continue
			}
			if side == rules.White {
				r.Whites++
			} else {
				r.Blacks++
			}
			r.Last, r.Opponent = side, opp
			if !pr.Done {
				continue
			}
			o := Loss
			switch pr.Winner {
			case side:
				o = Win
			case 0:
				o = Draw
			}
			played[i] = append(played[i], Game{Outcome: o, Berserk: berserk, Moves: pr.Moves})
			outcomes[i] = append(outcomes[i], o)
			opps[i] = append(opps[i], oppRating)
		}
	}
	for i := range rows {
		rows[i].Sheet, rows[i].Score, rows[i].Fire = Sheet(played[i])
		rows[i].Performance = Performance(outcomes[i], opps[i])
	}
	slices.SortStableFunc(rows, func(a, b Standing) int {
		return cmp.Or(-cmp.Compare(a.Score, b.Score), -cmp.Compare(a.Performance, b.Performance), a.joined.Compare(b.joined))
	})
	for i := range rows {
		rows[i].Rank = i + 1
	}
	return rows
}
