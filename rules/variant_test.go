package rules

import (
	"slices"
	"strings"
	"testing"
)

func TestVariantCapabilities(t *testing.T) {
	chess := []PieceKind{Queen, Rook, Bishop, Knight}
	for _, tc := range []struct {
		v          Variant
		bans       bool
		passes     bool
		board      BoardKind
		extra      []Square
		promotions []PieceKind
		letters    string
	}{
		{BanChess{}, true, false, ChessBoard, nil, chess, "qrbn"},
		{Classic{}, false, false, ChessBoard, nil, chess, "qrbn"},
		{ENChess{}, false, true, ENBoard, []Square{X0, X9}, []PieceKind{Queen, Rook, Bishop, Knight, King, Auror, Pawn}, "qrbnka"},
	} {
		v := tc.v
		if v.HasBans() != tc.bans || v.HasPasses() != tc.passes || v.Board() != tc.board || !slices.Equal(v.Board().ExtraSquares(), tc.extra) ||
			!slices.Equal(v.Promotions(), tc.promotions) || kindSetOf(v.Promotions()).letters() != tc.letters {
			t.Errorf("%s: bans %v, board %v %v, promotions %v %q", v.Name(), v.HasBans(), v.Board(), v.Board().ExtraSquares(), v.Promotions(), kindSetOf(v.Promotions()).letters())
		}
		if !v.ThreefoldRepetition() || !v.FiftyMoveRule() {
			t.Errorf("%s: the draw rules are chess's", v.Name())
		}
	}
	if got := kindSetOf([]PieceKind{Knight, Queen, Pawn}).letters(); got != "qn" {
		t.Errorf("an unusual set of promotions: %q", got)
	}
	// Promotions is the caller's to keep.
	p := BanChess{}.Promotions()
	p[0] = Pawn
	if (BanChess{}).Promotions()[0] != Queen {
		t.Error("Promotions shares its slice")
	}
}

func TestCanBranch(t *testing.T) {
	for _, tc := range []struct {
		from, to Variant
		want     bool
	}{
		{BanChess{}, Classic{}, true},
		{Classic{}, BanChess{}, true},
		{BanChess{}, BanChess{}, true},
		{ENChess{}, ENChess{}, true},
		{ENChess{}, BanChess{}, false},
		{ENChess{}, Classic{}, false},
		{Classic{}, ENChess{}, false},
	} {
		if got := CanBranch(tc.from, tc.to); got != tc.want {
			t.Errorf("CanBranch(%s, %s) = %v", tc.from.Name(), tc.to.Name(), got)
		}
	}
}

func TestLookupVariant(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		{"", "ban"}, {"ban", "ban"}, {"BAN", "ban"}, {"Ban Chess", "ban"}, {"classic", "classic"}, {"en", "en"}, {"en-chess", "en"},
	} {
		if v, err := VariantByID(tc.id); err != nil || v.ID() != tc.want {
			t.Errorf("VariantByID(%q) = %v, %v; want %s", tc.id, v, err, tc.want)
		}
	}
	if _, err := VariantByID("chess960"); err == nil || !strings.Contains(err.Error(), `"chess960": choose ban, classic or en`) {
		t.Errorf("unknown variant: %v", err)
	}
	own := []Variant{Classic{}, noDraws{}}
	if v, err := LookupVariant(own, ""); err != nil || v.ID() != "classic" {
		t.Errorf("the default of a list of one's own: %v, %v", v, err)
	}
	if v, err := LookupVariant(own, "nodraws"); err != nil || v != (noDraws{}) {
		t.Errorf("a variant of one's own: %v, %v", v, err)
	}
	if _, err := LookupVariant(own, "ban"); err == nil || !strings.Contains(err.Error(), "choose classic or nodraws") {
		t.Errorf("a variant not in the list: %v", err)
	}
	if _, err := LookupVariant(nil, ""); err == nil {
		t.Error("no variants: no error")
	}
}

// noDraws is Ban Chess with neither draw rule: a variant switching hooks
// off.
type noDraws struct{ BanChess }

func (noDraws) ID() string                { return "nodraws" }
func (noDraws) Name() string              { return "Ban Chess without draw rules" }
func (noDraws) ThreefoldRepetition() bool { return false }
func (noDraws) FiftyMoveRule() bool       { return false }

// TestDrawRulesAreHooks: Game applies the threefold repetition and the
// fifty-move rule only for a variant that keeps them.
func TestDrawRulesAreHooks(t *testing.T) {
	dance := []string{"b:a2a3", "m:g1f3", "b:a7a6", "m:g8f6", "b:a2a3", "m:f3g1", "b:a7a6", "m:f6g8",
		"b:a2a3", "m:g1f3", "b:a7a6", "m:g8f6", "b:a2a3", "m:f3g1", "b:a7a6", "m:f6g8"}
	fifty := "4k3/8/8/8/8/8/8/R3K3 w - - 99 80 1"
	for _, tc := range []struct {
		v                 Variant
		repetition, fifty Outcome
	}{
		{BanChess{}, Outcome{Status: Draw, Reason: ThreefoldRepetition}, Outcome{Status: Draw, Reason: FiftyMoveRule}},
		{noDraws{}, Outcome{}, Outcome{}},
	} {
		g := New(tc.v)
		mustPlay(t, g, dance...)
		if g.Outcome() != tc.repetition {
			t.Errorf("%s, the third repetition: %v", tc.v.Name(), g.Outcome())
		}
		g = mustFEN(t, fifty, tc.v)
		mustPlay(t, g, "b:a1a8", "m:a1a2")
		if g.Outcome() != tc.fifty {
			t.Errorf("%s, the hundredth halfmove: %v", tc.v.Name(), g.Outcome())
		}
	}
}

func TestBranch(t *testing.T) {
	classic := New(Classic{})
	mustPlay(t, classic, "m:e2e4", "m:e7e5", "m:g1f3")
	ban := New(BanChess{})
	mustPlay(t, ban, "b:e2e4", "m:d2d4", "b:e7e5")
	en := New(ENChess{})
	mustPlay(t, en, "m:e2e4", "m:d7d5")
	for _, tc := range []struct {
		name   string
		g      *Game
		n      int
		v      Variant
		fen    string
		ply    int
		refuse string
	}{
		{"Classic to Ban Chess, Black to move", classic, 3, BanChess{}, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2 3", 3, ""},
		{"Classic to Ban Chess, White to move", classic, 2, nil, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2 1", 1, ""},
		{"Classic to Classic at its start", classic, 0, Classic{}, StartFEN, 1, ""},
		{"Ban Chess after a ban: the ban is dropped", ban, 3, Classic{}, "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1", 2, ""},
		{"EN-Chess keeps its x squares", en, 2, ENChess{}, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2 Aa", 3, ""},
		{"EN-Chess to Ban Chess", en, 1, BanChess{}, "", 0, "cannot be played as Ban Chess"},
		{"Classic to EN-Chess", classic, 1, ENChess{}, "", 0, "cannot be played as EN-Chess"},
		{"past the end", classic, 4, BanChess{}, "", 0, "no ply 4"},
		{"before the start", classic, -1, BanChess{}, "", 0, "no ply -1"},
	} {
		before := tc.g.FEN()
		b, err := tc.g.Branch(tc.n, tc.v)
		switch {
		case tc.refuse != "":
			if err == nil || !strings.Contains(err.Error(), tc.refuse) {
				t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.refuse)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case b.StartFEN() != tc.fen || b.Ply() != tc.ply || len(b.Actions()) != 0:
			t.Errorf("%s: %s at ply %d, want %s at ply %d", tc.name, b.StartFEN(), b.Ply(), tc.fen, tc.ply)
		}
		if tc.g.FEN() != before {
			t.Errorf("%s: the game changed", tc.name)
		}
	}
}

func TestStartExtension(t *testing.T) {
	white := Position{ToMove: White}
	black := Position{ToMove: Black}
	e2e4 := Pair{From: SquareAt(4, 1), To: SquareAt(4, 3)}
	enPos := mustFEN(t, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 A-", ENChess{}).Position()
	for _, tc := range []struct {
		v    Variant
		pos  *Position
		move bool
		ban  *Pair
		want string
	}{
		{BanChess{}, &white, false, nil, "1"},
		{BanChess{}, &black, false, nil, "3"},
		{BanChess{}, &white, true, nil, "2"},
		{BanChess{}, &white, true, &e2e4, "2:e2e4"},
		{BanChess{}, &black, true, &e2e4, "4:e2e4"},
		{BanChess{}, &white, false, &e2e4, "1"},
		{Classic{}, &black, true, &e2e4, ""},
		{ENChess{}, &enPos, true, nil, "A-"},
	} {
		if got := StartExtension(tc.v, tc.pos, tc.move, tc.ban); got != tc.want {
			t.Errorf("%s, %s to move, move %v, ban %v: %q, want %q", tc.v.Name(), tc.pos.ToMove.Name(), tc.move, tc.ban, got, tc.want)
		}
	}
}

func TestLoad(t *testing.T) {
	const chessPGN = "[White \"A\"]\n\n1. e4 e5 *"
	for _, tc := range []struct {
		name, text string
		v          Variant
		opts       PGNOptions
		variant    string
		start      bool // the game is at its start position
	}{
		{"a FEN, of the default", StartFEN, nil, PGNOptions{}, "ban", true},
		{"a FEN of the variant given", StartFEN, Classic{}, PGNOptions{}, "classic", true},
		{"a FEN ignores the PGN options", StartFEN + " Aa", ENChess{}, PGNOptions{Variant: Classic{}}, "en", true},
		{"a PGN decides", "1. {banning: e2e4} d4 *", Classic{}, PGNOptions{}, "ban", false},
		{"a PGN without bans, as Classic", chessPGN, BanChess{}, PGNOptions{ChessAsClassic: true}, "classic", false},
		{"a PGN of the variant its options name", "1. e4 e5 *", BanChess{}, PGNOptions{Variant: Classic{}}, "classic", false},
	} {
		g, err := Load(tc.text, tc.v, tc.opts)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if g.Variant().ID() != tc.variant || (len(g.Actions()) == 0) != tc.start {
			t.Errorf("%s: a %s game of %d plies", tc.name, g.Variant().ID(), len(g.Actions()))
		}
	}
	if _, err := Load("8/8/8/8/8/8/8/8 w - - 0 1", nil, PGNOptions{}); err == nil || !strings.Contains(err.Error(), "king") {
		t.Errorf("a bad FEN: %v", err)
	}
	if _, err := Load("1. e5", nil, PGNOptions{}); err == nil {
		t.Error("a bad PGN: no error")
	}
	if list, err := ListPGN(StartFEN, PGNOptions{}); err != nil || len(list) != 0 {
		t.Errorf("ListPGN of a FEN: %v, %v", list, err)
	}
}

func TestParsePromotion(t *testing.T) {
	for _, tc := range []struct {
		letter string
		want   PieceKind
	}{
		{"", 0}, {"q", Queen}, {"N", Knight}, {"k", King}, {"a", Auror}, {"p", Pawn},
	} {
		if k, err := ParsePromotion(tc.letter, Variants()); err != nil || k != tc.want {
			t.Errorf("ParsePromotion(%q) = %v, %v; want %v", tc.letter, k, err, tc.want)
		}
	}
	for _, tc := range []struct {
		letter string
		vs     []Variant
		want   string
	}{
		{"x", Variants(), `"x" is not a promotion piece: use q, r, b or n (in EN-Chess also k, a or p to stay a pawn)`},
		{"qq", Variants(), `"qq" is not a promotion piece: use q, r, b or n (in EN-Chess also k, a or p to stay a pawn)`},
		{"k", []Variant{BanChess{}, Classic{}}, `"k" is not a promotion piece: use q, r, b or n`},
	} {
		if _, err := ParsePromotion(tc.letter, tc.vs); err == nil || err.Error() != tc.want {
			t.Errorf("ParsePromotion(%q): %v, want %s", tc.letter, err, tc.want)
		}
	}
}
