package rules

import (
	"fmt"
	"strings"
)

// Turn says who acts at a ply, what they do, and whose pieces are concerned:
// ToMove is the side to move on the board (the side whose move is banned or
// played).
type Turn struct {
	Actor  Color
	Phase  Phase
	ToMove Color
}

// Variant is a rule set played on the engine. Standard chess move generation
// and game-end rules are shared; a variant decides the schedule of plies and
// how that schedule is written in FEN and PGN. A new variant is a new file in
// this package with a type implementing these hooks, listed in Variants.
type Variant interface {
	// ID is the short machine name, such as "ban".
	ID() string
	// Name is the human name, also the PGN Variant tag, such as "Ban Chess".
	Name() string

	// turn says who acts at ply (ply ≥ 1) and what.
	turn(ply int) Turn
	// firstPly is the ply at which play starts from a position with toMove
	// to move and the given fullmove number.
	firstPly(toMove Color, fullmove int) int
	// parseExtension reads FEN fields after the sixth ("" when there are none)
	// and returns the ply and the ban in force, if any.
	parseExtension(field string, toMove Color, fullmove int) (ply int, ban Pair, hasBan bool, err error)
	// formatExtension writes the FEN fields after the sixth (without the
	// indicator), or "" when the variant writes a standard FEN.
	formatExtension(ply int, ban Pair, hasBan bool) string
}

// Variants lists every variant the engine plays, the default first.
func Variants() []Variant { return []Variant{BanChess{}, Classic{}} }

// VariantByID returns the variant with the given ID or name, in any case;
// "" gives the default, Ban Chess.
func VariantByID(id string) (Variant, error) {
	if id == "" {
		return BanChess{}, nil
	}
	var ids []string
	for _, v := range Variants() {
		if strings.EqualFold(id, v.ID()) || strings.EqualFold(id, v.Name()) {
			return v, nil
		}
		ids = append(ids, v.ID())
	}
	return nil, fmt.Errorf("unknown variant %q: choose %s", Clip(id), strings.Join(ids, " or "))
}
