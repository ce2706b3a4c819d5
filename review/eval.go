package review

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/rules"
)

// Eval is an evaluation from White's side: centipawns, or the plies (bans
// and moves) to a forced mate, or the result of a game that ended on the
// board there (checkmate, stalemate, a draw by rule).
type Eval struct {
	CP     int    // centipawns for White, when Mate is 0 and Result ""
	Mate   int    // plies to mate: positive when White mates, negative when Black does
	Result string // "1-0", "0-1" or "1/2-1/2" when the game is over on the board
}

// evalOf turns an engine result, whose score is for actor (the side to
// act), into White's side.
func evalOf(res engine.Result, actor rules.Color) Eval {
	sign := 1
	if actor == rules.Black {
		sign = -1
	}
	if res.Mate != 0 {
		return Eval{Mate: sign * res.Mate}
	}
	return Eval{CP: sign * res.Score}
}

// cpCeiling is lichess's bound on centipawns for winning chances; a mate
// counts as the ceiling.
const cpCeiling = 1000

// centipawns returns the evaluation as centipawns for White, a mate or a
// win as ±cpCeiling and the evaluation bounded by it.
func (e Eval) centipawns() int {
	switch {
	case e.Result == "1-0" || e.Mate > 0:
		return cpCeiling
	case e.Result == "0-1" || e.Mate < 0:
		return -cpCeiling
	case e.Result != "":
		return 0
	}
	return max(-cpCeiling, min(cpCeiling, e.CP))
}

// WinningChances returns White's winning chances from −1 (Black wins) to
// 1 (White wins) on lichess's curve: 2/(1+exp(−0.00368208·cp)) − 1, with
// cp bounded at ±1000 and a mate counted as 1000.
func (e Eval) WinningChances() float64 {
	return 2/(1+math.Exp(-0.00368208*float64(e.centipawns()))) - 1
}

// For returns the winning chances from side's point of view.
func (e Eval) For(side rules.Color) float64 {
	if side == rules.Black {
		return -e.WinningChances()
	}
	return e.WinningChances()
}

// mates reports whether the evaluation is a forced mate (or a finished
// checkmate) by side.
func (e Eval) mates(side rules.Color) bool {
	if side == rules.White {
		return e.Mate > 0 || e.Result == "1-0"
	}
	return e.Mate < 0 || e.Result == "0-1"
}

// String writes the evaluation as a PGN %eval command does: pawns with two
// decimals ("0.35", "-1.20"), a mate as "#5" or "#-3" (plies), and a
// finished game as its result.
func (e Eval) String() string {
	switch {
	case e.Result != "":
		return e.Result
	case e.Mate != 0:
		return "#" + strconv.Itoa(e.Mate)
	}
	return strconv.FormatFloat(float64(e.CP)/100, 'f', 2, 64)
}

// evalJSON is an Eval as JSON: one of its members.
type evalJSON struct {
	CP     *int   `json:"cp,omitempty"`
	Mate   *int   `json:"mate,omitempty"`
	Result string `json:"result,omitempty"`
}

// MarshalJSON writes {"cp":n}, {"mate":n} or {"result":"1-0"}.
func (e Eval) MarshalJSON() ([]byte, error) {
	switch {
	case e.Result != "":
		return json.Marshal(evalJSON{Result: e.Result})
	case e.Mate != 0:
		return json.Marshal(evalJSON{Mate: &e.Mate})
	}
	return json.Marshal(evalJSON{CP: &e.CP})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (e *Eval) UnmarshalJSON(b []byte) error {
	var j evalJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	switch {
	case j.Result != "":
		switch j.Result {
		case "1-0", "0-1", "1/2-1/2":
		default:
			return fmt.Errorf("review: evaluation: unknown result %q", j.Result)
		}
		*e = Eval{Result: j.Result}
	case j.Mate != nil && *j.Mate != 0:
		*e = Eval{Mate: *j.Mate}
	case j.CP != nil:
		*e = Eval{CP: *j.CP}
	default:
		return errors.New("review: an evaluation needs cp, mate or result")
	}
	return nil
}
