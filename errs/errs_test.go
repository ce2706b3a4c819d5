package errs_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/rules"
)

// TestErrorOf maps errors of each kind to their code and detail.
func TestErrorOf(t *testing.T) {
	banned := func() error {
		g, err := rules.Replay(rules.BanChess{}, "", []string{"b:e2e4"})
		if err != nil {
			t.Fatal(err)
		}
		return g.PlayText("m:e2e4")
	}
	over := func() error {
		g := rules.New(rules.BanChess{})
		if err := g.Resign(rules.White); err != nil {
			t.Fatal(err)
		}
		return g.PlayText("b:e2e4")
	}
	fenErr := func() error { _, err := rules.FromFEN("8/8/8 w", nil); return err }
	pgnErr := func() error { _, err := rules.FromPGN("", rules.PGNOptions{}); return err }
	tooMany := func() error {
		_, err := rules.FromPGN("1. e4 e5 2. Nf3 Nc6 *", rules.PGNOptions{Variant: rules.Classic{}, MaxPlies: 2})
		return err
	}
	own := errs.Errorf(errs.Conflict, "Mine.")
	cause := errors.New("open /var/db/games.db: disk I/O error")
	for _, c := range []struct {
		name   string
		err    error
		code   errs.Code
		detail errs.Detail
	}{
		{"syntax", rules.New(rules.BanChess{}).PlayText("zz"), errs.Invalid, "not_bcn"},
		{"typed syntax", func() error { _, err := rules.New(rules.BanChess{}).Notation().ParseInput("hello"); return err }(), errs.Invalid, "not_bcn"},
		{"illegal", rules.New(rules.BanChess{}).PlayText("m:e2e4"), errs.Illegal, ""},
		{"banned", banned(), errs.Banned, ""},
		{"wrapped banned", fmt.Errorf("action 2: %w", banned()), errs.Banned, ""},
		{"game over", over(), errs.GameOver, ""},
		{"nothing to undo", rules.New(rules.BanChess{}).Undo(), errs.Conflict, "nothing_to_undo"},
		{"FEN", fenErr(), errs.Invalid, "bad_fen"},
		{"PGN", pgnErr(), errs.Invalid, "bad_pgn"},
		{"too many plies", tooMany(), errs.Invalid, "too_many_plies"},
		{"own", own, errs.Conflict, ""},
		{"wrapped own", fmt.Errorf("deep: %w", own), errs.Conflict, ""},
		{"cancelled", fmt.Errorf("loading: %w", context.Canceled), errs.Unavailable, errs.Cancelled},
		{"deadline", context.DeadlineExceeded, errs.Unavailable, errs.Busy},
		{"store busy", fmt.Errorf("loading: %w", errs.ErrBusy), errs.Unavailable, errs.Busy},
		{"internalf, store busy", errs.Internalf(fmt.Errorf("%w: lock timeout", errs.ErrBusy), "listing games"), errs.Unavailable, errs.Busy},
		{"unreadable", fmt.Errorf("game x: %w: decoding", errs.ErrUnreadable), errs.Internal, ""},
		{"store down", fmt.Errorf("loading: %w", errs.ErrUnavailable), errs.Unavailable, errs.StoreDown},
		{"internalf, store down", errs.Internalf(fmt.Errorf("%w: refused", errs.ErrUnavailable), "listing games"), errs.Unavailable, errs.StoreDown},
		{"other", cause, errs.Internal, ""},
		{"internalf", errs.Internalf(cause, "saving game %s", "abc"), errs.Internal, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.err == nil {
				t.Fatal("no error to map")
			}
			e := errs.Of(c.err)
			if e.Code != c.code || e.Detail != c.detail {
				t.Errorf("%v: code %s, detail %q; want %s, %q", c.err, e.Code, e.Detail, c.code, c.detail)
			}
			if e.Msg == "" || !strings.HasSuffix(e.Msg, ".") {
				t.Errorf("message %q", e.Msg)
			}
			if e.Err != nil && !errors.Is(e, c.err) && !errors.Is(c.err, e) {
				t.Errorf("the cause is lost: %v", e.Err)
			}
		})
	}
	if errs.Of(own) != own {
		t.Error("an *Error is not returned as itself")
	}
	// Internal errors never show their cause; Error() keeps it for logs.
	for _, e := range []*errs.Error{errs.Of(cause), errs.Internalf(cause, "saving game %s", "abc")} {
		if strings.Contains(e.Msg, "disk") || strings.Contains(e.Msg, "/var") {
			t.Errorf("the message shows the cause: %q", e.Msg)
		}
		if !strings.Contains(e.Error(), "disk I/O error") || !errors.Is(e, cause) {
			t.Errorf("Error() = %q loses the cause", e.Error())
		}
	}
	if e := errs.Internalf(cause, "saving game %s", "abc"); !strings.Contains(e.Error(), "saving game abc: open") {
		t.Errorf("Internalf: %q", e.Error())
	}
	// A refusal's Error() is its message alone.
	if e := errs.Of(rules.New(rules.BanChess{}).PlayText("m:e2e4")); e.Error() != e.Msg {
		t.Errorf("Error() = %q, Msg %q", e.Error(), e.Msg)
	}
	if e := errs.Errorf(errs.NotFound, "no game %d", 7); e.Msg != "no game 7" || e.Code != errs.NotFound || e.Err != nil {
		t.Errorf("Errorf: %+v", e)
	}
}

func TestSentence(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"the game is over", "The game is over."},
		{"e4 is banned this turn", "e4 is banned this turn."},
		{"b:e2e4 is banned", "b:e2e4 is banned."},
		{"a7a8 promotes a pawn", "a7a8 promotes a pawn."},
		// A word is capitalised, even one typed as SAN: Of keeps an
		// action's text as typed itself (see TestTypedTextKept).
		{"bxc3 is not legal", "Bxc3 is not legal."},
		{"a", "a."},
		{"ok.", "Ok."},
		{"is it?", "Is it?"},
		{"stop!", "Stop!"},
		{"Already a sentence.", "Already a sentence."},
		{"\"e9\" is not a square", "\"e9\" is not a square."},
		{"élan", "Élan."},
	} {
		if got := errs.Sentence(c.in); got != c.want {
			t.Errorf("Sentence(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
