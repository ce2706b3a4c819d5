package games_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/banchess/banchess/computer"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/rules/rulestest"
	"github.com/banchess/banchess/store"
)

func TestNewGame(t *testing.T) {
	svc := games.NewLoader(games.DefaultLimits())
	for _, c := range []struct{ in, want string }{
		{"", "ban"}, {"ban", "ban"}, {"BAN", "ban"}, {"Ban Chess", "ban"}, {"classic", "classic"}, {"Classic", "classic"},
	} {
		g, err := svc.NewGame(c.in)
		if err != nil || g.Variant().ID() != c.want || g.Ply() != 1 {
			t.Errorf("NewGame(%q): %v, %v", c.in, g, err)
		}
	}
	for _, bad := range []string{"nope", strings.Repeat("x", 100)} {
		_, err := svc.NewGame(bad)
		refused(t, "NewGame("+bad[:4]+")", err, errs.Invalid, "bad_variant")
		if msg := errs.Of(err).Msg; !strings.Contains(msg, `"ban"`) || !strings.Contains(msg, `"classic"`) || len(msg) > 120 {
			t.Errorf("the refusal of %.10q: %q", bad, msg)
		}
	}
}

func TestFromFEN(t *testing.T) {
	svc := games.NewLoader(games.DefaultLimits())
	const fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
	g, err := svc.FromFEN(fen, "")
	if err != nil || g.Variant().ID() != "ban" || !strings.HasPrefix(g.FEN(), fen) {
		t.Errorf("FromFEN: %v, %v", g, err)
	}
	if g, err := svc.FromFEN(fen, "classic"); err != nil || g.Variant().ID() != "classic" {
		t.Errorf("FromFEN classic: %v, %v", g, err)
	}
	long := "8/8/8/8/8/8/8/8 w - - 0 " + strings.Repeat("1", 300)
	for _, c := range []struct {
		name, fen, variant, detail string
	}{
		{"empty", "", "", "bad_fen"},
		{"blank", "  \t ", "", "bad_fen"},
		{"not a FEN", "hello", "", "bad_fen"},
		{"no kings", "8/8/8/8/8/8/8/8 w - - 0 1", "", "bad_fen"},
		{"too long", long, "", "fen_too_long"},
		{"bad variant", fen, "nope", "bad_variant"},
	} {
		_, err := svc.FromFEN(c.fen, c.variant)
		refused(t, c.name, err, errs.Invalid, c.detail)
		if msg := errs.Of(err).Msg; strings.Contains(msg, "1111111111") {
			t.Errorf("%s: the refusal echoes the FEN: %q", c.name, msg)
		}
	}
	// A limit of 0 is no limit.
	if _, err := games.NewLoader(games.Limits{}).FromFEN(long, ""); errs.Of(err).Detail == "fen_too_long" {
		t.Errorf("no limit: %v", err)
	}
	if _, err := games.NewLoader(games.Limits{MaxFENBytes: 10}).FromFEN(fen, ""); errs.Of(err).Detail != "fen_too_long" {
		t.Errorf("a limit of 10 bytes: %v", err)
	}
}

const chessPGN = "[Event \"Club\"]\n[White \"Ann\"]\n\n1. e4 e5 2. Nf3 Nc6 *"

func TestFromPGN(t *testing.T) {
	svc := games.NewLoader(games.DefaultLimits())
	g, err := svc.FromPGN(chessPGN, "")
	if err != nil || g.Variant().ID() != "classic" || len(g.BCN()) != 4 || !g.Record().FromChessGame() || len(g.Record().Tags()) != 2 {
		t.Fatalf("FromPGN: a chess PGN is a Classic game of its moves: %v, %v", g, err)
	}
	if _, err := svc.FromPGN(chessPGN, "ban"); err == nil || !strings.Contains(err.Error(), "no ban comment") {
		t.Errorf("FromPGN ban: a chess PGN read as Ban Chess: %v", err)
	}
	two := chessPGN + "\n\n[White \"Bo\"]\n\n1. d4 d5 2. c4 *"
	if g, err := svc.FromPGNGame(two, "", 1); err != nil || len(g.BCN()) != 3 || g.Record().Tags()[0].Value != "Bo" {
		t.Errorf("FromPGNGame 1: %v, %v", g, err)
	}
	if list, err := svc.PGNGames(two); err != nil || len(list) != 2 || list[1].Tag("White") != "Bo" {
		t.Errorf("PGNGames: %v, %v", list, err)
	}
	if g, err := svc.FromPGN(chessPGN, "classic"); err != nil || g.Variant().ID() != "classic" || len(g.BCN()) != 4 {
		t.Errorf("FromPGN classic: %v, %v", g, err)
	}
	for _, c := range []struct {
		name, pgn, variant, detail string
		svc                        *games.Loader
	}{
		{"empty", "", "", "bad_pgn", svc},
		{"blank", "\n\n", "", "bad_pgn", svc},
		{"an illegal move", "1. e5 *", "", "bad_pgn", svc},
		{"an illegal move, classic", "1. e4 e4 *", "classic", "bad_pgn", svc},
		{"bad variant", chessPGN, "nope", "bad_variant", svc},
		{"too many plies", chessPGN, "classic", "too_many_plies", games.NewLoader(games.Limits{MaxPlies: 3})},
		{"an illegal variation", "1. e4 e5 (1... e4) *", "", "bad_pgn", svc},
		{"too many variations", "1. e4 (1. d4) (1. c4) *", "", "too_many_variations", games.NewLoader(games.Limits{MaxVariations: 1})},
		{"variations too deep", "1. e4 (1. d4 (1. c4)) *", "", "too_many_variations", games.NewLoader(games.Limits{MaxVariationDepth: 1})},
		{"variations' plies", "1. e4 e5 (1... c5 2. Nf3) *", "", "too_many_plies", games.NewLoader(games.Limits{MaxPlies: 3})},
	} {
		_, err := c.svc.FromPGN(c.pgn, c.variant)
		refused(t, c.name, err, errs.Invalid, c.detail)
	}
}

func TestFromText(t *testing.T) {
	svc := games.NewLoader(games.DefaultLimits())
	const fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
	for _, c := range []struct {
		name, text, variant string
		check               func(*rules.Game) bool
	}{
		{"a FEN", "  " + fen + "\n", "", func(g *rules.Game) bool { return strings.HasPrefix(g.FEN(), fen) && g.Ply() == 1 }},
		{"a FEN of a variant", fen, "classic", func(g *rules.Game) bool { return g.Variant().ID() == "classic" }},
		{"a PGN", chessPGN, "", func(g *rules.Game) bool {
			return g.Record().FromChessGame() && g.Variant().ID() == "classic" && g.Ply() == 5
		}},
		{"a PGN ignores the variant", chessPGN, "ban", func(g *rules.Game) bool { return g.Variant().ID() == "classic" }},
		{"moves alone", "1. d4 d5", "", func(g *rules.Game) bool { return strings.HasPrefix(g.FEN(), "rnbqkbnr/ppp1pppp/8/3p4/3P4/") }},
	} {
		g, err := svc.FromText(c.text, c.variant)
		if err != nil || !c.check(g) {
			t.Errorf("%s: %v, %v", c.name, g, err)
		}
	}
	for _, c := range []struct{ name, text, detail string }{
		{"nothing", "   ", ""},
		{"a bad FEN", "8/8/8/8/8/8/8/8 w - - 0 1", "bad_fen"},
		{"a long FEN", "8/8/8/8/8/8/8/8 w - - 0 " + strings.Repeat("9", 300), "fen_too_long"},
		{"a bad PGN", "1. e5", "bad_pgn"},
	} {
		_, err := svc.FromText(c.text, "")
		refused(t, c.name, err, errs.Invalid, c.detail)
	}
}

// linkGames are games of each kind a share link must rebuild.
func linkGames(t *testing.T) map[string]*rules.Game {
	t.Helper()
	replay := func(v rules.Variant, fen string, acts ...string) *rules.Game {
		t.Helper()
		g, err := rules.Replay(v, fen, acts)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	end := func(g *rules.Game, fn func(*rules.Game) error) *rules.Game {
		t.Helper()
		if err := fn(g); err != nil {
			t.Fatal(err)
		}
		return g
	}
	const custom = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
	return map[string]*rules.Game{
		"new":                rules.New(rules.BanChess{}),
		"played":             replay(rules.BanChess{}, "", "b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:g1f3"),
		"start FEN":          replay(rules.BanChess{}, custom, "b:e1d1", "m:a7a8q"),
		"start FEN with ban": replay(rules.BanChess{}, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1 2:a7a8"),
		"classic":            replay(rules.Classic{}, "", "m:e2e4", "m:e7e5"),
		"classic mate":       replay(rules.Classic{}, "", "m:f2f3", "m:e7e5", "m:g2g4", "m:d8h4"),
		"classic from FEN":   replay(rules.Classic{}, custom, "m:a7a8r"),
		"white resigned":     end(replay(rules.BanChess{}, "", "b:e2e4"), func(g *rules.Game) error { return g.Resign(rules.White) }),
		"black resigned":     end(rules.New(rules.Classic{}), func(g *rules.Game) error { return g.Resign(rules.Black) }),
		"draw":               end(replay(rules.BanChess{}, custom, "b:e1d1"), (*rules.Game).AgreeDraw),
	}
}

// TestLinkRoundTrip rebuilds games from their share links.
func TestLinkRoundTrip(t *testing.T) {
	svc := games.NewLoader(games.DefaultLimits())
	for name, g := range linkGames(t) {
		t.Run(name, func(t *testing.T) {
			link := svc.Link(g)
			q, err := url.ParseQuery(link)
			if err != nil {
				t.Fatal(err)
			}
			if !games.IsLink(q) {
				t.Errorf("%s is not a link", link)
			}
			back, err := svc.FromLink(q)
			if err != nil {
				t.Fatalf("%s: %v", link, err)
			}
			if state(back) != state(g) || back.StartFEN() != g.StartFEN() || back.Variant() != g.Variant() || back.Outcome() != g.Outcome() {
				t.Errorf("%s rebuilt\n%s\nwant\n%s", link, state(back), state(g))
			}
			if again := svc.Link(back); again != link {
				t.Errorf("the rebuilt game's link %s, want %s", again, link)
			}
		})
	}
	// A new game's link names neither variant nor start.
	if link := svc.Link(rules.New(rules.BanChess{})); link != "a=" {
		t.Errorf("a new game's link: %q", link)
	}
	if link := svc.Link(rules.New(rules.Classic{})); link != "a=&v=classic" {
		t.Errorf("a new classic game's link: %q", link)
	}
}

func TestFromLink(t *testing.T) {
	svc := games.NewLoader(games.Limits{MaxPlies: 3, MaxFENBytes: 100})
	if d := games.DefaultLimits(); d.MaxPlies <= 0 || d.MaxFENBytes <= 0 {
		t.Errorf("default limits %+v", d)
	}
	for _, c := range []struct {
		name, query string
		code        errs.Code
		detail      string
	}{
		{"bad variant", "v=nope&a=", errs.Invalid, "bad_variant"},
		{"empty fen", "fen=&a=", errs.Invalid, "bad_fen"},
		{"blank fen", "fen=+&a=", errs.Invalid, "bad_fen"},
		{"bad fen", "fen=hello", errs.Invalid, "bad_link"},
		{"long fen", "fen=" + strings.Repeat("8", 101), errs.Invalid, "fen_too_long"},
		{"too many actions", "a=b:e2e4,m:d2d4,b:e7e5,m:d7d5", errs.Invalid, "too_many_plies"},
		{"not an action", "a=hello", errs.Invalid, "bad_link"},
		{"an empty action", "a=b:e2e4,,m:d2d4", errs.Invalid, "bad_link"},
		{"an illegal action", "a=b:e2e5", errs.Illegal, "bad_link"},
		{"a banned move", "a=b:e2e4,m:e2e4", errs.Banned, "bad_link"},
		{"bad end", "a=&end=white-won", errs.Invalid, "bad_link"},
		{"empty pgn", "pgn=", errs.Invalid, "bad_pgn"},
	} {
		q, err := url.ParseQuery(c.query)
		if err != nil {
			t.Fatal(err)
		}
		_, err = svc.FromLink(q)
		refused(t, c.name, err, c.code, c.detail)
	}
	// Mate ends the game, so a declared ending after it is refused.
	mated, _ := url.ParseQuery("v=classic&a=m:f2f3,m:e7e5,m:g2g4,m:d8h4&end=draw")
	if _, err := games.NewLoader(games.DefaultLimits()).FromLink(mated); codeOf(err) != errs.Invalid {
		t.Errorf("a draw after mate: %v", err)
	}
	// pgn= reads a PGN; the ply limit holds for it too.
	q := url.Values{"pgn": {"1. e4 e5 *"}}
	if g, err := svc.FromLink(q); err != nil || !g.Record().FromChessGame() {
		t.Errorf("pgn link: %v, %v", g, err)
	}
	q = url.Values{"pgn": {chessPGN}}
	_, err := svc.FromLink(q)
	refused(t, "a long pgn link", err, errs.Invalid, "too_many_plies")
	for _, c := range []struct {
		query string
		link  bool
	}{{"fen=x", true}, {"pgn=x", true}, {"a=", true}, {"v=classic", false}, {"", false}, {"end=draw", false}} {
		q, _ := url.ParseQuery(c.query)
		if games.IsLink(q) != c.link {
			t.Errorf("IsLink(%s) = %v", c.query, !c.link)
		}
	}
}

// tagPGN is a PGN of n tags whose names are name bytes long and values
// value bytes long, and a move.
func tagPGN(n, name, value int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[%s \"%s\"]\n", fmt.Sprintf("T%0*d", name-1, i+1), strings.Repeat("v", value))
	}
	b.WriteString("\n1. e4 *\n")
	return b.String()
}

// TestPGNTagLimits: the default limits bound a game's tags, however it is
// created from a PGN (API, import, link, terminal all call FromPGN).
func TestPGNTagLimits(t *testing.T) {
	d := games.DefaultLimits()
	if d.MaxTags != 32 || d.MaxTagBytes != 256 || d.MaxTagNameBytes != 64 || d.MaxLinkPGNBytes != 16<<10 || d.MaxVariations != 400 || d.MaxVariationDepth != 16 {
		t.Errorf("default limits %+v", d)
	}
	svc := games.NewLoader(games.DefaultLimits())
	for _, c := range []struct {
		name, pgn, detail, want string
	}{
		{"33 tags", tagPGN(33, 8, 8), "too_many_tags", "more than 32 tags"},
		{"10,000 tags", tagPGN(10_000, 8, 90), "too_many_tags", "more than 32 tags"},
		{"a value of 257 bytes", tagPGN(1, 8, 257), "tag_too_long", "longer than 256 bytes"},
		{"a name of 65 bytes", tagPGN(1, 65, 1), "tag_too_long", "longer than 64 bytes"},
	} {
		_, err := svc.FromPGN(c.pgn, "")
		refused(t, c.name, err, errs.Invalid, c.detail)
		if msg := errs.Of(err).Msg; !strings.Contains(msg, c.want) || len(msg) > 200 || strings.Contains(msg, "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv") {
			t.Errorf("%s: message %q", c.name, msg)
		}
	}
	// At the bounds the game is read, and its tags are what they bound.
	g, err := svc.FromPGN(tagPGN(32, 64, 256), "")
	if err != nil {
		t.Fatal(err)
	}
	size := 0
	for _, tag := range g.Record().Tags() {
		size += len(tag.Name) + len(tag.Value)
	}
	if n := len(g.Record().Tags()); n != 32 || size > 32*(64+256) {
		t.Errorf("%d tags kept, %d bytes", n, size)
	}
	if pgn := g.Record().PGN(); len(pgn) > 12<<10 {
		t.Errorf("the game's PGN is %d bytes", len(pgn))
	}
	// A limit of 0 is no limit.
	if _, err := games.NewLoader(games.Limits{}).FromPGN(tagPGN(100, 100, 1000), ""); err != nil {
		t.Errorf("no limit: %v", err)
	}
}

// TestLinkPGNLimit: a link carries a PGN of at most 16 KiB; a longer one is
// refused before it is read, and must be posted.
func TestLinkPGNLimit(t *testing.T) {
	svc := games.NewLoader(games.DefaultLimits())
	pad := func(n int) string { // a good PGN of n bytes, mostly blank
		const moves = "1. e4 e5 *"
		return strings.Repeat(" ", n-len(moves)) + moves
	}
	if g, err := svc.FromLink(url.Values{"pgn": {pad(16 << 10)}}); err != nil || g.Ply() == 1 {
		t.Errorf("a link PGN of 16 KiB: %v, %v", g, err)
	}
	for _, pgn := range []string{pad(16<<10 + 1), tagPGN(10_000, 8, 90)} {
		_, err := svc.FromLink(url.Values{"pgn": {pgn}})
		refused(t, fmt.Sprintf("a link PGN of %d bytes", len(pgn)), err, errs.Invalid, "pgn_too_long")
		if msg := errs.Of(err).Msg; !strings.Contains(msg, "at most 16 KiB") || !strings.Contains(msg, "import") || len(msg) > 200 {
			t.Errorf("refusal %q", msg)
		}
	}
	// Posted (FromPGN, FromText), a longer PGN is read.
	if _, err := svc.FromPGN(pad(64<<10), ""); err != nil {
		t.Errorf("a posted PGN of 64 KiB: %v", err)
	}
	if _, err := svc.FromText(pad(64<<10), ""); err != nil {
		t.Errorf("an imported PGN of 64 KiB: %v", err)
	}
	if _, err := games.NewLoader(games.Limits{}).FromLink(url.Values{"pgn": {pad(64 << 10)}}); err != nil {
		t.Errorf("no limit: %v", err)
	}
}

// TestLongInputQuoted: a refusal quotes at most 40 characters of what was
// sent, cut between characters.
func TestLongInputQuoted(t *testing.T) {
	long := strings.Repeat("é", 3555)
	svc := games.NewLoader(games.Limits{})
	for name, f := range map[string]func() error{
		"variant":     func() error { _, err := svc.NewGame(long); return err },
		"link v":      func() error { _, err := svc.FromLink(url.Values{"a": {""}, "v": {long}}); return err },
		"link a":      func() error { _, err := svc.FromLink(url.Values{"a": {long}}); return err },
		"link end":    func() error { _, err := svc.FromLink(url.Values{"a": {""}, "end": {long}}); return err },
		"link fen":    func() error { _, err := svc.FromLink(url.Values{"fen": {long}}); return err },
		"fen":         func() error { _, err := svc.FromFEN(rules.StartFEN[:44]+" w "+long+" - 0 1", ""); return err },
		"pgn move":    func() error { _, err := svc.FromPGN("1. "+long, ""); return err },
		"pgn tag":     func() error { _, err := svc.FromPGN("[Event \""+long, ""); return err },
		"text":        func() error { _, err := svc.FromText(long, ""); return err },
		"pgn variant": func() error { _, err := svc.FromPGN("1. e4 *", long); return err },
	} {
		msg := errs.Of(f()).Msg
		if msg == "" || strings.Contains(msg, strings.Repeat("é", 41)) || !utf8.ValidString(msg) || len(msg) > 300 {
			t.Errorf("%s: %q", name, msg)
		}
	}
}

// TestFromPly: a new game from the position after n plies of another, at
// its first ply, of the variant asked for; the game itself is unchanged.
func TestFromPly(t *testing.T) {
	svc := games.NewLoader(games.DefaultLimits())
	g, err := svc.FromPGN(chessPGN, "")
	if err != nil {
		t.Fatal(err)
	}
	before := g.Record().PGN()
	for _, c := range []struct {
		n             int
		variant, want string
	}{
		{0, "", rules.StartFEN + " 1"},
		{1, "ban", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 3"},
		{4, "", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 1"},
		{4, "classic", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"},
	} {
		ng, err := svc.FromPly(g, c.n, c.variant)
		if err != nil || ng.FEN() != c.want || ng.Ply() != ng.StartPly() {
			t.Errorf("ply %d %q: %v, %v; want %s", c.n, c.variant, ng, err, c.want)
		}
	}
	for _, n := range []int{-1, 5} {
		_, err := svc.FromPly(g, n, "")
		refused(t, fmt.Sprintf("ply %d", n), err, errs.Invalid, "bad_ply")
	}
	if _, err := svc.FromPly(g, 1, "nope"); errs.Of(err).Detail != "bad_variant" {
		t.Errorf("variant nope: %v", err)
	}
	if g.Record().PGN() != before {
		t.Error("the game changed")
	}
	// EN-Chess positions stay EN-Chess, x squares and all.
	en, err := svc.FromLink(url.Values{"v": {"en"}, "a": {"m:e2e4,m:d7d5"}})
	if err != nil {
		t.Fatal(err)
	}
	if ng, err := svc.FromPly(en, 2, "en"); err != nil || ng.FEN() != "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2 Aa" {
		t.Errorf("EN-Chess from ply 2: %v, %v", ng, err)
	}
	_, err = svc.FromPly(en, 2, "ban")
	refused(t, "EN-Chess as Ban Chess", err, errs.Invalid, "bad_variant")
}

// TestImport: a FEN or a PGN, both of the variant given, or as the text
// says; of a PGN of several games, the one asked for.
func TestImport(t *testing.T) {
	svc := games.NewLoader(games.DefaultLimits())
	two := "[White \"Al\"]\n\n1. e4 e5 *\n\n[White \"Bo\"]\n\n1. d4 *\n"
	for _, c := range []struct {
		name, text, variant string
		n                   int
		want                func(*rules.Game) bool
	}{
		{"a FEN, Ban Chess", rules.StartFEN, "", 0, func(g *rules.Game) bool { return g.Variant().ID() == "ban" }},
		{"a FEN of a variant", rules.StartFEN, "classic", 0, func(g *rules.Game) bool { return g.Variant().ID() == "classic" }},
		{"a PGN decides", chessPGN, "", 0, func(g *rules.Game) bool { return g.Variant().ID() == "classic" && g.Record().FromChessGame() }},
		{"a PGN of the variant given", chessPGN, "classic", 0, func(g *rules.Game) bool { return g.Variant().ID() == "classic" && !g.Record().FromChessGame() }},
		{"the second game", two, "", 1, func(g *rules.Game) bool { return g.Record().Tags()[0].Value == "Bo" }},
	} {
		g, err := svc.Import(c.text, c.variant, c.n)
		if err != nil || !c.want(g) {
			t.Errorf("%s: %v, %v", c.name, g, err)
		}
	}
	for _, c := range []struct{ name, text, variant, detail string }{
		{"nothing", " ", "", ""},
		{"a bad variant", rules.StartFEN, "nope", "bad_variant"},
		{"a bad FEN", "8/8/8/8/8/8/8/8 w - - 0 1", "", "bad_fen"},
		{"a bad PGN", "1. e5", "", "bad_pgn"},
		{"an illegal move", "1. e4 e4 *", "classic", "bad_pgn"},
	} {
		_, err := svc.Import(c.text, c.variant, 0)
		refused(t, c.name, err, errs.Invalid, c.detail)
	}
}

// TestWithVariants: a service plays the variants it is given, a test's
// own among them, and names those its engine plays when refusing one.
func TestWithVariants(t *testing.T) {
	svc := newService(store.NewMemory(), games.WithLoader(games.NewLoader(games.DefaultLimits(), rulestest.Variants()...)), games.WithComputer(computer.New(engine.NewPool(1, 0, 4))))
	if got := svc.Loader().Variants(); len(got) != 4 || got[3] != (rulestest.NoFifty{}) {
		t.Fatalf("Variants: %v", got)
	}
	g, err := svc.Loader().NewGame("nofifty")
	if err != nil || g.Variant() != (rulestest.NoFifty{}) {
		t.Fatalf("NewGame: %v, %v", g, err)
	}
	if link := svc.Loader().Link(g); link != "a=&v=nofifty" {
		t.Errorf("Link: %s", link)
	}
	if again, err := svc.Loader().FromLink(url.Values{"v": {"nofifty"}, "a": {""}}); err != nil || again.Variant() != g.Variant() {
		t.Errorf("FromLink: %v, %v", again, err)
	}
	if _, err := games.NewLoader(games.DefaultLimits()).NewGame("nofifty"); errs.Of(err).Detail != "bad_variant" {
		t.Errorf("a service without it: %v", err)
	}
	_, _, err = svc.CreateBot(context.Background(), issue(t, svc), g, games.BotSettings{Level: 1})
	if e := errs.Of(err); e.Detail != "unsupported_variant" || e.Msg != "The computer plays Ban Chess, Classic and EN-Chess only, not Ban Chess without the fifty-move rule." {
		t.Errorf("CreateBot: %v", err)
	}
}
