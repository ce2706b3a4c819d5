package store

import (
	"context"
	"testing"
	"time"

	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/moderation"
)

// moderationStores are the stores moderation's behaviours are tested on.
var moderationStores = []struct {
	name string
	open func(t *testing.T) moderation.Store
}{
	{"memory", func(*testing.T) moderation.Store { return NewMemory().Moderation() }},
	{"sqlite", func(t *testing.T) moderation.Store { return openSQLite(t, ":memory:", Options{}).Moderation() }},
	{"postgres", func(t *testing.T) moderation.Store { return openPostgres(t, PostgresOptions{}).Moderation() }},
}

// TestModerationStores: moderators granted and revoked; reports kept
// with what they say, listed open and newest first, counted by reporter,
// closed once; mutes replaced; the log read back newest first.
func TestModerationStores(t *testing.T) {
	for _, st := range moderationStores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			ctx := context.Background()
			at := time.UnixMilli(1_700_000_000_000)
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			must(s.SetModerator(ctx, "mod", true, at))
			must(s.SetModerator(ctx, "mod", true, at))
			must(s.SetModerator(ctx, "gone", true, at))
			must(s.SetModerator(ctx, "gone", false, at))
			for id, want := range map[string]bool{"mod": true, "gone": false, "ann": false} {
				if got, err := s.Moderator(ctx, id); err != nil || got != want {
					t.Errorf("Moderator(%s) = %v, %v", id, got, err)
				}
			}
			line := moderation.Report{ID: "r1", Reporter: "ann", ReporterName: "Ann", Reported: "bob", ReportedName: "Bob", Reason: moderation.Abuse,
				Text: "rude", Game: "g1", Room: chat.PlayerRoom, Seq: 7, At: at}
			player := moderation.Report{ID: "r2", Reporter: "ann", ReporterName: "Ann", Reported: "cat", ReportedName: "Cat", Reason: moderation.Cheating, At: at.Add(time.Minute)}
			must(s.AddReport(ctx, line))
			must(s.AddReport(ctx, player))
			open, err := s.OpenReports(ctx, 10)
			if err != nil || len(open) != 2 || open[0] != player || open[1] != line {
				t.Fatalf("open reports: %+v, %v", open, err)
			}
			if n, err := s.OpenReportsBy(ctx, "ann"); err != nil || n != 2 {
				t.Errorf("ann's open reports: %d, %v", n, err)
			}
			if got, err := s.Report(ctx, "r1"); err != nil || got != line {
				t.Errorf("report r1: %+v, %v", got, err)
			}
			if _, err := s.Report(ctx, "nope"); errs.Of(err).Detail != errs.NoReport {
				t.Errorf("no such report: %v", err)
			}
			if ok, err := s.CloseReport(ctx, "r1", "mute", at.Add(time.Hour)); err != nil || !ok {
				t.Errorf("closing r1: %v, %v", ok, err)
			}
			if ok, err := s.CloseReport(ctx, "r1", "dismiss", at.Add(2*time.Hour)); err != nil || ok {
				t.Errorf("closing r1 again: %v, %v", ok, err)
			}
			if got, _ := s.Report(ctx, "r1"); got.Outcome != "mute" || !got.Closed.Equal(at.Add(time.Hour)) {
				t.Errorf("r1 closed: %+v", got)
			}
			if open, _ := s.OpenReports(ctx, 10); len(open) != 1 || open[0].ID != "r2" {
				t.Errorf("open after closing: %+v", open)
			}
			if n, _ := s.OpenReportsBy(ctx, "ann"); n != 1 {
				t.Errorf("ann's open reports after one closed: %d", n)
			}

			if until, err := s.MutedUntil(ctx, "bob"); err != nil || !until.IsZero() {
				t.Errorf("never muted: %v, %v", until, err)
			}
			must(s.SetMute(ctx, "bob", at.Add(time.Hour)))
			must(s.SetMute(ctx, "bob", at.Add(15*time.Minute)))
			if until, err := s.MutedUntil(ctx, "bob"); err != nil || !until.Equal(at.Add(15*time.Minute)) {
				t.Errorf("muted until %v, %v", until, err)
			}

			first := moderation.Entry{ID: "e1", At: at, ModeratorName: "the server", Action: moderation.Grant, Player: "mod", PlayerName: "Mod", Why: "grant"}
			second := moderation.Entry{ID: "e2", At: at.Add(time.Minute), Moderator: "mod", ModeratorName: "Mod", Action: moderation.Mute, Player: "bob",
				PlayerName: "Bob", Report: "r1", Until: at.Add(time.Hour), Why: "insults"}
			must(s.AddEntry(ctx, first))
			must(s.AddEntry(ctx, second))
			log, err := s.Entries(ctx, 10)
			if err != nil || len(log) != 2 || log[0] != second || log[1] != first {
				t.Errorf("the log: %+v, %v", log, err)
			}
		})
	}
}
