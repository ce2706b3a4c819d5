// Package vectors reads the reference games the tests share
// (rules/testdata/ban-chess-games.jsonl.gz: one JSON object a line,
// gzipped; the format is in docs/rules.md §7). Each test decodes
// the fields it needs into a type of its own.
package vectors

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// File is the reference games' path from the module's root.
const File = "rules/testdata/ban-chess-games.jsonl.gz"

// Read decodes every line of the gzipped JSON-lines file at path as a T.
func Read[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reference games: %w", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("reference games %s: %w", path, err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	var out []T
	for n := 1; sc.Scan(); n++ {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("reference games %s, line %d: %w", path, n, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reference games %s: %w", path, err)
	}
	return out, nil
}

// Load is Read for a test: a failure to read ends the test.
func Load[T any](tb testing.TB, path string) []T {
	tb.Helper()
	games, err := Read[T](path)
	if err != nil {
		tb.Fatal(err)
	}
	return games
}
