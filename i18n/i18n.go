// Package i18n speaks the player's language: one catalog of messages per
// language (go-i18n's JSON format, embedded), the language chosen from a
// cookie or the browser's Accept-Language, plural forms by CLDR's rules,
// and a pseudo-locale that shows which text has no message.
//
// A message is looked up by its id; its text may hold placeholders written
// {{.Name}} (go-i18n's and most translation tools' form), filled from the
// name-value pairs a call passes.
package i18n

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Source is the language the messages are written in, and the one used
// for a message another catalog lacks.
const Source = "en"

// Pseudo is the pseudo-locale's tag: English accented and lengthened, for
// tests and translators; it is chosen only by name, never offered.
const Pseudo = "en-XA"

//go:embed catalogs/*.json
var catalogFiles embed.FS

// Language is one language's messages and how it is written.
type Language struct {
	// Code is the language's BCP 47 tag ("en", "pt-BR").
	Code string
	// Name is the language's name in itself ("Deutsch").
	Name string
	// RTL says the language is written right to left.
	RTL bool

	tag      language.Tag
	messages map[string]*entry
	fallback *Language // the source language; nil for the source itself
	numbers  *message.Printer
	// moves writes a move given in English SAN as the reader writes
	// moves (WithMoves); nil: as it is.
	moves func(san string) string
	// origin is the language WithMoves made l from; nil: l is its own.
	origin *Language
}

// WithMoves is l writing the moves its messages carry (Move) with
// write, which is given English SAN: the reader's piece letters or
// figurines.
func (l *Language) WithMoves(write func(san string) string) *Language {
	l = l.orSource()
	c := *l
	c.moves, c.origin = write, l.Origin()
	return &c
}

// Origin is the language l was made from by WithMoves, l itself if it
// was not: a key for what depends on l's messages alone, not on how it
// writes moves (each request's language is a copy of its catalog's).
func (l *Language) Origin() *Language {
	if l != nil && l.origin != nil {
		return l.origin
	}
	return l
}

// WriteMove is san (English SAN) as l's reader writes moves (WithMoves).
func (l *Language) WriteMove(san string) string {
	if l == nil || l.moves == nil {
		return san
	}
	return l.moves(san)
}

// entry is a message: its text in each plural form it has.
type entry struct {
	description string
	forms       map[plural.Form]text
}

// text is a message's text cut at its placeholders: literal and name
// alternate, starting with a literal.
type text []string

// Catalogs are the languages the server speaks.
type Catalogs struct {
	languages []*Language // offered, the source first
	pseudo    *Language
	matcher   language.Matcher
}

var builtin = sync.OnceValues(func() (*Catalogs, error) { return Load(catalogFiles) })

// Builtin is the catalogs embedded in the program, loaded once.
func Builtin() *Catalogs {
	c, err := builtin()
	if err != nil {
		// The embedded catalogs are checked by the tests: a fault here is
		// a build that must not run.
		panic(fmt.Sprintf("i18n: the embedded catalogs: %v", err))
	}
	return c
}

// Load reads every catalogs/*.json of files, one language each, named by
// its tag; the source language's file must be among them.
func Load(files fs.FS) (*Catalogs, error) {
	names, err := fs.Glob(files, "catalogs/*.json")
	if err != nil {
		return nil, err
	}
	byCode := map[string]*Language{}
	for _, name := range names {
		code := strings.TrimSuffix(path.Base(name), ".json")
		data, err := fs.ReadFile(files, name)
		if err != nil {
			return nil, err
		}
		l, err := parse(code, data)
		if err != nil {
			return nil, fmt.Errorf("catalog %s: %w", name, err)
		}
		byCode[code] = l
	}
	src := byCode[Source]
	if src == nil {
		return nil, fmt.Errorf("no catalog for the source language %q", Source)
	}
	c := &Catalogs{languages: []*Language{src}}
	for code, l := range byCode {
		if code != Source {
			l.fallback = src
			c.languages = append(c.languages, l)
		}
	}
	slices.SortFunc(c.languages[1:], func(a, b *Language) int { return strings.Compare(a.Code, b.Code) })
	tags := make([]language.Tag, len(c.languages))
	for i, l := range c.languages {
		tags[i] = l.tag
	}
	c.matcher = language.NewMatcher(tags)
	c.pseudo = pseudoOf(src)
	return c, nil
}

// Languages are the languages offered, the source first, then by code.
func (c *Catalogs) Languages() []*Language { return c.languages }

// Source is the source language.
func (c *Catalogs) Source() *Language { return c.languages[0] }

// Named is the language whose code is code (the pseudo-locale included),
// or nil.
func (c *Catalogs) Named(code string) *Language {
	if strings.EqualFold(code, Pseudo) {
		return c.pseudo
	}
	for _, l := range c.languages {
		if strings.EqualFold(l.Code, code) {
			return l
		}
	}
	return nil
}

// Choose is the language a viewer gets: the one chosen (a cookie's code)
// when the server speaks it, else the best match for the browser's
// Accept-Language header, else the source.
func (c *Catalogs) Choose(chosen, acceptLanguage string) *Language {
	if chosen != "" {
		if l := c.Named(chosen); l != nil {
			return l
		}
	}
	if acceptLanguage == "" {
		return c.Source()
	}
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return c.Source()
	}
	_, i, conf := c.matcher.Match(tags...)
	if conf == language.No {
		return c.Source()
	}
	return c.languages[i]
}

// catalogEntry is a message as a catalog file holds it: go-i18n's JSON
// form, a string or an object of plural forms and a description.
type catalogEntry struct {
	Description string `json:"description"`
	Zero        string `json:"zero"`
	One         string `json:"one"`
	Two         string `json:"two"`
	Few         string `json:"few"`
	Many        string `json:"many"`
	Other       string `json:"other"`
}

// parse reads one catalog.
func parse(code string, data []byte) (*Language, error) {
	tag, err := language.Parse(code)
	if err != nil {
		return nil, fmt.Errorf("the file's name is not a language tag: %w", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	l := &Language{Code: code, tag: tag, messages: make(map[string]*entry, len(raw)), numbers: message.NewPrinter(tag)}
	for id, r := range raw {
		var e catalogEntry
		if len(r) > 0 && r[0] == '"' {
			if err := json.Unmarshal(r, &e.Other); err != nil {
				return nil, fmt.Errorf("message %s: %w", id, err)
			}
		} else if err := json.Unmarshal(r, &e); err != nil {
			return nil, fmt.Errorf("message %s: %w", id, err)
		}
		if e.Other == "" {
			return nil, fmt.Errorf("message %s has no text (its \"other\" form)", id)
		}
		m := &entry{description: e.Description, forms: map[plural.Form]text{}}
		for form, s := range map[plural.Form]string{plural.Zero: e.Zero, plural.One: e.One, plural.Two: e.Two, plural.Few: e.Few, plural.Many: e.Many, plural.Other: e.Other} {
			if s == "" {
				continue
			}
			t, err := cut(s)
			if err != nil {
				return nil, fmt.Errorf("message %s: %w", id, err)
			}
			m.forms[form] = t
		}
		l.messages[id] = m
	}
	meta := l.messages["language.name"]
	if meta == nil {
		return nil, fmt.Errorf("no message language.name (the language's name in itself)")
	}
	l.Name = strings.Join(meta.forms[plural.Other], "")
	if d := l.messages["language.direction"]; d != nil {
		l.RTL = strings.Join(d.forms[plural.Other], "") == "rtl"
	}
	return l, nil
}

// cut splits s at its placeholders ({{.Name}}).
func cut(s string) (text, error) {
	var t text
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			return append(t, s), nil
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return nil, fmt.Errorf("%q opens a placeholder it does not close", s)
		}
		name := strings.TrimSpace(s[i+2 : i+j])
		if !strings.HasPrefix(name, ".") || len(name) < 2 || strings.ContainsAny(name[1:], " .|()") {
			return nil, fmt.Errorf("%q: a placeholder is written {{.Name}}", s)
		}
		t = append(t, s[:i], name[1:])
		s = s[i+j+2:]
	}
}

// Tag is the language's tag.
func (l *Language) Tag() language.Tag { return l.tag }

// Dir is the HTML dir attribute's value for the language.
func (l *Language) Dir() string {
	if l.RTL {
		return "rtl"
	}
	return "ltr"
}

// T is message id with its placeholders filled from args, name-value
// pairs ("Name", value, …). A message the language lacks is the source's;
// one the source lacks too is its id (the tests keep that from happening).
// A nil *Language is the source.
func (l *Language) T(id string, args ...any) string {
	return l.orSource().text(id, plural.Other, args)
}

// orSource is l, or the built-in source language for nil: a nil
// *Language speaks the source.
func (l *Language) orSource() *Language {
	if l == nil {
		return Builtin().Source()
	}
	return l
}

// N is T for a count: the plural form that n takes in the language, with
// {{.Count}} its number written as the language writes numbers.
func (l *Language) N(id string, n int, args ...any) string {
	l = l.orSource()
	form := plural.Cardinal.MatchPlural(l.tag, abs(n), 0, 0, 0, 0)
	return l.text(id, form, append(args, "Count", l.Number(n)))
}

// Ordinal is N for a rank ("2nd in line"): the form that n takes among
// the language's ordinals (CLDR's, English's one 1st, two 2nd, few 3rd,
// other 4th), with {{.Count}} its number.
func (l *Language) Ordinal(id string, n int, args ...any) string {
	l = l.orSource()
	form := plural.Ordinal.MatchPlural(l.tag, abs(n), 0, 0, 0, 0)
	return l.text(id, form, append(args, "Count", l.Number(n)))
}

// Number is n as the language writes it ("12,345", "12.345", "12 345").
func (l *Language) Number(n int) string {
	return l.orSource().numbers.Sprint(n)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func (l *Language) text(id string, form plural.Form, args []any) string {
	m := l.messages[id]
	if m == nil && l.fallback != nil {
		return l.fallback.text(id, form, args)
	}
	if m == nil {
		return id
	}
	t, ok := m.forms[form]
	if !ok {
		t = m.forms[plural.Other]
	}
	if len(t) == 1 {
		return t[0]
	}
	var b strings.Builder
	for i, part := range t {
		if i%2 == 0 {
			b.WriteString(part)
			continue
		}
		b.WriteString(lookup(args, part))
	}
	return b.String()
}

// lookup is the value named name among args' pairs, written as text.
func lookup(args []any, name string) string {
	for i := 0; i+1 < len(args); i += 2 {
		if k, _ := args[i].(string); k == name {
			if s, ok := args[i+1].(string); ok {
				return s
			}
			return fmt.Sprint(args[i+1])
		}
	}
	return "{{." + name + "}}"
}

type contextKey struct{}

// With is ctx carrying the viewer's language.
func With(ctx context.Context, l *Language) context.Context {
	return context.WithValue(ctx, contextKey{}, l)
}

// From is the language ctx carries, or the built-in source language.
func From(ctx context.Context) *Language {
	if l, ok := ctx.Value(contextKey{}).(*Language); ok && l != nil {
		return l
	}
	return Builtin().Source()
}

// formNames are CLDR's names of the plural forms, as scripts ask for them
// (Intl.PluralRules).
var formNames = map[plural.Form]string{plural.Zero: "zero", plural.One: "one", plural.Two: "two", plural.Few: "few", plural.Many: "many", plural.Other: "other"}

// Forms is message id's text in each plural form the language has, by
// CLDR's name of the form, its placeholders as written ({{.Count}}): for
// a script that counts in the page (with Intl.PluralRules).
func (l *Language) Forms(id string) map[string]string {
	l = l.orSource()
	m := l.messages[id]
	if m == nil && l.fallback != nil {
		return l.fallback.Forms(id)
	}
	out := map[string]string{}
	if m == nil {
		return out
	}
	for form, t := range m.forms {
		var b strings.Builder
		for i, part := range t {
			if i%2 == 1 {
				part = "{{." + part + "}}"
			}
			b.WriteString(part)
		}
		out[formNames[form]] = b.String()
	}
	return out
}
