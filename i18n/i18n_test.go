package i18n

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"
)

// testCatalogs are small catalogs for the package's own rules.
func testCatalogs(t *testing.T) *Catalogs {
	t.Helper()
	c, err := Load(fstest.MapFS{
		"catalogs/en.json": {Data: []byte(`{
			"language.name": "English",
			"hello": {"description": "a greeting", "other": "Hello, {{.Name}}!"},
			"games": {"description": "a count", "one": "{{.Count}} game", "other": "{{.Count}} games"}}`)},
		"catalogs/ru.json": {Data: []byte(`{
			"language.name": "Русский",
			"games": {"one": "{{.Count}} игра", "few": "{{.Count}} игры", "many": "{{.Count}} игр", "other": "{{.Count}} игры"}}`)},
		"catalogs/he.json": {Data: []byte(`{"language.name": "עברית", "language.direction": "rtl", "hello": "שלום, {{.Name}}!"}`)},
		"catalogs/de.json": {Data: []byte(`{"language.name": "Deutsch", "hello": "Hallo, {{.Name}}!"}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestChoose(t *testing.T) {
	c := testCatalogs(t)
	for _, tc := range []struct {
		chosen, accept, want string
	}{
		{"", "", "en"},
		{"", "de-DE,de;q=0.9,en;q=0.8", "de"},
		{"", "fr-FR,fr;q=0.9,ru;q=0.5", "ru"}, // French is not spoken: the next asked for
		{"", "he-IL", "he"},
		{"", "pt-BR", "en"},
		{"", "x;;garbage===", "en"},
		{"ru", "de", "ru"},     // a choice beats the browser
		{"RU", "", "ru"},       // codes are matched without case
		{"xx", "de", "de"},     // an unknown choice is ignored
		{"en-XA", "", "en-XA"}, // the pseudo-locale only by name
		{"", "en-XA", "en"},    // never offered to a browser
		{"", "*", "en"},
	} {
		if got := c.Choose(tc.chosen, tc.accept).Code; got != tc.want {
			t.Errorf("Choose(%q, %q) = %s, want %s", tc.chosen, tc.accept, got, tc.want)
		}
	}
	var codes []string
	for _, l := range c.Languages() {
		codes = append(codes, l.Code)
	}
	if strings.Join(codes, " ") != "en de he ru" {
		t.Errorf("languages offered: %v, want the source first, then by code", codes)
	}
}

func TestPlurals(t *testing.T) {
	c := testCatalogs(t)
	ru, en := c.Named("ru"), c.Named("en")
	for _, tc := range []struct {
		l    *Language
		n    int
		want string
	}{
		{en, 1, "1 game"}, {en, 0, "0 games"}, {en, 2, "2 games"}, {en, 1000, "1,000 games"},
		{ru, 1, "1 игра"}, {ru, 2, "2 игры"}, {ru, 5, "5 игр"}, {ru, 11, "11 игр"},
		{ru, 21, "21 игра"}, {ru, 22, "22 игры"}, {ru, 25, "25 игр"}, {ru, 0, "0 игр"},
		{ru, 101, "101 игра"}, {ru, 111, "111 игр"}, {ru, 1000, "1\u00a0000 игр"},
	} {
		if got := tc.l.N("games", tc.n); got != tc.want {
			t.Errorf("%s N(games, %d) = %q, want %q", tc.l.Code, tc.n, got, tc.want)
		}
	}
}

func TestText(t *testing.T) {
	c := testCatalogs(t)
	de, he, ru := c.Named("de"), c.Named("he"), c.Named("ru")
	for _, tc := range []struct {
		got, want string
	}{
		{de.T("hello", "Name", "Ada"), "Hallo, Ada!"},
		{he.T("hello", "Name", "Ada"), "שלום, Ada!"},
		{ru.T("hello", "Name", "Ada"), "Hello, Ada!"}, // missing: the source's
		{de.T("nothing"), "nothing"},                  // missing everywhere: the id
		{de.T("hello"), "Hallo, {{.Name}}!"},          // a value not given shows its place
		{de.T("hello", "Name", 7), "Hallo, 7!"},       // any value
		{de.Number(12345), "12.345"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if he.Dir() != "rtl" || de.Dir() != "ltr" || he.Name != "עברית" {
		t.Errorf("Hebrew %s %q, German %s", he.Dir(), he.Name, de.Dir())
	}
	if got := From(With(context.Background(), de)); got != de {
		t.Errorf("From(With(de)) = %v", got)
	}
	if got := From(context.Background()); got.Code != Source {
		t.Errorf("From(no language) = %s, want the built-in source", got.Code)
	}
}

func TestPseudo(t *testing.T) {
	c := testCatalogs(t)
	p := c.Named(Pseudo)
	got := p.T("hello", "Name", "Ada")
	if got != "[!! Ĥéļļö, Ada!~~~~ !!]" {
		t.Errorf("pseudo hello = %q", got)
	}
	if got := p.N("games", 3); !strings.Contains(got, "3 ĝàɱéš") || !strings.HasPrefix(got, "[!! ") {
		t.Errorf("pseudo games = %q", got)
	}
}

func TestBadCatalogs(t *testing.T) {
	for name, files := range map[string]fstest.MapFS{
		"no source":          {"catalogs/de.json": {Data: []byte(`{"language.name": "Deutsch"}`)}},
		"not JSON":           {"catalogs/en.json": {Data: []byte(`{`)}},
		"no name":            {"catalogs/en.json": {Data: []byte(`{"a": "b"}`)}},
		"no other form":      {"catalogs/en.json": {Data: []byte(`{"language.name": "English", "a": {"one": "b"}}`)}},
		"unclosed":           {"catalogs/en.json": {Data: []byte(`{"language.name": "English", "a": "{{.X"}`)}},
		"not a placeholder":  {"catalogs/en.json": {Data: []byte(`{"language.name": "English", "a": "{{ printf }}"}`)}},
		"not a language tag": {"catalogs/en.json": {Data: []byte(`{"language.name": "English"}`)}, "catalogs/zz-!!.json": {Data: []byte(`{"language.name": "?"}`)}},
	} {
		if _, err := Load(files); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}

func TestForms(t *testing.T) {
	c := testCatalogs(t)
	got := c.Named("ru").Forms("games")
	if len(got) != 4 || got["few"] != "{{.Count}} игры" || got["many"] != "{{.Count}} игр" {
		t.Errorf("ru forms of games: %v", got)
	}
	if got := c.Named("de").Forms("games"); got["one"] != "{{.Count}} game" {
		t.Errorf("de forms of games (the source's): %v", got)
	}
}

// TestMessage: a message says its text in each language, with messages
// among its values said in that language too, its plural form by its
// count; kept as JSON and read back, it says the same.
func TestMessage(t *testing.T) {
	c := Builtin()
	de := c.Named("de")
	m := Msg("lesson.goal.notMate", "Action", Msg("lesson.banOfStart", "Pair", "e2–e4"), "WaysOut", Counted("lesson.ways.few", 2, "Pairs", Msg("lesson.list", "Names", "e8–d8", "Last", "e8–f8")))
	en := m.String()
	if en != "The ban of e2–e4 does not checkmate: your opponent has 2 ways out (e8–d8 and e8–f8): a ban takes away only one." {
		t.Errorf("in English: %q", en)
	}
	if got := de.Say(m); got == en || strings.Contains(got, "{{") || strings.Contains(got, "lesson.") {
		t.Errorf("in German: %q", got)
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back Message
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.String() != en || de.Say(back) != de.Say(m) {
		t.Errorf("read back from %s: %q", data, back.String())
	}
	if Verbatim("Nf3").String() != "Nf3" || (Message{}).String() != "" || !(Message{}).IsZero() {
		t.Error("a verbatim or empty message")
	}
	if got := Counted("lesson.goal.loses", 1, "Action", Verbatim("Nf3")).String(); got != "After Nf3, best play loses you 1 pawn." {
		t.Errorf("counted: %q", got)
	}
}

// TestMoveMessage: a move is said as the language writes moves
// (WithMoves), as it is without a writer, and keeps being a move once
// stored as JSON.
func TestMoveMessage(t *testing.T) {
	m := Msg("lesson.goal.loses", "Action", Move("Nf3"))
	l := Builtin().Source().WithMoves(func(san string) string { return "<" + san + ">" })
	if got := l.Say(Move("Nf3")); got != "<Nf3>" {
		t.Errorf("a move said with a writer: %q", got)
	}
	if got := Builtin().Source().Say(Move("Nf3")); got != "Nf3" {
		t.Errorf("a move said without one: %q", got)
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back Message
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if inner, ok := back.Arg("Action").(Message); !ok || !inner.Move || l.Say(inner) != "<Nf3>" {
		t.Errorf("read back from %s: %+v", data, back)
	}
}
