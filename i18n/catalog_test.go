package i18n

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/feature/plural"
)

// The six languages the issue asks for.
var wantLanguages = []string{"de", "en", "es", "fr", "he", "ru"}

// placeholders are the names of t's placeholders, sorted.
func placeholders(t text) []string {
	var names []string
	for i := 1; i < len(t); i += 2 {
		names = append(names, t[i])
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// TestCatalogsComplete: the embedded catalogs load; every language has
// every message of the source and no other; every form of a translation
// keeps the source's placeholders; every source message says where it
// appears.
func TestCatalogsComplete(t *testing.T) {
	c := Builtin()
	var codes []string
	for _, l := range c.Languages() {
		codes = append(codes, l.Code)
	}
	slices.Sort(codes)
	if !slices.Equal(codes, wantLanguages) {
		t.Fatalf("languages %v, want %v", codes, wantLanguages)
	}
	src := c.Source()
	for id, m := range src.messages {
		if len(m.description) < 10 {
			t.Errorf("en %s: no description of where it appears", id)
		}
	}
	for _, l := range c.Languages()[1:] {
		for id, m := range src.messages {
			tm := l.messages[id]
			if tm == nil {
				t.Errorf("%s lacks %s (%q)", l.Code, id, m.forms[plural.Other])
				continue
			}
			want := placeholders(m.forms[plural.Other])
			for form, txt := range tm.forms {
				got := placeholders(txt)
				if (form == plural.Zero || form == plural.One || form == plural.Two) && !slices.Contains(got, "Count") {
					// "a pawn", "deux pions": a form of one number may
					// say it in words.
					got = append(got, "Count")
					slices.Sort(got)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s %s (plural form %v): placeholders %v, want %v", l.Code, id, form, got, want)
				}
			}
		}
		for id := range l.messages {
			if src.messages[id] == nil {
				t.Errorf("%s has %s, which English has not", l.Code, id)
			}
		}
	}
}

// askedKeys matches the ids of messages as the code asks for them:
// tr(ctx, "id" in views, .T("id" and .N("id" elsewhere, i18n.Msg("id"
// and i18n.Counted("id" in services, and the ids
// for each side or phase, bySide(…, "id.w", "id.b") and byPhase(…).
var (
	askedKeys = regexp.MustCompile(`(?:\b(?:tr|rich)\(ctx, |\.T\(|\.N\(|\bi18n\.(?:Msg|Counted)\()"([a-z][a-zA-Z0-9.]*)"|\bby(?:Side|Phase|Color)\([^)]*\)`)
	literal   = regexp.MustCompile(`"([a-z][a-zA-Z0-9.]*)"`)
)

// TestMessagesUsed: every message the code asks for is in the source
// catalog, and every message of the source catalog is named in the code
// (the language's own name and direction aside).
func TestMessagesUsed(t *testing.T) {
	asked, used := map[string]bool{}, map[string]bool{} // ids asked for; every literal that could be one
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n != ".." && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		if strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_templ.go") || !(strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".templ")) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range askedKeys.FindAllStringSubmatch(string(data), -1) {
			if m[1] != "" {
				asked[m[1]] = true
				continue
			}
			for _, l := range literal.FindAllStringSubmatch(m[0], -1) {
				asked[l[1]] = true
			}
		}
		for _, m := range literal.FindAllStringSubmatch(string(data), -1) {
			used[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) < 20 {
		t.Fatalf("found %d messages asked for: not run from the i18n package?", len(asked))
	}
	src := Builtin().Source()
	for id := range asked {
		if src.messages[id] == nil {
			t.Errorf("the code asks for %s, which the English catalog lacks", id)
		}
	}
	for id := range src.messages {
		if !used[id] && id != "language.name" && id != "language.direction" {
			t.Errorf("%s is in the catalogs but no code asks for it", id)
		}
	}
}
