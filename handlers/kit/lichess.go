package kit

import (
	"github.com/banchess/banchess/rules"
)

// LichessVariant is a variant as lichess's API names it: its key (the
// "variant" of a challenge, a game's variant.key), its name and short
// name.
type LichessVariant struct {
	Key   string `json:"key"`
	Name  string `json:"name"`
	Short string `json:"short"`
}

// LichessVariantOf names v as lichess's API does: chess (UCI_Variant
// "chess") is lichess's "standard"; every other variant is keyed by the
// name UCI gives it ("banchess"), as pychess keys its variants.
func LichessVariantOf(v rules.Variant) LichessVariant {
	if v.UCIName() == "chess" {
		return LichessVariant{Key: "standard", Name: "Standard", Short: "Std"}
	}
	short := v.Name()
	if len(short) > 3 {
		short = short[:3]
	}
	return LichessVariant{Key: v.UCIName(), Name: v.Name(), Short: short}
}
