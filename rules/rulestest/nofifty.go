// Package rulestest holds a variant for tests: NoFifty, Ban Chess without
// the fifty-move rule. It is a new variant in one file, which describes
// itself through the hooks of rules.Variant, so that the tests of the
// packages listing variants (handlers, terminal) register it with
// games.WithVariants and find it in their lists without any change to
// their code. Only tests import this package: the product never plays it.
package rulestest

import "github.com/banchess/banchess/rules"

// NoFifty is Ban Chess without the fifty-move rule: apart from its ID and
// name, every hook is Ban Chess's but FiftyMoveRule.
type NoFifty struct{ rules.BanChess }

// ID implements rules.Variant.
func (NoFifty) ID() string { return "nofifty" }

// Name implements rules.Variant.
func (NoFifty) Name() string { return "Ban Chess without the fifty-move rule" }

// FiftyMoveRule implements rules.Variant: fifty moves without a capture or
// a pawn move do not draw.
func (NoFifty) FiftyMoveRule() bool { return false }

// Variants lists the product's variants (rules.Variants), then NoFifty.
func Variants() []rules.Variant { return append(rules.Variants(), NoFifty{}) }
