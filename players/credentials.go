package players

import (
	"context"
	"sync"
	"time"

	"github.com/banchess/banchess/errs"
)

// credentialCache remembers which player recent credentials belong to, so
// that a request needs no query to learn who is asking. A revocation
// forgets at once on the server that made it, and on the others when its
// notice arrives (see Service.Notice); an entry lives credentialTTL at
// most in any case. While the notices may not arrive (deaf: the
// connection that carries them is lost, and until it listens again) it
// holds nothing, and every credential is looked up.
type credentialCache struct {
	mu      sync.Mutex
	epoch   uint64 // counts forgettings: a lookup begun before one is not cached
	deaf    bool   // revocations may go unheard: nothing is cached
	players map[string]cachedCredential
}

type cachedCredential struct {
	player string
	at     time.Time
}

// credentialCacheSize bounds the entries; credentialTTL how long one is
// trusted.
const (
	credentialCacheSize = 100_000
	credentialTTL       = 10 * time.Minute
)

// get returns the player of hash when it is cached and fresh at now.
func (c *credentialCache) get(hash string, now time.Time) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.players[hash]
	if !ok || c.deaf || now.Sub(e.at) > credentialTTL {
		return "", false
	}
	return e.player, true
}

// begin returns the epoch a lookup starts in, for put.
func (c *credentialCache) begin() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.epoch
}

// put caches that hash belongs to player, as a lookup begun in epoch
// found: unless something was forgotten since (the lookup may have read
// what was then revoked).
func (c *credentialCache) put(hash, player string, epoch uint64, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if epoch != c.epoch || c.deaf {
		return
	}
	if c.players == nil {
		c.players = map[string]cachedCredential{}
	}
	if len(c.players) >= credentialCacheSize {
		// Drop an eighth, at random (map order): cheaper than keeping an
		// order, and a dropped entry costs one query.
		n := len(c.players) / 8
		for h := range c.players {
			delete(c.players, h)
			if n--; n <= 0 {
				break
			}
		}
	}
	c.players[hash] = cachedCredential{player: player, at: now}
}

// forget drops the credentials of hashes.
func (c *credentialCache) forget(hashes ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	for _, h := range hashes {
		delete(c.players, h)
	}
}

// forgetPlayer drops every credential of player.
func (c *credentialCache) forgetPlayer(player string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	for h, e := range c.players {
		if e.player == player {
			delete(c.players, h)
		}
	}
}

// flush drops every entry, and caches again: revocations may have been
// missed, and are heard again.
func (c *credentialCache) flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	c.deaf = false
	clear(c.players)
}

// deafen drops every entry and caches nothing until flush: revocations
// are not heard.
func (c *credentialCache) deafen() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	c.deaf = true
	clear(c.players)
}

// holder returns the id of the player cred was issued to, or "" when it
// was not issued (or was revoked): it holds nothing.
func (s *Service) holder(ctx context.Context, cred Credential) (string, error) {
	hash := cred.Hash()
	if hash == "" {
		return "", nil
	}
	now := s.now()
	if p, ok := s.creds.get(hash, now); ok {
		return p, nil
	}
	epoch := s.creds.begin()
	p, err := s.store.CredentialPlayer(ctx, hash)
	if err != nil {
		return "", errs.FromStore(err)
	}
	if p != "" {
		s.creds.put(hash, p, epoch, now)
	}
	return p, nil
}
