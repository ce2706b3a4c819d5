package notify

import (
	"context"
	"slices"
	"testing"

	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/tournament"
)

// named are players by id; "anon" has no name. Credentials are ids.
type named map[string]string

func (n named) Player(_ context.Context, id string) (players.Player, error) {
	return players.Player{ID: id, Name: n[id]}, nil
}

func (n named) Identify(_ context.Context, cred players.Credential) (players.Player, error) {
	return players.Player{ID: string(cred), Name: n[string(cred)]}, nil
}

func newService() *Service {
	return New(NewMemory(), named{"w": "White", "b": "Black"})
}

// kinds lists the kinds of player's notifications, newest first.
func kinds(t *testing.T, s *Service, player string) []Kind {
	t.Helper()
	in, err := s.Inbox(context.Background(), players.Credential(player))
	if err != nil {
		t.Fatal(err)
	}
	var out []Kind
	for _, n := range in.Notifications {
		out = append(out, n.Kind)
	}
	return out
}

// TestGameChanges: who a change to a game tells of what.
func TestGameChanges(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change games.Change
		w, b   []Kind
	}{
		{"a correspondence move tells the opponent, not the mover", games.Change{By: "w", Turn: "b", Correspondence: true}, nil, []Kind{YourTurn}},
		{"a live game's turn tells no one", games.Change{By: "w", Turn: "b"}, nil, nil},
		{"an end tells the other player", games.Change{By: "b", Ended: true}, []Kind{GameEnded}, nil},
		{"an end by the clock tells both", games.Change{Ended: true}, []Kind{GameEnded}, []Kind{GameEnded}},
		{"a forecast played tells its author, not of their turn", games.Change{By: "w", Turn: "b", Forecast: "b", Correspondence: true}, nil, []Kind{ForecastUsed}},
		{"a forecast's reply to the mover tells them it is their turn", games.Change{By: "b", Turn: "b", Forecast: "w", Correspondence: true}, []Kind{ForecastUsed}, []Kind{YourTurn}},
		{"an unnamed player is told nothing", games.Change{By: "w", Turn: "anon", Correspondence: true}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newService()
			c := tc.change
			c.ID, c.White = "g1", "w"
			if c.Black = "b"; c.Turn == "anon" {
				c.Black = "anon"
			}
			if err := s.Game(context.Background(), c); err != nil {
				t.Fatal(err)
			}
			if got := kinds(t, s, "w"); !slices.Equal(got, tc.w) {
				t.Errorf("white told %v, want %v", got, tc.w)
			}
			if got := kinds(t, s, "b"); !slices.Equal(got, tc.b) {
				t.Errorf("black told %v, want %v", got, tc.b)
			}
		})
	}
}

// TestChallengeAndSettings: a challenge tells its receiver, and not once
// they turned challenges off; the inbox marks one and all read.
func TestChallengeAndSettings(t *testing.T) {
	s, ctx := newService(), context.Background()
	c := challenges.Challenge{ID: "c1", Status: challenges.Created, Challenger: challenges.Side{ID: "w", Name: "White"}, Dest: challenges.Side{ID: "b", Name: "Black"}}
	if err := s.Challenge(ctx, c); err != nil {
		t.Fatal(err)
	}
	if got := kinds(t, s, "b"); !slices.Equal(got, []Kind{Challenge}) {
		t.Fatalf("receiver told %v", got)
	}
	if got := kinds(t, s, "w"); got != nil {
		t.Errorf("challenger told %v", got)
	}
	if err := s.SetSettings(ctx, "b", []string{string(YourTurn)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Challenge(ctx, c); err != nil {
		t.Fatal(err)
	}
	if got := kinds(t, s, "b"); len(got) != 1 {
		t.Errorf("a kind turned off still told: %v", got)
	}
	if st, _ := s.Settings(ctx, "b"); st.Notifies(Challenge) || !st.Notifies(YourTurn) {
		t.Errorf("settings %+v", st)
	}
	if n, _, _ := s.Unread(ctx, "b"); n != 1 {
		t.Errorf("unread %d, want 1", n)
	}
	if err := s.MarkRead(ctx, "b", nil); err != nil {
		t.Fatal(err)
	}
	if n, _, _ := s.Unread(ctx, "b"); n != 0 {
		t.Errorf("unread %d after marking all read", n)
	}
}

// TestRefusals: bad input is refused with a code and changes nothing.
func TestRefusals(t *testing.T) {
	s, ctx := newService(), context.Background()
	many := make([]string, MaxIDs+1)
	for _, tc := range []struct {
		name string
		err  error
		code errs.Code
	}{
		{"an unnamed player's inbox", func() error { _, err := s.Inbox(ctx, "anon"); return err }(), errs.Forbidden},
		{"an unknown kind", s.SetSettings(ctx, "w", []string{"nope"}), errs.Invalid},
		{"no ids", s.MarkRead(ctx, "w", []string{}), errs.Invalid},
		{"too many ids", s.MarkRead(ctx, "w", many), errs.Invalid},
	} {
		if e := errs.Of(tc.err); tc.err == nil || e.Code != tc.code {
			t.Errorf("%s: %v, want %s", tc.name, tc.err, tc.code)
		}
	}
	if st, _ := s.Settings(ctx, "w"); len(st.Off) != 0 {
		t.Errorf("a refused setting changed them: %+v", st)
	}
	if n, ok, err := s.Unread(ctx, "anon"); n != 0 || ok || err != nil {
		t.Errorf("an unnamed player's count: %d, %v, %v", n, ok, err)
	}
}

// TestTournamentStarting: a tournament starting tells its players, not
// those who withdrew.
func TestTournamentStarting(t *testing.T) {
	s := newService()
	tr := &tournament.Tournament{ID: "t1", Name: "Arena", Players: []tournament.Player{{ID: "w"}, {ID: "b", Paused: true}}}
	if err := s.Tournament(context.Background(), tr); err != nil {
		t.Fatal(err)
	}
	if got := kinds(t, s, "w"); !slices.Equal(got, []Kind{TournamentStarting}) {
		t.Errorf("a player told %v", got)
	}
	if got := kinds(t, s, "b"); got != nil {
		t.Errorf("a player who withdrew told %v", got)
	}
}

// TestNotificationMessages: a notification keeps its text as a message,
// said in the reader's language; its text is the English; one stored
// without a message says its text.
func TestNotificationMessages(t *testing.T) {
	s := newService()
	if err := s.Game(context.Background(), games.Change{ID: "g1", By: "w", Turn: "b", Correspondence: true}); err != nil {
		t.Fatal(err)
	}
	in, err := s.Inbox(context.Background(), players.Credential("b"))
	if err != nil || len(in.Notifications) != 1 {
		t.Fatalf("inbox %+v, %v", in, err)
	}
	n := in.Notifications[0]
	de := i18n.Builtin().Named("de")
	if n.Text != "It is your turn in game g1." || n.Say(de) != "Du bist in der Partie g1 am Zug." {
		t.Errorf("text %q, in German %q", n.Text, n.Say(de))
	}
	if old := (Notification{Text: "Old text."}); old.Say(de) != "Old text." {
		t.Errorf("a notification without a message says %q", old.Say(de))
	}
}
