package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// TestPuzzlesGenerateFromStore runs "banchess puzzles generate --db" on
// an SQLite file holding one game, at whose second position White mates
// by Nxb6+ and the ban of Ka7: the store's games come first, so that is
// the one puzzle asked for.
func TestPuzzlesGenerateFromStore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "games.db")
	s, err := store.OpenSQLite(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.Replay(rules.BanChess{}, "k7/2K5/1p6/3N4/8/8/7P/8 w - - 0 1 1", []string{"b:h2h3"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Create(ctx, &games.Record{Game: g, White: "ann", Black: "bob", Created: time.Now(), Updated: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "puzzles.jsonl")
	var log bytes.Buffer
	if err := puzzlesCommand(ctx, []string{"generate", "--db", db, "--count", "1", "--out", out, "--quiet"}, &log, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ps, err := puzzles.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || ps[0].FEN != "k7/2K5/1p6/3N4/8/8/7P/8 w - - 0 1 2:h2h3" || strings.Join(ps[0].Solution, " ") != "m:d5b6 b:a8a7" {
		t.Errorf("made %+v", ps)
	}
	if !strings.Contains(log.String(), "1 Ban Chess games from the store") || !strings.Contains(log.String(), "puzzles/minute") {
		t.Errorf("the log says\n%s", log.String())
	}

	for _, args := range [][]string{
		{},
		{"make"},
		{"generate", "--db", filepath.Join(dir, "none.db")},
		{"generate", "--db", "mysql://x"},
	} {
		if err := puzzlesCommand(ctx, args, &log, &log); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
