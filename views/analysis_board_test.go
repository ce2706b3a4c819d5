package views

import "testing"

func TestCountGroupsDigits(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {12345, "12,345"},
		{123456, "123,456"}, {1234567, "1,234,567"}, {-123, "-123"}, {-1234, "-1,234"},
	} {
		if got := Count(tc.n); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
