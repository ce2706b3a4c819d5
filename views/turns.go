package views

import (
	"github.com/banchess/banchess/i18n"

	"context"
	"strings"
)

// awaitingKey keys, in a request's context, how to count the games
// awaiting the viewer's move.
type awaitingKey struct{}

// WithAwaiting returns ctx carrying n, which counts the games awaiting
// the viewer's move for the header's link to their games: called only
// when a page's layout is drawn (fragments never ask), so give it a
// count read once.
func WithAwaiting(ctx context.Context, n func() int) context.Context {
	return context.WithValue(ctx, awaitingKey{}, n)
}

// awaitingOf is the count ctx carries (WithAwaiting); 0 for none.
func awaitingOf(ctx context.Context) int {
	if n, ok := ctx.Value(awaitingKey{}).(func() int); ok {
		return n()
	}
	return 0
}

// awaitingText says how many games await the viewer's move.
func awaitingText(l *i18n.Language, n int) string {
	if n == 0 {
		return l.T("games.awaitingNone")
	}
	return l.N("games.awaiting", n)
}

// turnsTitle is the title of the page of the viewer's games: the count
// first, so that a tab says it.
func turnsTitle(l *i18n.Language, n int) string {
	if n > 0 {
		return "(" + l.Number(n) + ") " + l.T("games.pageTitle")
	}
	return l.T("games.pageTitle")
}

// ID is the game's id, from its URL ("/g/{id}").
func (l GameLink) ID() string {
	_, id, _ := strings.Cut(l.URL, "/g/")
	return id
}
