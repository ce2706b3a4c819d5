package terminal

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules/rulestest"
)

// TestFourthVariant: a variant the terminal's code has never heard of
// (rulestest.NoFifty), registered with the service, is in the usage and
// the help, and --variant and new play it.
func TestFourthVariant(t *testing.T) {
	run := func(input string, args ...string) (string, string, int) {
		svc := newServices(nil, games.WithLoader(games.NewLoader(games.DefaultLimits(), rulestest.Variants()...)))
		var out, errOut bytes.Buffer
		code := run(context.Background(), svc, args, strings.NewReader(input), &out, &errOut, plain())
		return out.String(), errOut.String(), code
	}
	_, usage, code := run("", "-h")
	for _, want := range []string{"[--variant ban|classic|en|nofifty]", "ban (default), classic, en (EN-Chess) or nofifty (Ban Chess without the fifty-move rule)"} {
		if code != 0 || !strings.Contains(usage, want) {
			t.Errorf("usage (exit %d) lacks %q:\n%s", code, want, usage)
		}
	}
	out, errOut, code := run(lines("help", "e2e4", "new classic", "new nofifty"), "--variant", "nofifty")
	for _, want := range []string{
		"Ban Chess without the fifty-move rule in the terminal.",
		"new [ban|classic|en|nofifty]",
		"Black bans e2e4 (e4).",
		"New Classic game.",
		"New Ban Chess without the fifty-move rule game.",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d, stderr %q: the output lacks %q:\n%s", code, errOut, want, out)
		}
	}
	// The product's service does not play it.
	if _, errOut, code := play(t, "", "--variant", "nofifty"); code != 2 || !strings.Contains(errOut, `use "ban", "classic" or "en"`) {
		t.Errorf("without it: exit %d, %q", code, errOut)
	}
}
