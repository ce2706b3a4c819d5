package rules

import (
	"strconv"
	"strings"
)

// Classic is standard chess on the same machinery, with no ban phase: every
// ply is a move, White on odd plies and Black on even ones. Every hook but
// its schedule and FEN is chess's default (chessRules).
type Classic struct{ chessRules }

// ID implements Variant.
func (Classic) ID() string { return "classic" }

// Name implements Variant.
func (Classic) Name() string { return "Classic" }

// UCIName implements Variant.
func (Classic) UCIName() string { return "chess" }

func (Classic) turn(ply int) Turn {
	if ply%2 == 1 {
		return Turn{Actor: White, Phase: PhaseMove, ToMove: White}
	}
	return Turn{Actor: Black, Phase: PhaseMove, ToMove: Black}
}

func (Classic) startFEN() string { return StartFEN }

func (v Classic) readFEN(fields []string) (Position, int, Pair, bool, error) {
	return readChessFEN(fields, v.parseExtension)
}

func (Classic) fenTail(*Position, int, Pair, bool) (string, bool) { return "", false }

func (Classic) firstPly(toMove Color, fullmove int) int {
	if toMove == Black {
		return 2*(fullmove-1) + 2
	}
	return 2*(fullmove-1) + 1
}

// parseExtension accepts a Ban Chess seventh field without a ban (its ply
// is ignored: Classic counts plies from the fullmove number) and refuses a
// ban, which Classic does not have.
func (v Classic) parseExtension(field string, toMove Color, fullmove int) (int, Pair, bool, error) {
	field = strings.TrimRight(field, "+#=")
	if field != "" {
		if _, err := strconv.Atoi(field); err != nil && field != "w:ban" && field != "b:ban" {
			return 0, Pair{}, false, fenErrorf("ban", "%q: Classic games have no bans", Clip(field))
		}
	}
	return v.firstPly(toMove, fullmove), Pair{}, false, nil
}
