package views

import (
	"context"
	"encoding/json"

	"github.com/banchess/banchess/i18n"
)

// tr is message id of the viewer's language (i18n.From(ctx)), its
// placeholders filled from args' name-value pairs.
func tr(ctx context.Context, id string, args ...any) string {
	return i18n.From(ctx).T(id, args...)
}

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
