package views

import (
	"context"

	"github.com/banchess/banchess/i18n"
)

// Bell is the header's bell: whether the viewer has a name (no bell
// without one) and how many of their notifications are unread.
type Bell struct {
	Named  bool
	Unread int
}

// bellKey keys, in a request's context, how to read the viewer's Bell.
type bellKey struct{}

// WithBell returns ctx carrying b, read only when a page's layout is
// drawn: give it a count read once.
func WithBell(ctx context.Context, b func() Bell) context.Context {
	return context.WithValue(ctx, bellKey{}, b)
}

// bellOf is the Bell ctx carries (WithBell); none shown without one.
func bellOf(ctx context.Context) Bell {
	if b, ok := ctx.Value(bellKey{}).(func() Bell); ok {
		return b()
	}
	return Bell{}
}

// bellLabel is the bell's accessible name: how many notifications are
// unread.
func bellLabel(l *i18n.Language, n int) string {
	if n == 0 {
		return l.T("inbox.none")
	}
	return l.N("inbox.unread", n)
}

// Notice is one notification as the inbox lists it.
type Notice struct {
	ID, Kind, Text, Link string
	// Time is when it came, as the viewer's language writes it; Ago is
	// how long ago (AgoText); When is the same in RFC 3339, for <time
	// datetime>.
	Time, Ago, When string
	Read            bool
}

// NoticeKind is a kind of notification and whether it notifies.
type NoticeKind struct {
	ID, Label string
	On        bool
}

// Inbox is the viewer's notifications page (/inbox).
type Inbox struct {
	Site
	Notices []Notice
	Unread  int
	Kinds   []NoticeKind
	Saved   bool // the settings were just saved
}

// inboxTitle is the inbox page's title, with the unread count first.
func inboxTitle(l *i18n.Language, n int) string {
	if n > 0 {
		return "(" + l.Number(n) + ") " + l.T("inbox.pageTitle")
	}
	return l.T("inbox.pageTitle")
}
