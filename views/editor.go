package views

import (
	"net/url"
	"strings"

	"github.com/banchess/banchess/editor"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// Editor is the board editor's page: the position being set up, the
// palette, the FEN it stands for and whether it can be played.
type Editor struct {
	Asset    string
	State    editor.State
	Variants []Variant // those the editor edits (editor.Edits)
	Board    Board
	Palette  []PaletteItem
	FEN      string
	Error    string // why the position cannot be played; "" when it can
	PlayURL  string // starts a game from the position; "" when it cannot
	// AnalyseURL is the engine's analysis of the position; "" when it
	// cannot be played.
	AnalyseURL string
	Castle     []CastleRight
}

// PaletteItem is one choice of the editor's palette.
type PaletteItem struct {
	Code     string // "wK", or editor.Erase
	Label    string // "white king", "eraser"
	Selected bool
}

// CastleRight is one castling right's checkbox.
type CastleRight struct {
	Letter, Label string
	On            bool
}

// NewEditor describes, in l, the editor at state s, offering those of variants
// (the server's, VariantsOf) it edits; problem is why its position cannot
// be played ("" when it can), in the import's words.
func NewEditor(l *i18n.Language, s editor.State, problem, asset string, variants []Variant) Editor {
	e := Editor{Asset: asset, State: s, FEN: s.FEN(), Error: problem}
	for _, v := range variants {
		if editor.Edits(v.rules) {
			e.Variants = append(e.Variants, v)
		}
	}
	bottom := rules.White
	if s.Flip {
		bottom = rules.Black
	}
	pos := rules.Position{Board: s.Board}
	var ban *rules.Pair
	if p, err := rules.ParsePair(s.Ban); err == nil && s.Variant.HasBans() && s.Act == "move" {
		ban = &p
	}
	e.Board = board(&pos, bottom, ban, nil, nil, nil)
	for _, code := range editor.Palette() {
		item := PaletteItem{Code: code, Label: l.T("editor.eraser"), Selected: code == s.Pick}
		if _, ok := editor.PieceOf(code); ok {
			item.Label = l.T(pieceMessages[code])
		}
		e.Palette = append(e.Palette, item)
	}
	for _, r := range []struct{ l, label string }{{"K", l.T("editor.castle.K")}, {"Q", l.T("editor.castle.Q")}, {"k", l.T("editor.castle.k")}, {"q", l.T("editor.castle.q")}} {
		e.Castle = append(e.Castle, CastleRight{Letter: r.l, Label: r.label, On: strings.Contains(s.Castling, r.l)})
	}
	if problem == "" {
		e.PlayURL = "/?" + url.Values{"fen": {e.FEN}, "v": {s.Variant.ID()}}.Encode()
		e.AnalyseURL = AnalysisURL(e.FEN, s.Variant.ID())
	}
	return e
}

// EditURL opens the editor at fen, a position of variant (an ID).
func EditURL(fen, variant string) string {
	return "/editor?" + url.Values{"fen": {fen}, "v": {variant}}.Encode()
}

// AnalysisURL is the engine's analysis of fen, a position of variant (an
// ID).
func AnalysisURL(fen, variant string) string {
	return "/analysis?" + url.Values{"fen": {fen}, "v": {variant}}.Encode()
}
