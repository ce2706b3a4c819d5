package rules_test

import (
	"fmt"

	"github.com/banchess/banchess/rules"
)

// A game of Ban Chess: Black bans a move of White's, White moves, then
// White bans one of Black's.
func Example() {
	g := rules.New(rules.BanChess{})
	if err := g.PlayText("b:e2e4"); err != nil { // Black bans e2→e4
		fmt.Println(err)
		return
	}
	a, err := g.Notation().ParseMove("d4") // SAN or coordinates
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := g.Play(a); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.FEN())
	fmt.Println(g.Turn().Actor, g.Turn().Phase)
	// Output:
	// rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1 3
	// white ban
}

func ExampleNew() {
	for _, v := range rules.Variants() {
		g := rules.New(v)
		fmt.Printf("%s: %s, ply %d: %s %s\n", v.Name(), g.FEN(), g.Ply(), g.Turn().Actor, g.Turn().Phase)
	}
	// Output:
	// Ban Chess: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1, ply 1: black ban
	// Classic: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1, ply 1: white move
	// EN-Chess: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 Aa, ply 1: white move
}

// An extended FEN carries the ply and the ban in force; a wrong one is
// refused with the field it gets wrong.
func ExampleFromFEN() {
	g, err := rules.FromFEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2:e2e4", rules.BanChess{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ban, _ := g.Ban()
	fmt.Println(g.Ply(), g.Turn().Actor, g.Turn().Phase, "with", ban, "banned")
	_, err = rules.FromFEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2:e2e5", rules.BanChess{})
	fmt.Println(err)
	// Output:
	// 2 white move with e2e4 banned
	// FEN ban: e2e5 matches no legal move of White
}

// Bans are comments before the moves they restrict.
func ExampleFromPGN() {
	g, err := rules.FromPGN(`[White "Ann"]
[Black "Bob"]

1. {banning: e2e4} d4 {banning: e7e5} d5 *`, rules.PGNOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Variant().Name(), g.Record().Log())
	// Output:
	// Ban Chess [b:e2e4 d4 b:e7e5 d5]
}

// Load tells a FEN from a PGN: the FEN is a position of the variant given,
// the PGN decides its own (here a plain chess game, read as Classic).
func ExampleLoad() {
	for _, text := range []string{
		"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
		"1. e4 e5 2. Nf3 *",
	} {
		g, err := rules.Load(text, rules.BanChess{}, rules.PGNOptions{ChessAsClassic: true})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s, %d plies: %s\n", g.Variant().Name(), len(g.Actions()), g.FEN())
	}
	// Output:
	// Ban Chess, 0 plies: 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 1
	// Classic, 3 plies: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2
}

// A refused action leaves the game as it was and says why.
func ExampleGame_Play() {
	g := rules.New(rules.BanChess{})
	e2, _ := rules.ParseSquare("e2")
	e4, _ := rules.ParseSquare("e4")
	fmt.Println(g.Play(rules.BanAction(e2, e4)))
	fmt.Println(g.Play(rules.MoveAction(e2, e4, 0)))
	fmt.Println(g.Ply())
	// Output:
	// <nil>
	// e2e4 is banned this turn
	// 2
}

// At a ban the legal actions are the pairs of the mover's moves; at a
// move, the moves less the one banned.
func ExampleGame_Legal() {
	g, err := rules.FromFEN("4k3/8/8/8/8/8/8/4K2R w K - 0 1", rules.BanChess{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(g.Legal()), g.Legal()[:3])
	if err := g.PlayText("b:e1g1"); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(g.Legal()), g.Legal()[:3])
	// Output:
	// 15 [b:e1d1 b:e1d2 b:e1e2]
	// 14 [m:e1d1 m:e1d2 m:e1e2]
}

// A person types squares or SAN; at a ban, the move to ban.
func ExampleNotation_ParseInput() {
	g := rules.New(rules.BanChess{})
	for _, text := range []string{"Nf3", "e2e4", "e5"} {
		if a, err := g.Notation().ParseInput(text); err != nil {
			fmt.Println(err)
		} else {
			fmt.Println(a)
		}
	}
	// Output:
	// b:g1f3
	// b:e2e4
	// Black cannot ban e5: no White pawn can reach e5
}

// The PGN writes each ban as a comment before the move it restricted.
func ExampleRecord_PGN() {
	g, err := rules.Replay(rules.BanChess{}, "", []string{"b:e2e4", "m:d2d4", "b:e7e5"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(g.Record().PGN(rules.Tag{Name: "White", Value: "Ann"}))
	// Output:
	// [Event "Ban Chess game"]
	// [Site "?"]
	// [Date "????.??.??"]
	// [Round "-"]
	// [White "Ann"]
	// [Black "Black"]
	// [Result "*"]
	// [Variant "Ban Chess"]
	//
	// 1. {banning: e2e4} d4 {banning: e7e5} *
}

// A position of a Classic game played on as Ban Chess, from its first ply.
func ExampleGame_Branch() {
	g, err := rules.Replay(rules.Classic{}, "", []string{"m:e2e4", "m:e7e5"})
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := g.Branch(2, rules.BanChess{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b.FEN(), b.Turn().Actor, b.Turn().Phase)
	_, err = rules.New(rules.ENChess{}).Branch(0, rules.BanChess{})
	fmt.Println(err)
	// Output:
	// rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2 1 black ban
	// a position of EN-Chess cannot be played as Ban Chess: they are played on different boards
}

// The variants describe themselves: callers ask instead of checking which
// variant a game is of.
func ExampleVariant() {
	for _, v := range rules.Variants() {
		fmt.Printf("%-9s bans %-5v passes %-5v extra squares %v promotions %v fifty-move rule %v\n",
			v.Name(), v.HasBans(), v.HasPasses(), v.Board().ExtraSquares(), v.Promotions(), v.FiftyMoveRule())
	}
	// Output:
	// Ban Chess bans true  passes false extra squares [] promotions [queen rook bishop knight] fifty-move rule true
	// Classic   bans false passes false extra squares [] promotions [queen rook bishop knight] fifty-move rule true
	// EN-Chess  bans false passes true  extra squares [x0 x9] promotions [queen rook bishop knight king auror pawn] fifty-move rule true
}
