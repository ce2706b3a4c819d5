package pages

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"

	"github.com/banchess/banchess/static"
)

func TestStrippedJS(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"comment lines go", "// a comment\nvar a = 1;\n  // indented\nvar b;\n", "var a = 1;\nvar b;\n"},
		{"indentation goes", "function f() {\n    return 1;\n\t}\n", "function f() {\nreturn 1;\n}\n"},
		{"blank lines go", "a();\n\n   \nb();", "a();\nb();"},
		{"a comment after code stays", "a(); // why\n", "a(); // why\n"},
		{"a URL in a string stays", `x = "//host/path";` + "\n", `x = "//host/path";` + "\n"},
	} {
		if got := string(strippedJS([]byte(tt.in))); got != tt.want {
			t.Errorf("%s: strippedJS(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

// TestScriptsHaveNoMultilineStrings: strippedJS may take a line's start
// only because no string of ours spans lines; a template literal (a
// backtick) could, and would need a real minifier.
func TestScriptsHaveNoMultilineStrings(t *testing.T) {
	err := fs.WalkDir(static.FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".js") || strings.HasSuffix(name, ".min.js") {
			return err
		}
		b, err := fs.ReadFile(static.FS, name)
		if err != nil {
			return err
		}
		if bytes.ContainsRune(b, '`') {
			t.Errorf("%s has a template literal, which strippedJS may break", name)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasSuffix(strings.TrimSpace(line), `\`) {
				t.Errorf("%s:%d continues a string on the next line, which strippedJS may break", name, i+1)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
