package kit

import (
	"context"
	"math"
	"strconv"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// PlayedGames read an entry of a player's list of finished games
// (players.Service does).
type PlayedGames interface {
	PlayedGame(ctx context.Context, player, game string) (players.PlayedGame, bool, error)
}

// RatingDiffs are what finished rated game rec changed White's and
// Black's ratings by, as the players' lists of games record them; nil for
// a side whose change is not recorded (a game not rated, not over, or
// not yet recorded), and for one that cannot be read now: a page shows
// the game without it.
func RatingDiffs(ctx context.Context, played PlayedGames, rec *games.Record) (out [2]*float64) {
	if !rec.Rated || rec.Mode != games.Invite || !rec.Game.Outcome().Over() {
		return out
	}
	for i, side := range []rules.Color{rules.White, rules.Black} {
		g, ok, err := played.PlayedGame(ctx, rec.Holder(side), rec.ID)
		if err != nil || !ok || !g.Rated {
			continue
		}
		d := math.Round(g.After) - math.Round(g.Before)
		out[i] = &d
	}
	return out
}

// RatingDiffTags are the PGN tags of diffs (RatingDiffs), as lichess
// writes them: WhiteRatingDiff and BlackRatingDiff, "+12", "-8".
func RatingDiffTags(diffs [2]*float64) []rules.Tag {
	var tags []rules.Tag
	for i, d := range diffs {
		if d != nil {
			v := strconv.FormatFloat(*d, 'f', 0, 64)
			if *d >= 0 {
				v = "+" + v
			}
			tags = append(tags, rules.Tag{Name: []string{"WhiteRatingDiff", "BlackRatingDiff"}[i], Value: v})
		}
	}
	return tags
}
