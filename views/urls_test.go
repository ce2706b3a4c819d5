package views

import "testing"

func TestGameURL(t *testing.T) {
	for _, tc := range []struct {
		id    string
		o     Options
		extra []string
		want  string
	}{
		{"", Options{}, nil, "/"},
		{"abc", Options{}, nil, "/g/abc"},
		{"abc", Options{Flip: true}, []string{"sel", "e2"}, "/g/abc?flip=1&sel=e2"},
		{"abc", Options{Auto: true}, []string{"sel", ""}, "/g/abc?auto=1"},
	} {
		if got := tc.o.GameURL(tc.id, tc.extra...); got != tc.want {
			t.Errorf("%+v.GameURL(%q, %q) = %q, want %q", tc.o, tc.id, tc.extra, got, tc.want)
		}
	}
	if got := historyURL(3, historyQuery("abc", Options{Flip: true})); got != "/g/abc/history/3?flip=1" {
		t.Errorf("historyURL = %q", got)
	}
	if got := (Options{Auto: true}).HistoryURL("abc", 0, "notice", "chess"); got != "/g/abc/history/0?auto=1&notice=chess" {
		t.Errorf("HistoryURL = %q", got)
	}
}
