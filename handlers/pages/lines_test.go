package pages

import (
	"slices"
	"testing"

	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

func TestParseLine(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want rules.Path
		ok   bool
	}{
		{"", nil, true},
		{"3.0", rules.Path{{After: 3, Index: 0}}, true},
		{"3.0,1.2", rules.Path{{After: 3, Index: 0}, {After: 1, Index: 2}}, true},
		{"3", nil, false},
		{"3.-1", nil, false},
		{"a.b", nil, false},
		{"3.0,", nil, false},
	} {
		got, err := parseLine(tc.in)
		if (err == nil) != tc.ok || tc.ok && !slices.Equal(got, tc.want) {
			t.Errorf("parseLine(%q) = %v, %v", tc.in, got, err)
		}
		if tc.ok && views.LineParam(got) != tc.in {
			t.Errorf("%q is written back %q", tc.in, views.LineParam(got))
		}
	}
}
