package views

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// spotURL writes a spot and its pending plies as a test's address.
func spotURL(s games.Spot, k int) templ.SafeURL {
	return templ.SafeURL("/a?line=" + LineParam(s.Line) + "&at=" + strconv.Itoa(s.N) + "&k=" + strconv.Itoa(k))
}

func TestLines(t *testing.T) {
	g, err := rules.FromPGN("1. {banning: e2e4} d4 $1 (1. c4 {banning: e7e5} (1... {banning: d7d5} e6) 1... d5) 1... {banning: e7e5} d5 {a comment} *", rules.PGNOptions{})
	if err != nil {
		t.Fatal(err)
	}
	nested := games.Spot{Line: rules.Path{{After: 1, Index: 0}, {After: 1, Index: 0}}, N: 1}
	e6, err := rules.ParseAction("m:e7e6")
	if err != nil {
		t.Fatal(err)
	}
	ls, err := NewLines(i18n.Builtin().Source(), g, nested, []rules.Action{e6}, spotURL)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := lineBoard(LineBoard{Lines: ls}).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(textOf(b.String())), " ")
	want := "Start 1. ⊘e4 d4 ! ( 1. c4 ⊘e5 ( 1… ⊘d5 e6 ) d5 ) ⊘e5 d5 a comment"
	if !strings.Contains(text, want) {
		t.Errorf("the lines read\n%s\nwant\n%s", text, want)
	}
	if !strings.Contains(text, "not kept with the game: 1… e6") {
		t.Errorf("the pending line: %s", text)
	}
	for _, href := range []string{`href="/a?line=1.0,1.0&amp;at=1&amp;k=0"`, `href="/a?line=1.0,1.0&amp;at=1&amp;k=1"`, `href="/a?line=&amp;at=4&amp;k=0"`} {
		if !strings.Contains(b.String(), href) {
			t.Errorf("no %s in\n%s", href, b.String())
		}
	}
	if n := strings.Count(b.String(), `aria-current="step"`); n != 1 {
		t.Errorf("%d current plies", n)
	}
	if _, err := NewLines(i18n.Builtin().Source(), g, games.Spot{Line: rules.Path{{After: 3, Index: 0}}}, nil, spotURL); err == nil {
		t.Error("a spot on no line was listed")
	}
}

// textOf strips the tags from HTML.
func textOf(html string) string {
	var b strings.Builder
	in := false
	for _, r := range html {
		switch {
		case r == '<':
			in = true
			b.WriteByte(' ')
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}
