package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/notify"
)

// notifyStores open each store's notifications.
var notifyStores = []struct {
	name string
	open func(t testing.TB) notify.Store
}{
	{"memory", func(testing.TB) notify.Store { return Notifications(NewMemory()) }},
	{"sqlite", func(t testing.TB) notify.Store {
		s, err := OpenSQLite(context.Background(), ":memory:", Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return Notifications(s)
	}},
	{"postgres", func(t testing.TB) notify.Store {
		return Notifications(openPostgres(t, PostgresOptions{}, pg.Server(t).Schema(t)))
	}},
}

// TestNotifyStores: notifications read back newest first, a player's
// own only; only the newest keep are kept; unread counts; marking one
// and then all read; settings round-trip, none by default.
func TestNotifyStores(t *testing.T) {
	for _, st := range notifyStores {
		t.Run(st.name, func(t *testing.T) {
			if st.name == "postgres" && testing.Short() {
				t.Skip("starts PostgreSQL")
			}
			s, ctx := st.open(t), context.Background()
			at := time.UnixMilli(1_800_000_000_000).UTC()
			for i := range 5 {
				n := notify.Notification{ID: fmt.Sprintf("n%d", i), Player: "p1", Kind: notify.YourTurn, Text: "t", Message: i18n.Msg("notice.yourTurn", "Game", "x"), Link: "/g/x", Time: at.Add(time.Duration(i) * time.Second)}
				if err := s.AddNotification(ctx, n, 3); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.AddNotification(ctx, notify.Notification{ID: "o", Player: "p2", Kind: notify.Challenge, Time: at}, 3); err != nil {
				t.Fatal(err)
			}
			list, err := s.Notifications(ctx, "p1", 10)
			var ids []string
			for _, n := range list {
				ids = append(ids, n.ID)
			}
			if err != nil || !slices.Equal(ids, []string{"n4", "n3", "n2"}) {
				t.Fatalf("listed %q, %v; want the newest 3", ids, err)
			}
			if list[0].Kind != notify.YourTurn || list[0].Link != "/g/x" || !list[0].Time.Equal(at.Add(4*time.Second)) || list[0].Read {
				t.Errorf("read back %+v", list[0])
			}
			if m := list[0].Message; m.ID != "notice.yourTurn" || m.Arg("Game") != "x" {
				t.Errorf("read back the message %+v", m)
			}
			if o, err := s.Notifications(ctx, "p2", 1); err != nil || len(o) != 1 || !o[0].Message.IsZero() {
				t.Errorf("a notification without a message read back as %+v, %v", o, err)
			}
			count := func(want int) {
				t.Helper()
				if n, err := s.UnreadNotifications(ctx, "p1"); err != nil || n != want {
					t.Errorf("unread = %d, %v; want %d", n, err, want)
				}
			}
			count(3)
			if err := s.MarkNotificationsRead(ctx, "p1", []string{"n3", "o"}); err != nil {
				t.Fatal(err)
			}
			count(2)
			if n, _ := s.UnreadNotifications(ctx, "p2"); n != 1 {
				t.Errorf("another player's read: %d unread", n)
			}
			if err := s.MarkNotificationsRead(ctx, "p1", nil); err != nil {
				t.Fatal(err)
			}
			count(0)
			if st, err := s.NotifySettings(ctx, "p1"); err != nil || len(st.Off) != 0 {
				t.Errorf("default settings %+v, %v", st, err)
			}
			want := notify.Settings{Off: []notify.Kind{notify.GameEnded, notify.Challenge}}
			for range 2 {
				if err := s.SetNotifySettings(ctx, "p1", want); err != nil {
					t.Fatal(err)
				}
			}
			if got, err := s.NotifySettings(ctx, "p1"); err != nil || !slices.Equal(got.Off, want.Off) {
				t.Errorf("settings %+v, %v; want %+v", got, err, want)
			}
		})
	}
}

// TestUnreadCountIndexed: the header's count reads the index alone.
func TestUnreadCountIndexed(t *testing.T) {
	s := openSQLite(t, ":memory:", Options{})
	if plan := sqlitePlan(t, s, strings.ReplaceAll(unreadSQL, "$1", "?"), "ann"); !strings.Contains(plan, "COVERING INDEX notifications_unread") {
		t.Errorf("%s\nis planned as\n%s", unreadSQL, plan)
	}
}

// BenchmarkUnreadNotifications measures the header's count on SQLite,
// with 100 notifications each for 100 players.
func BenchmarkUnreadNotifications(b *testing.B) {
	s, ctx := notifyStores[1].open(b), context.Background()
	at := time.UnixMilli(1_800_000_000_000)
	for p := range 100 {
		for i := range notify.Keep {
			n := notify.Notification{ID: fmt.Sprint(i), Player: fmt.Sprint("p", p), Kind: notify.YourTurn, Time: at.Add(time.Duration(i) * time.Second)}
			if err := s.AddNotification(ctx, n, notify.Keep); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.UnreadNotifications(ctx, "p42"); err != nil {
			b.Fatal(err)
		}
	}
}
