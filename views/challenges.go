package views

import (
	"context"
	"net/url"
)

// Challenges is the /challenges page: the viewer's open challenges, those
// they received (to accept or decline) and those they made (to cancel).
type Challenges struct {
	Asset string
	// Named says the viewer has a name: only they challenge and are
	// challenged.
	Named   bool
	In, Out []ChallengeRow
	// List is the address the page's list is read again from (htmx polls
	// it), with the page's since.
	List string
	// Error is a refusal to show.
	Error string
	// Open is the form that makes an open challenge; nil: none.
	Open *OpenForm
	// Declined are the viewer's challenges declined since the page was
	// opened, each with its Reason (lichess's key).
	Declined []ChallengeRow
}

// challengeDeclinedText says that r was declined, and why, in the viewer's
// language.
func challengeDeclinedText(ctx context.Context, r ChallengeRow) string {
	reason := "challenge.reason.generic"
	for _, d := range DeclineReasons() {
		if d[0] == r.Reason {
			reason = d[1]
		}
	}
	return tr(ctx, "challenge.declined", "Name", r.Name, "Reason", tr(ctx, reason))
}

// Waiting says the viewer waits for an answer: the page without scripts
// reloads itself, to follow its challenger to the game.
func (c Challenges) Waiting() bool { return len(c.Out) > 0 }

// ChallengeRow is one open challenge, as its viewer sees it.
type ChallengeRow struct {
	ID string
	// Name is the other player's, Rating theirs in the challenge's
	// variant and speed ("1500?"), Bot whether they are a bot account.
	Name, Rating string
	Bot          bool
	// Color is the viewer's side: "white", "black" or "random".
	Color string
	// Variant is the variant's name, Clock the clock ("5+3", "3d"; ""
	// for none), Rated whether the game is rated: the terms, for the
	// banner to say in the viewer's language.
	Variant, Clock string
	Rated          bool
	// Link is an open challenge's link, to share ("" for a challenge
	// to a player).
	Link string
	// Reason is a declined challenge's reason (lichess's key).
	Reason string
}

// ChallengeForm is the form on a profile to challenge its player.
type ChallengeForm struct {
	Dest     string
	Variants []Variant
	// Clocks are the clocks offered ("5+3"), "" first for none.
	Clocks []string
	// Named says the viewer may play rated games.
	Named bool
}

// Incoming is the banner of the challenges the viewer received, shown
// under the header of every page of a player with a name
// (WithIncoming): each with Accept and Decline (for a reason), read again
// every IncomingEvery with htmx.
type Incoming struct {
	In []ChallengeRow
	// Back is the page the banner is on, where a decline comes back to.
	Back string
}

// IncomingEvery is how often, in seconds, a page reads its banner of
// incoming challenges again.
const IncomingEvery = "2s"

// Have is the banner's challenges' ids, comma-separated: the banner asks
// for itself again with them, and is answered "no change" (204) while
// they stand.
func (in Incoming) Have() string {
	s := ""
	for i, r := range in.In {
		if i > 0 {
			s += ","
		}
		s += r.ID
	}
	return s
}

// poll is the address the banner is read again from.
func (in Incoming) poll() string {
	return "/challenges/incoming?have=" + url.QueryEscape(in.Have()) // the page it is on: htmx's HX-Current-URL
}

// incomingKey keys, in a request's context, how to read the viewer's
// banner of incoming challenges.
type incomingKey struct{}

// WithIncoming returns ctx carrying in, read only when a page's layout
// is drawn: in returns nil for a viewer shown no banner (no name).
func WithIncoming(ctx context.Context, in func() *Incoming) context.Context {
	return context.WithValue(ctx, incomingKey{}, in)
}

// incomingOf is the banner ctx carries (WithIncoming); nil for none.
func incomingOf(ctx context.Context) *Incoming {
	if in, ok := ctx.Value(incomingKey{}).(func() *Incoming); ok {
		return in()
	}
	return nil
}

// DeclineReasons are the reasons the banner offers to decline with:
// lichess's keys, and their message ids.
func DeclineReasons() [][2]string {
	return [][2]string{{"generic", "challenge.reason.generic"}, {"later", "challenge.reason.later"},
		{"tooFast", "challenge.reason.tooFast"}, {"tooSlow", "challenge.reason.tooSlow"},
		{"timeControl", "challenge.reason.timeControl"}, {"rated", "challenge.reason.rated"},
		{"casual", "challenge.reason.casual"}, {"standard", "challenge.reason.standard"},
		{"variant", "challenge.reason.variant"}}
}

// bannerTerms says what r asks for in the viewer's language: "Ban Chess
// · 5+3 · rated · you play White".
func bannerTerms(ctx context.Context, r ChallengeRow) string {
	clock := ControlLabel(lang(ctx), r.Clock)
	if clock == "" {
		clock = tr(ctx, "challenge.banner.noClock")
	}
	kind := tr(ctx, "challenge.banner.casual")
	if r.Rated {
		kind = tr(ctx, "challenge.banner.rated")
	}
	side := tr(ctx, "challenge.banner.random")
	switch r.Color {
	case "white":
		side = tr(ctx, "challenge.banner.white")
	case "black":
		side = tr(ctx, "challenge.banner.black")
	}
	return r.Variant + " · " + clock + " · " + kind + " · " + side
}
