package handlers

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/tournament"
)

// TestScheduledArenaInLanguage (issue 43): an arena the server's schedule
// made (stored with its English name, no creator) is named in the
// reader's language in the list, on its page, in its players'
// notifications and on their profiles once it ended (the stored name,
// which the JSON API sends, stays English); in the pseudo-locale the
// list shows no word from outside the catalogs.
func TestScheduledArenaInLanguage(t *testing.T) {
	s := newArenaSite(t)
	ctx := context.Background()
	arena := &tournament.Tournament{Kind: tournament.Arena, Name: "Ban Chess arena", Variant: "ban", Minutes: 20, Rated: true,
		Starts: s.clock(), Status: tournament.Created, Clock: games.TimeControl{Initial: 3 * time.Minute, Increment: 2 * time.Second}}
	if err := s.st.Tournaments().CreateTournament(ctx, arena); err != nil {
		t.Fatal(err)
	}
	page := "/tournament/" + arena.ID
	ann, bob := newClientOn(t, s.e), newClientOn(t, s.e)
	ann.register("Ann")
	bob.register("Bob")
	ann.post(page+"/join", nil)
	bob.post(page+"/join", nil)
	s.tick()
	for _, tc := range []struct{ accept, want string }{
		{"en", "Ban Chess arena"},
		{"de", "Ban-Chess-Arena"},
		{"ru", "Арена Ban Chess"},
	} {
		if got := text(parse(t, ann.navigate("/tournaments", "Accept-Language", tc.accept)), `[data-tournament="`+arena.ID+`"] .game-title`); got != tc.want {
			t.Errorf("the list in %s: %q, want %q", tc.accept, got, tc.want)
		}
		if got := text(parse(t, ann.navigate(page, "Accept-Language", tc.accept)), "h1"); got != tc.want {
			t.Errorf("its page in %s: %q, want %q", tc.accept, got, tc.want)
		}
		if got := text(parse(t, ann.navigate("/inbox", "Accept-Language", tc.accept)), "main"); !strings.Contains(got, tc.want) {
			t.Errorf("Ann's notification in %s does not name %q: %q", tc.accept, tc.want, got)
		}
	}
	pseudoCheckParts(t, pseudo(newClientOn(t, s.e)), "/tournaments", `[data-tournament="`+arena.ID+`"] .game-title`, 1)
	s.advance(21 * time.Minute)
	s.tick()
	s.advance(10 * time.Minute)
	s.tick()
	if got := text(parse(t, ann.navigate("/@/Ann", "Accept-Language", "fr")), ".tournament-results"); !strings.Contains(got, "Arène Ban Chess") {
		t.Errorf("Ann's profile in French: %q", got)
	}
}
