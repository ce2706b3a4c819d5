package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestBotCommand: "banchess bot" lists its flags with -h, and refuses to
// start without a token or with settings it cannot read, saying why.
func TestBotCommand(t *testing.T) {
	t.Setenv("BANCHESS_TOKEN", "")
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"bot", "-h"}, 0, "-engine"},
		{[]string{"bot"}, 1, "no token"},
		{[]string{"bot", "-token", "t", "-modes", "fast"}, 1, "--modes"},
		{[]string{"bot", "-token", "t", "-engine-option", "Threads"}, 1, "Name=value"},
		{[]string{"bot", "-token", "t", "extra"}, 1, "unexpected arguments"},
	} {
		var out, errs bytes.Buffer
		code := run(context.Background(), c.args, strings.NewReader(""), &out, &errs)
		if code != c.code || !strings.Contains(errs.String(), c.says) {
			t.Errorf("banchess %q: exit %d, want %d saying %q: %s", c.args, code, c.code, c.says, errs.String())
		}
	}
}
