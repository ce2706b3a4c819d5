package views

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"strings"

	"github.com/a-h/templ"

	"github.com/banchess/banchess/i18n"
)

// tr is message id of the viewer's language (i18n.From(ctx)), its
// placeholders filled from args' name-value pairs.
func tr(ctx context.Context, id string, args ...any) string {
	return i18n.From(ctx).T(id, args...)
}

// say is m in the viewer's language.
func say(ctx context.Context, m i18n.Message) string { return i18n.From(ctx).Say(m) }

// lang is the viewer's language.
func lang(ctx context.Context) *i18n.Language { return i18n.From(ctx) }

// formsJSON is message id's plural forms as JSON, for a script that
// counts in the page (static/live.js).
func formsJSON(l *i18n.Language, id string) string {
	b, _ := json.Marshal(l.Forms(id)) // a map of strings always encodes
	return string(b)
}

// languages are the languages the picker offers.
func languages() []*i18n.Language { return i18n.Builtin().Languages() }

// rich is message id as HTML: its text escaped, then **bold**, *emphasis*
// and `code` marked up (the catalogs' prose keeps those marks).
func rich(ctx context.Context, id string, args ...any) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		_, err := io.WriteString(w, markup(tr(ctx, id, args...)))
		return err
	})
}

// markup escapes s and turns its marks into HTML elements: `code` (whose
// text is left as it is), then **bold** and *emphasis*; an unclosed mark
// stays as written.
func markup(s string) string {
	var b strings.Builder
	parts := strings.Split(html.EscapeString(s), "`")
	for i, part := range parts {
		switch {
		case i%2 == 1 && i < len(parts)-1:
			b.WriteString("<code>" + part + "</code>")
		case i%2 == 1:
			b.WriteString("`" + emphasis(part))
		default:
			b.WriteString(emphasis(part))
		}
	}
	return b.String()
}

// emphasis marks up **bold** and *emphasis* in s.
func emphasis(s string) string {
	for _, m := range []struct{ mark, open, close string }{{"**", "<strong>", "</strong>"}, {"*", "<em>", "</em>"}} {
		var b strings.Builder
		for {
			i := strings.Index(s, m.mark)
			if i < 0 {
				break
			}
			j := strings.Index(s[i+len(m.mark):], m.mark)
			if j < 0 {
				break
			}
			b.WriteString(s[:i] + m.open + s[i+len(m.mark):i+len(m.mark)+j] + m.close)
			s = s[i+2*len(m.mark)+j:]
		}
		b.WriteString(s)
		s = b.String()
	}
	return s
}
