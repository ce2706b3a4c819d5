package ruletext

import (
	"testing"

	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// TestEnding: an ending is said in each language, whole for the side
// that won; a stored English ending is read back and said likewise, and
// a text that is none is kept as it is.
func TestEnding(t *testing.T) {
	cat := i18n.Builtin()
	mate := rules.Outcome{Status: rules.Checkmate, Reason: rules.ByBan, Winner: rules.White}
	resigned := rules.Outcome{Status: rules.Resigned, Winner: rules.Black}
	repetition := rules.Outcome{Status: rules.Draw, Reason: rules.ThreefoldRepetition}
	for _, tc := range []struct {
		lang string
		o    rules.Outcome
		want string
	}{
		{"en", mate, "White won by checkmate after a ban"},
		{"de", mate, "Weiß gewann durch Matt nach einem Verbot"},
		{"ru", resigned, "чёрные победили: белые сдались"},
		{"en", repetition, "drawn by threefold repetition"},
		{"de", repetition, "remis durch dreifache Stellungswiederholung"},
	} {
		l := cat.Named(tc.lang)
		if got := Ending(l, tc.o); got != tc.want {
			t.Errorf("%s: Ending(%v) = %q, want %q", tc.lang, tc.o, got, tc.want)
		}
		if got := StoredEnding(l, tc.o.String()); got != tc.want {
			t.Errorf("%s: StoredEnding(%q) = %q, want %q", tc.lang, tc.o.String(), got, tc.want)
		}
	}
	if got := StoredEnding(cat.Named("de"), "something else"); got != "something else" {
		t.Errorf("an unknown stored ending: %q", got)
	}
}
