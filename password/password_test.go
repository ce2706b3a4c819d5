package password

import (
	"context"
	"strings"
	"testing"
)

// fast are parameters that keep the tests quick; the format and the
// checks are the same.
var fast = Params{Memory: 64, Time: 1, Threads: 1}

func TestHashAndCheck(t *testing.T) {
	ctx := context.Background()
	h := NewHasher(fast, 2)
	a, err := h.Hash(ctx, "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := h.Hash(ctx, "correct horse")
	if a == b {
		t.Error("two hashes of one password are equal: the salt is not random")
	}
	if !strings.HasPrefix(a, "$argon2id$v=19$m=64,t=1,p=1$") || strings.Contains(a, "correct") {
		t.Errorf("hash %q", a)
	}
	for _, c := range []struct {
		encoded, pw string
		want        bool
	}{
		{a, "correct horse", true},
		{b, "correct horse", true},
		{a, "correct horsE", false},
		{a, "", false},
		{"", "correct horse", false}, // no such player: the dummy is checked
		{"", "", false},
	} {
		got, err := h.Check(ctx, c.encoded, c.pw)
		if err != nil || got != c.want {
			t.Errorf("Check(%.20q, %q) = %v, %v; want %v", c.encoded, c.pw, got, err, c.want)
		}
	}
}

// TestParamsTravelWithTheHash: a hash made with other parameters is still
// checked with its own.
func TestParamsTravelWithTheHash(t *testing.T) {
	ctx := context.Background()
	old, _ := NewHasher(Params{Memory: 32, Time: 2, Threads: 1}, 1).Hash(ctx, "hunter22")
	if ok, err := NewHasher(fast, 1).Check(ctx, old, "hunter22"); !ok || err != nil {
		t.Errorf("a hash made with other parameters: %v, %v", ok, err)
	}
}

func TestDamagedHashes(t *testing.T) {
	ctx := context.Background()
	h := NewHasher(fast, 1)
	good, _ := h.Hash(ctx, "password1")
	parts := strings.Split(good, "$")
	for _, bad := range []string{
		"plain text",
		"$argon2i$v=19$m=64,t=1,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=16$m=64,t=1,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=19$m=0,t=1,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=19$m=99999999,t=1,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=19$m=64,t=1,p=1$!!$" + parts[5],
		"$argon2id$v=19$m=64,t=1,p=1$" + parts[4] + "$",
	} {
		if ok, err := h.Check(ctx, bad, "password1"); ok || err == nil {
			t.Errorf("Check(%q) = %v, %v; want an error", bad, ok, err)
		}
	}
}

func TestCheckFollowsTheContext(t *testing.T) {
	h := NewHasher(fast, 1)
	h.slots <- struct{}{} // the one slot is taken
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Check(ctx, "", "x"); err == nil {
		t.Error("a check waiting for a slot ignored its context")
	}
}

func BenchmarkDefault(b *testing.B) {
	h := NewHasher(Default, 1)
	ctx := context.Background()
	enc, _ := h.Hash(ctx, "benchmark password")
	for b.Loop() {
		h.Check(ctx, enc, "benchmark password")
	}
}
