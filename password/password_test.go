package password

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
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
	for range cap(h.slots) {
		h.slots <- struct{}{} // every slot is taken
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Check(ctx, "", "x"); err == nil {
		t.Error("a check waiting for a slot ignored its context")
	}
	if _, err := h.Hash(ctx, "x"); err == nil {
		t.Error("a hash waiting for a slot ignored its context")
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

// TestChecksNotStarvedByHashes (issue 45, item 7): hashes (sign-ups) that
// fill every slot they may take, with more waiting, leave checks
// (sign-ins) slots of their own: a check runs while the hashes block.
func TestChecksNotStarvedByHashes(t *testing.T) {
	for _, concurrent := range []int{1, 2, 8} {
		t.Run(fmt.Sprint(concurrent), func(t *testing.T) {
			ctx := context.Background()
			h := NewHasher(fast, concurrent)
			encoded, err := h.Hash(ctx, "correct horse")
			if err != nil {
				t.Fatal(err)
			}
			block, entered := make(chan struct{}), make(chan struct{}, 100)
			real := h.derive
			h.derive = func(pw, salt []byte, p Params, keyLen uint32) []byte {
				if string(pw) == "sign-up" {
					entered <- struct{}{}
					<-block
				}
				return real(pw, salt, p, keyLen)
			}
			var wg sync.WaitGroup
			defer wg.Wait()
			defer close(block)
			for range 3*concurrent + 2 {
				wg.Go(func() { h.Hash(ctx, "sign-up") })
			}
			share := max(concurrent, 2) / 2
			for range share {
				<-entered
			}
			time.Sleep(50 * time.Millisecond) // the other hashes have every chance to start: none may
			if n := len(entered); n != 0 {
				t.Errorf("%d hashes run at once, want %d (of %d slots)", share+n, share, max(concurrent, 2))
			}
			checkCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
			defer cancel()
			if ok, err := h.Check(checkCtx, encoded, "correct horse"); err != nil || !ok {
				t.Errorf("a check while hashes fill their share: %v, %v", ok, err)
			}
		})
	}
}
