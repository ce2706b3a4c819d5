package kit

import (
	"strings"
	"testing"
)

func TestRedactIDs(t *testing.T) {
	for in, want := range map[string]string{
		`game "Z5_U_ElhSR0FlkJ3Xy6wkw": saving the game: database is locked (5) (SQLITE_BUSY)`: `game "Z5_U_E…": saving the game: database is locked (5) (SQLITE_BUSY)`,
		`UNIQUE constraint failed (SQLITE_CONSTRAINT_PRIMARYKEY)`:                              `UNIQUE constraint failed (SQLITE_CONSTRAINT_PRIMARYKEY)`,
		`open /var/lib/banchess/some_long_file_name.db: permission denied`:                     `open /var/lib/banchess/some_long_file_name.db: permission denied`,
		`games Z5_U_ElhSR0FlkJ3Xy6wkw and 0123456789abcdefghij`:                                `games Z5_U_E… and 012345…`,
	} {
		if got := redactIDs(in); got != want {
			t.Errorf("redactIDs(%q) = %q, want %q", in, got, want)
		}
	}
	if got := redactIDs(`game "legacy-game": gone`, "legacy-game"); got != `game "legacy…": gone` {
		t.Errorf("a known id: %q", got)
	}
	for in, want := range map[string]string{
		"/g/Z5_U_ElhSR0FlkJ3Xy6wkw":           "/g/Z5_U_E…",
		"/g/Z5_U_ElhSR0FlkJ3Xy6wkw/history/3": "/g/Z5_U_E…/history/3",
		"/g/abc/ply":                          "/g/abc/ply",
		"/gx/Z5_U_ElhSR0FlkJ3Xy6wkw":          "/gx/Z5_U_ElhSR0FlkJ3Xy6wkw",
	} {
		if got := logPath(in); got != want {
			t.Errorf("logPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLogPath(t *testing.T) {
	for in, want := range map[string]string{
		"/":                                      "/",
		"/ply":                                   "/ply",
		"/api/games":                             "/api/games",
		"/api/games/":                            "/api/games/",
		"/api/games/Z5_U_ElhSR0FlkJ3Xy6wkw":      "/api/games/Z5_U_E…",
		"/api/games/Z5_U_ElhSR0FlkJ3Xy6wkw/":     "/api/games/Z5_U_E…/",
		"/api/games/Z5_U_ElhSR0FlkJ3Xy6wkw/undo": "/api/games/Z5_U_E…/undo",
		"/api/games/abc/x/y":                     "/api/games/abc/x/y",
		"/" + strings.Repeat("a", 300):           "/" + strings.Repeat("a", 199) + "…",
	} {
		if got := logPath(in); got != want {
			t.Errorf("logPath(%q) = %q, want %q", in, got, want)
		}
	}
}
