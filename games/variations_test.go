package games_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// opening is a hot-seat game's first four plies: Black bans e2e4, White
// plays d4, White bans e7e5, Black plays d5.
var opening = []string{"b:e2e4", "d2d4", "b:e7e5", "d7d5"}

// pgnOf returns game id's movetext.
func pgnOf(e *env, id string) string {
	e.t.Helper()
	rec, _ := e.record(id)
	_, moves, _ := strings.Cut(rec.Game.Record().PGN(), "\n\n")
	return strings.Join(strings.Fields(moves), " ")
}

func TestPlayVariation(t *testing.T) {
	e := newEnv(t)
	cred := e.cred()
	id := e.create(cred)
	e.play(id, cred, opening...)
	c4 := rules.Path{{After: 1, Index: 0}}
	for _, step := range []struct {
		name string
		at   games.Spot
		text string
		want games.Spot
		pgn  string // a part of the movetext after the step
	}{
		{"the game's next ply steps on", games.Spot{N: 1}, "d4", games.Spot{N: 2}, "1. {banning: e2e4} d4 {banning: e7e5} d5 *"},
		{"another makes a variation", games.Spot{N: 1}, "c4", games.Spot{Line: c4, N: 1}, "(1. c4)"},
		{"the same again goes into it", games.Spot{N: 1}, "c2c4", games.Spot{Line: c4, N: 1}, "(1. c4)"},
		{"at its end it is extended", games.Spot{Line: c4, N: 1}, "b:e7e5", games.Spot{Line: c4, N: 2}, "(1. c4 {banning: e7e5})"},
		{"within it, a variation of it", games.Spot{Line: c4, N: 1}, "b:d7d5", games.Spot{Line: rules.Path{{After: 1, Index: 0}, {After: 1, Index: 0}}, N: 1}, "(1. c4 {banning: e7e5} (1... {banning: d7d5}))"},
	} {
		got, err := e.svc.PlayVariation(e.ctx, id, cred, step.at, step.text)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if got.N != step.want.N || !slices.Equal(got.Line, step.want.Line) {
			t.Errorf("%s: at %+v, want %+v", step.name, got, step.want)
		}
		if pgn := pgnOf(e, id); !strings.Contains(pgn, step.pgn) {
			t.Errorf("%s: the PGN %q lacks %q", step.name, pgn, step.pgn)
		}
	}
	if rec, _ := e.record(id); rec.Game.Ply()-rec.Game.StartPly() != len(opening) {
		t.Errorf("the main line has %d plies", rec.Game.Ply()-rec.Game.StartPly())
	}

	// Refusals change nothing.
	before := pgnOf(e, id)
	for _, bad := range []struct {
		name string
		cred players.Credential
		at   games.Spot
		text string
		code errs.Code
	}{
		{"the end of the main line", cred, games.Spot{N: 4}, "b:e2e4", errs.Conflict},
		{"an illegal action", cred, games.Spot{N: 1}, "e2e4", errs.Banned},
		{"not an action", cred, games.Spot{N: 1}, "zz", errs.Invalid},
		{"no such variation", cred, games.Spot{Line: rules.Path{{After: 2, Index: 0}}, N: 1}, "c4", errs.Invalid},
		{"past the line's end", cred, games.Spot{Line: c4, N: 9}, "c4", errs.Invalid},
		{"a spectator", e.cred(), games.Spot{N: 1}, "c4", errs.Forbidden},
		{"no credential", "", games.Spot{N: 1}, "c4", errs.Unauthorized},
	} {
		_, err := e.svc.PlayVariation(e.ctx, id, bad.cred, bad.at, bad.text)
		if got := errs.Of(err); got == nil || got.Code != bad.code {
			t.Errorf("%s: %v, want %s", bad.name, err, bad.code)
		}
	}
	if after := pgnOf(e, id); after != before {
		t.Errorf("a refusal changed the game:\n%s\n%s", before, after)
	}
}

func TestPromoteAndDeleteVariation(t *testing.T) {
	e := newEnv(t)
	cred := e.cred()
	id := e.create(cred)
	e.play(id, cred, opening...)
	c4 := games.Spot{N: 1}
	to, err := e.svc.PlayVariation(e.ctx, id, cred, c4, "c4")
	if err != nil {
		t.Fatal(err)
	}
	inner, err := e.svc.PlayVariation(e.ctx, id, cred, to, "b:e7e5")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.PlayVariation(e.ctx, id, cred, games.Spot{Line: inner.Line, N: 1}, "b:d7d5"); err != nil {
		t.Fatal(err)
	}
	// Promote the variation within the variation: its parent's line now.
	nested := rules.Path{{After: 1, Index: 0}, {After: 1, Index: 0}}
	line, err := e.svc.PromoteVariation(e.ctx, id, cred, nested)
	if err != nil || !slices.Equal(line, nested[:1]) {
		t.Fatalf("promote within: %v, %v", line, err)
	}
	if pgn := pgnOf(e, id); !strings.Contains(pgn, "(1. c4 {banning: d7d5} (1... {banning: e7e5}))") {
		t.Errorf("promoted within: %s", pgn)
	}
	// A hot-seat game's main line may take the variation's place.
	if _, err := e.svc.PromoteVariation(e.ctx, id, cred, nested[:1]); err != nil {
		t.Fatal(err)
	}
	if pgn := pgnOf(e, id); !strings.HasPrefix(pgn, "1. {banning: e2e4} c4 (1. d4 {banning: e7e5} d5) 1... {banning: d7d5}") {
		t.Errorf("promoted to the main line: %s", pgn)
	}
	if err := e.svc.DeleteVariation(e.ctx, id, cred, nested[:1]); err != nil {
		t.Fatal(err)
	}
	if pgn := pgnOf(e, id); pgn != "1. {banning: e2e4} c4 {banning: d7d5} (1... {banning: e7e5}) *" {
		t.Errorf("deleted: %s", pgn)
	}
	for _, bad := range []struct {
		name string
		err  error
	}{
		{"delete the main line", e.svc.DeleteVariation(e.ctx, id, cred, nil)},
		{"delete none", e.svc.DeleteVariation(e.ctx, id, cred, rules.Path{{After: 1, Index: 0}})},
		{"delete as a spectator", e.svc.DeleteVariation(e.ctx, id, e.cred(), rules.Path{{After: 1, Index: 0}})},
	} {
		if bad.err == nil {
			t.Errorf("%s: accepted", bad.name)
		}
	}
}

// A game between two players keeps its variations once it has ended,
// for either player; its moves stay as they were played.
func TestVariationsOfAnInviteGame(t *testing.T) {
	e := newEnv(t)
	white, black := e.cred(), e.cred()
	id, code, _, err := e.svc.CreateInvite(e.ctx, white, rules.New(rules.BanChess{}), games.InviteSettings{Color: rules.White})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Join(e.ctx, id, black, code); err != nil {
		t.Fatal(err)
	}
	e.play(id, black, "b:e2e4")
	e.play(id, white, "d4")
	if _, err := e.svc.PlayVariation(e.ctx, id, white, games.Spot{N: 1}, "c4"); errs.Of(err).Detail != errs.AnalysisLocked {
		t.Fatalf("during the game: %v", err)
	}
	if err := e.svc.Resign(e.ctx, id, black, rules.Black, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.PlayVariation(e.ctx, id, black, games.Spot{N: 1}, "c4"); err != nil {
		t.Fatal(err)
	}
	_, err = e.svc.PromoteVariation(e.ctx, id, white, rules.Path{{After: 1, Index: 0}})
	if errs.Of(err).Code != errs.Forbidden {
		t.Errorf("promoted a played game's variation: %v", err)
	}
	if pgn := pgnOf(e, id); !strings.HasPrefix(pgn, "1. {banning: e2e4} d4 (1. c4) 1-0") {
		t.Errorf("the game: %s", pgn)
	}
}
