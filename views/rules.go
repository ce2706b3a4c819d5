package views

import (
	"net/url"

	"github.com/banchess/banchess/boardimage"
	"github.com/banchess/banchess/rules"
)

// Diagram is a position the rules page draws (the server's /img/…
// image), with what it shows and a game to try from it.
type Diagram struct {
	FEN     string // extended FEN: its seventh field's ban is drawn
	Last    string // the last move drawn ("h5f7"), if any
	Caption string // the message that says what it shows
	// Try is the FEN a new game starts from to try it ("": none).
	Try string
}

// Image is the diagram's address: an SVG the server draws.
func (d Diagram) Image() string {
	u := boardimage.Path(d.FEN, boardimage.SVG) + "?size=288"
	if d.Last != "" {
		u += "&last=" + d.Last
	}
	return u
}

// TryURL opens a new game from the diagram's Try position.
func (d Diagram) TryURL() string { return "/?" + url.Values{"fen": {d.Try}}.Encode() }

// The rules page's diagrams (docs/rules.md §1.1, §8).
var (
	diagramBan = Diagram{
		FEN:     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2:e2e4",
		Caption: "rules.diagram.ban",
		Try:     rules.StartFEN,
	}
	diagramPromotion = Diagram{
		FEN:     "k7/4P3/1K6/8/8/8/8/8 w - - 0 1 2:e7e8",
		Caption: "rules.diagram.promotion",
	}
	diagramCastling = Diagram{
		FEN:     "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 2:e1g1",
		Caption: "rules.diagram.castling",
	}
	diagramEnPassant = Diagram{
		FEN:     "7k/8/1b2p3/3pP3/4K3/r7/8/5q2 w - d6 0 1 2:e5d6",
		Caption: "rules.diagram.enPassant",
	}
	diagramMate = Diagram{
		FEN:     "r1bqkbnr/pppp1Qpp/2n5/4p3/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 0 3 12:e8f7",
		Last:    "h5f7",
		Caption: "rules.diagram.mate",
		Try:     "r1bqkbnr/pppp1Qpp/2n5/4p3/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 0 3 11",
	}
	diagramStalemate = Diagram{
		FEN:     "4k3/8/8/8/7P/8/2q5/K7 w - - 0 1 2:h4h5",
		Caption: "rules.diagram.stalemate",
		Try:     "4k3/8/8/8/7P/8/2q5/K7 w - - 0 1",
	}
)

// PlyRow is one row of the rules page's table of the ply order: its plies,
// and messages naming who acts, what they do and the side to move.
type PlyRow struct{ Ply, Who, What, ToMove string }

// plyOrder is the ply order (docs/rules.md §1.2).
var plyOrder = []PlyRow{
	{"1, 5, 9…", "color.b", "rules.does.banWhite", "color.w"},
	{"2, 6, 10…", "color.w", "rules.does.move", "color.w"},
	{"3, 7, 11…", "color.w", "rules.does.banBlack", "color.b"},
	{"4, 8, 12…", "color.b", "rules.does.move", "color.b"},
}

// enStartBoard is EN-Chess's start position, drawn as the game's page
// draws a board (its x squares above and below), read-only.
func enStartBoard() Board {
	g := rules.New(rules.ENChess{})
	pos := g.Position()
	b := board(&pos, rules.White, nil, nil, nil, g.Variant().Board().ExtraSquares())
	b.ReadOnly = true
	return b
}
