package rules

import "testing"

// TestParseOutcome: every outcome's text reads back as an outcome that
// says the same; another text does not.
func TestParseOutcome(t *testing.T) {
	for _, o := range []Outcome{
		{Status: Checkmate, Reason: ByBan, Winner: White},
		{Status: Checkmate, Reason: KingCapture, Winner: Black},
		{Status: Stalemate, Reason: ByBan},
		{Status: Draw, Reason: FiftyMoveRule},
		{Status: Draw, Reason: Timeout},
		{Status: Resigned, Reason: Resignation, Winner: Black},
		{Status: TimeForfeit, Reason: Timeout, Winner: White},
		{Status: Aborted, Reason: Abort},
	} {
		got, ok := ParseOutcome(o.String())
		if !ok || got.String() != o.String() || got.Winner != o.Winner || got.Status != o.Status {
			t.Errorf("ParseOutcome(%q) = %+v, %v; want %+v", o.String(), got, ok, o)
		}
	}
	for _, s := range []string{"", "in progress", "White won by luck"} {
		if o, ok := ParseOutcome(s); ok {
			t.Errorf("ParseOutcome(%q) = %+v", s, o)
		}
	}
}
