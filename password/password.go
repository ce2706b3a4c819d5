// Package password hashes players' passwords with argon2id (RFC 9106) and
// checks them, in the PHC string format
// ($argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>), so that a stored hash
// says the parameters it was made with and a change of parameters leaves
// older hashes readable.
package password

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id's cost parameters.
type Params struct {
	// Memory is the memory one hash takes, in KiB.
	Memory uint32
	// Time is the number of passes over the memory.
	Time uint32
	// Threads is the parallelism (lanes).
	Threads uint8
}

// Default are the parameters new hashes are made with: OWASP's first
// recommendation for argon2id (19 MiB, 2 passes, 1 lane). One hash or
// check costs tens of milliseconds of a core (BenchmarkDefault).
var Default = Params{Memory: 19 * 1024, Time: 2, Threads: 1}

// saltBytes and keyBytes are the sizes of a hash's random salt and of the
// derived key.
const (
	saltBytes = 16
	keyBytes  = 32
)

// Hasher hashes and checks passwords, a bounded number at a time (each
// takes Params.Memory while it runs). Hashes (new passwords: sign-ups)
// may take only part of its slots, so that checks (sign-ins) always find
// one free however many sign-ups wait. It is safe for concurrent use.
type Hasher struct {
	params Params
	slots  chan struct{} // held by every hash and check running
	hashes chan struct{} // held by every hash running: fewer than slots
	derive func(pw, salt []byte, p Params, keyLen uint32) []byte
	dummy  string // a hash of nothing anyone chose, to check against for unknown names
}

// NewHasher returns a Hasher making hashes with params, running at most
// concurrent hashes and checks at once (at least two), of which hashes
// take at most half (at least one): the others are kept for checks.
func NewHasher(params Params, concurrent int) *Hasher {
	concurrent = max(concurrent, 2)
	h := &Hasher{params: params, slots: make(chan struct{}, concurrent), hashes: make(chan struct{}, concurrent/2), derive: argon2id}
	// The dummy needs no derivation: a check against it derives a key with
	// params all the same, and random bytes match no password as surely as
	// a hash of anything (and starting costs no hash: every test server,
	// terminal and tool starts a Hasher).
	salt, key := make([]byte, saltBytes), make([]byte, keyBytes)
	rand.Read(salt)
	rand.Read(key)
	h.dummy = h.encode(salt, key)
	return h
}

// argon2id derives a key of keyLen bytes from pw and salt.
func argon2id(pw, salt []byte, p Params, keyLen uint32) []byte {
	return argon2.IDKey(pw, salt, p.Time, p.Memory, p.Threads, keyLen)
}

// Hash returns the PHC string of a fresh hash of pw, with a random salt.
// It waits for one of the slots hashes may take.
func (h *Hasher) Hash(ctx context.Context, pw string) (string, error) {
	if err := acquire(ctx, h.hashes); err != nil {
		return "", err
	}
	defer release(h.hashes)
	if err := acquire(ctx, h.slots); err != nil {
		return "", err
	}
	defer release(h.slots)
	salt := make([]byte, saltBytes)
	rand.Read(salt)
	return h.encode(salt, h.derive([]byte(pw), salt, h.params, keyBytes)), nil
}

// Check reports whether pw is the password encoded hashes. An encoded of
// "" (no such player) is checked against a dummy hash, so that the answer
// takes as long as for a player who exists, and is false. It may take any
// free slot, hashes' too.
func (h *Hasher) Check(ctx context.Context, encoded, pw string) (bool, error) {
	known := encoded != ""
	if !known {
		encoded = h.dummy
	}
	p, salt, key, err := decode(encoded)
	if err != nil {
		return false, err
	}
	if err := acquire(ctx, h.slots); err != nil {
		return false, err
	}
	defer release(h.slots)
	got := h.derive([]byte(pw), salt, p, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1 && known, nil
}

// acquire takes one of slots, waiting until one is free or ctx ends.
func acquire(ctx context.Context, slots chan struct{}) error {
	select {
	case slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func release(slots chan struct{}) { <-slots }

func (h *Hasher) encode(salt, key []byte) string {
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, h.params.Memory, h.params.Time, h.params.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

// errFormat is the error for a stored hash this package cannot read.
var errFormat = errors.New("password: not an argon2id hash in the PHC format")

// maxMemory bounds the memory a stored hash may ask for (1 GiB), so a
// damaged row cannot make a check take the machine.
const maxMemory = 1 << 20

// decode reads a PHC string: its parameters, salt and key.
func decode(encoded string) (Params, []byte, []byte, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return Params{}, nil, nil, errFormat
	}
	var p Params
	if n, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil || n != 3 ||
		p.Memory == 0 || p.Memory > maxMemory || p.Time == 0 || p.Threads == 0 {
		return Params{}, nil, nil, errFormat
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	key, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(salt) < 8 || len(key) < 16 {
		return Params{}, nil, nil, errFormat
	}
	return p, salt, key, nil
}
