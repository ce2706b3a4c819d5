package rules

import (
	"strconv"
	"strings"
)

// BanChess is Ban Chess: before every move the opponent bans one from→to pair
// of the mover's legal moves, Black banning first. Plies alternate ban and
// move (docs/rules.md §1.2): ply mod 4 = 1 Black bans, 2 White moves,
// 3 White bans, 0 Black moves. Its board, moves and draw rules are chess's
// (chessRules).
type BanChess struct{ chessRules }

// ID implements Variant.
func (BanChess) ID() string { return "ban" }

// Name implements Variant.
func (BanChess) Name() string { return "Ban Chess" }

// UCIName implements Variant.
func (BanChess) UCIName() string { return "banchess" }

// HasBans implements Variant: Ban Chess is the game of bans.
func (BanChess) HasBans() bool { return true }

func (BanChess) turn(ply int) Turn {
	switch ply % 4 {
	case 1:
		return Turn{Actor: Black, Phase: PhaseBan, ToMove: White}
	case 2:
		return Turn{Actor: White, Phase: PhaseMove, ToMove: White}
	case 3:
		return Turn{Actor: White, Phase: PhaseBan, ToMove: Black}
	}
	return Turn{Actor: Black, Phase: PhaseMove, ToMove: Black}
}

func (BanChess) startFEN() string { return StartFEN + " 1" }

func (v BanChess) readFEN(fields []string) (Position, int, Pair, bool, error) {
	return readChessFEN(fields, v.parseExtension)
}

func (v BanChess) fenTail(_ *Position, ply int, ban Pair, hasBan bool) (string, bool) {
	return v.formatExtension(ply, ban, hasBan), true
}

func (BanChess) firstPly(toMove Color, fullmove int) int {
	if toMove == Black {
		return 4*(fullmove-1) + 3
	}
	return 4*(fullmove-1) + 1
}

// parseExtension reads "<ply>[:<from><to>][indicator]" and the older forms
// "w:ban", "b:ban" (that colour bans next) and "b:<from><to>" (a ban in force).
func (v BanChess) parseExtension(field string, toMove Color, fullmove int) (int, Pair, bool, error) {
	field = strings.TrimRight(field, "+#=")
	if field == "" {
		return v.firstPly(toMove, fullmove), Pair{}, false, nil
	}
	switch field {
	case "w:ban", "b:ban":
		banner := White
		if field[0] == 'b' {
			banner = Black
		}
		if banner != toMove.Other() {
			return 0, Pair{}, false, fenErrorf("ply", "%q says %s bans next, but with %s to move it is %s who bans", Clip(field), banner.Name(), toMove.Name(), toMove.Other().Name())
		}
		return v.firstPly(toMove, fullmove), Pair{}, false, nil
	}
	if rest, ok := strings.CutPrefix(field, "b:"); ok {
		ban, err := ParsePair(rest)
		if err != nil {
			return 0, Pair{}, false, fenErrorf("ban", "%v", err)
		}
		return v.firstPly(toMove, fullmove) + 1, ban, true, nil
	}
	plyText, banText, hasBan := strings.Cut(field, ":")
	ply, err := strconv.Atoi(plyText)
	if err != nil || ply < 1 || len(plyText) > 9 {
		return 0, Pair{}, false, fenErrorf("ply", "%q is not a ply: it must be a whole number from 1, optionally followed by :<from><to>", Clip(field))
	}
	if t := v.turn(ply); t.ToMove != toMove {
		first := v.firstPly(toMove, fullmove)
		did := t.Actor.Name() + " moves"
		if t.Phase == PhaseBan {
			did = t.Actor.Name() + " bans one of " + t.ToMove.Name() + "'s moves"
		}
		return 0, Pair{}, false, fenErrorf("ply", "ply %d is where %s, so %s is to move there, but the FEN's second field says %s (%s); with %s to move at move %d, the ply is %d (before the ban) or %d (after it)",
			ply, did, t.ToMove.Name(), toMove.Name(), strings.ToLower(toMove.Name()[:1]), toMove.Name(), fullmove, first, first+1)
	}
	if !hasBan {
		return ply, Pair{}, false, nil
	}
	if ply%2 == 1 {
		return 0, Pair{}, false, fenErrorf("ban", "ply %d is a ban ply, so no ban can be in force yet (a ban belongs on the move ply after it)", ply)
	}
	ban, err := ParsePair(banText)
	if err != nil {
		return 0, Pair{}, false, fenErrorf("ban", "%v", err)
	}
	return ply, ban, true, nil
}

func (BanChess) formatExtension(ply int, ban Pair, hasBan bool) string {
	s := strconv.Itoa(ply)
	if hasBan {
		s += ":" + ban.String()
	}
	return s
}
