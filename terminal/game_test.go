package terminal

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// started returns a session on a fresh service with a new Ban Chess game,
// and what it writes.
func started(t *testing.T) (*session, *bytes.Buffer) {
	t.Helper()
	svc := service()
	var out bytes.Buffer
	s := newSession(svc, &out, plain(), config{})
	g, err := svc.games.Loader().NewGame("")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.game.open(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	return s, &out
}

// TestGamesLiveInTheService checks that the session plays its games in the
// service: stored there, with both seats held by the session's credential
// and by no other.
func TestGamesLiveInTheService(t *testing.T) {
	ctx := context.Background()
	s, out := started(t)
	first := s.game.id
	for _, line := range []string{"e2e4", "d4", "resign", "undo"} {
		s.handle(ctx, line)
	}
	if strings.Contains(out.String(), "✗") {
		t.Fatalf("refused:\n%s", out)
	}
	err := s.game.svc.View(ctx, first, s.game.cred, func(rec *games.Record, seats games.Seats) {
		if got := strings.Join(rec.Game.BCN(), " "); got != "b:e2e4 m:d2d4" {
			t.Errorf("stored plies %q, want b:e2e4 m:d2d4", got)
		}
		if !seats.Both() || rec.Mode != games.HotSeat {
			t.Errorf("seats %+v, mode %q: want both seats of a hot-seat game", seats, rec.Mode)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	other, _, err := s.game.players.NewPlayer(ctx, players.Cookie)
	if err != nil {
		t.Fatal(err)
	}
	err = s.game.svc.Play(ctx, first, other, games.Input{Text: "e7e5"}, nil)
	if e := errs.Of(err); e == nil || e.Code != errs.Forbidden {
		t.Errorf("another credential played: %v", err)
	}

	s.handle(ctx, "new classic")
	if s.game.id == first {
		t.Fatal("new kept the game's id")
	}
	err = s.game.svc.View(ctx, s.game.id, s.game.cred, func(rec *games.Record, _ games.Seats) {
		if rec.Game.Variant().ID() != (rules.Classic{}).ID() || rec.Game.Ply() != 1 {
			t.Errorf("new game: %s at ply %d", rec.Game.Variant().Name(), rec.Game.Ply())
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCancelledContext checks that a session whose context is cancelled
// says so and changes nothing.
func TestCancelledContext(t *testing.T) {
	s, out := started(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out.Reset()
	for _, line := range []string{"e2e4", "fen", "undo", "new"} {
		s.handle(ctx, line)
	}
	if got := strings.Count(out.String(), "✗ the request was cancelled before it was served; the game is unchanged\n"); got != 4 {
		t.Errorf("%d lines say the request was cancelled, want 4:\n%s", got, out)
	}
	out.Reset()
	s.handle(context.Background(), "fen")
	if got := out.String(); got != rules.StartFEN+" 1\n" {
		t.Errorf("fen after the cancelled commands %q, want the start", got)
	}
}

func TestRunCancelledBeforeTheStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	if code := run(ctx, service(), nil, strings.NewReader("e2e4\n"), &out, &errOut, plain()); code != 130 {
		t.Errorf("exit %d, want 130", code)
	}
	if out.Len() > 0 || errOut.Len() > 0 {
		t.Errorf("wrote %q and %q, want nothing", out.String(), errOut.String())
	}
}

func TestReason(t *testing.T) {
	g := rules.New(rules.BanChess{})
	_, parseErr := g.Notation().ParseInput("e5")
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, ""},
		{"the rules' words, as typed", errs.Of(parseErr), "Black cannot ban e5: no White pawn can reach e5"},
		{"a sentence made a clause", errs.Errorf(errs.Invalid, "The FEN is empty."), "the FEN is empty"},
		{"an abbreviation kept", errs.Errorf(errs.Invalid, "FEN placement: White has 0 kings."), "FEN placement: White has 0 kings"},
		{"a side kept", errs.Errorf(errs.Forbidden, "Black holds that seat."), "Black holds that seat"},
		{"a quote kept", errs.Errorf(errs.Invalid, `"x" is not a variant.`), `"x" is not a variant`},
		{"a failure's cause hidden", errs.Internalf(context.Canceled, "secret"), "something went wrong on the server; the game is unchanged. Please try again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := reason(tt.err); got != tt.want {
				t.Errorf("reason %q, want %q", got, tt.want)
			}
		})
	}
}
