package players

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
	"sync"

	"github.com/banchess/banchess/errs"
)

// A device token says that a device (a browser) signed in as a name: a
// sign-in from it counts for that device alone, not under the name's
// limits, so that guesses from elsewhere do not lock the name's owner out
// of the devices they use (OWASP's "device cookies"). It is
// "v1.<name key>.<nonce>.<mac>", the MAC an HMAC-SHA256 of the name key
// and the nonce under a key the servers sharing the store share
// (Store.ServerKey). It proves nothing but that: it is no credential.
const (
	deviceKeyName  = "device-token"
	deviceVersion  = "v1"
	maxDeviceToken = 160
)

// deviceKey is the key device tokens are signed with, read from the store
// when first needed.
type deviceKey struct {
	mu  sync.Mutex
	key []byte
}

// deviceKey returns the key device tokens are signed with.
func (s *Service) deviceKey(ctx context.Context) ([]byte, error) {
	s.devices.mu.Lock()
	defer s.devices.mu.Unlock()
	if s.devices.key != nil {
		return s.devices.key, nil
	}
	key, err := s.store.ServerKey(ctx, deviceKeyName)
	if err != nil {
		return nil, errs.FromStore(err)
	}
	if len(key) < 32 {
		return nil, errs.Internalf(fmt.Errorf("the store's key %q has %d bytes", deviceKeyName, len(key)), "reading the key of device tokens")
	}
	s.devices.key = key
	return key, nil
}

// deviceToken returns a fresh device token naming name.
func (s *Service) deviceToken(ctx context.Context, name string) (string, error) {
	key, err := s.deviceKey(ctx)
	if err != nil {
		return "", err
	}
	var b [16]byte
	rand.Read(b[:])
	nonce := base64.RawURLEncoding.EncodeToString(b[:])
	nameKey := NameKey(name)
	return deviceVersion + "." + nameKey + "." + nonce + "." + deviceMAC(key, nameKey, nonce), nil
}

// trustedDevice returns the nonce of token when it is a device token this
// server issued for the name of nameKey, else "".
func (s *Service) trustedDevice(ctx context.Context, token, nameKey string) (string, error) {
	if token == "" || len(token) > maxDeviceToken {
		return "", nil
	}
	parts := strings.Split(token, ".")
	if len(parts) != 4 || parts[0] != deviceVersion || parts[1] != nameKey || parts[2] == "" {
		return "", nil
	}
	key, err := s.deviceKey(ctx)
	if err != nil {
		return "", err
	}
	if !hmac.Equal([]byte(parts[3]), []byte(deviceMAC(key, nameKey, parts[2]))) {
		return "", nil
	}
	return parts[2], nil
}

// deviceMAC signs a device token's name key and nonce.
func deviceMAC(key []byte, nameKey, nonce string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("banchess device token\x00" + nameKey + "\x00" + nonce))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
