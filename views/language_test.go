package views

import "testing"

func TestMarkup(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"a **bold** and *em* and `c*o*de`", "a <strong>bold</strong> and <em>em</em> and <code>c*o*de</code>"},
		{"<script>x</script> & **y**", "&lt;script&gt;x&lt;/script&gt; &amp; <strong>y</strong>"},
		{"an *unclosed mark", "an *unclosed mark"},
		{"an `unclosed **code**", "an `unclosed <strong>code</strong>"},
		{"`1. ⊘e4 d4` — **mandatory**: *ply*", "<code>1. ⊘e4 d4</code> — <strong>mandatory</strong>: <em>ply</em>"},
	} {
		if got := markup(tc.in); got != tc.want {
			t.Errorf("markup(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
