package chat

import (
	"strconv"
	"strings"
)

// noticeLine starts the notice a store sends the servers sharing it of a
// line said (NoticeLine).
const noticeLine = "chat:"

// NoticeLine is the notice of line seq said at game: Notice wakes the
// game's streams on every server.
func NoticeLine(game string, seq int64) string {
	return noticeLine + strconv.FormatInt(seq, 10) + ":" + game
}

// Notice hears a notice from the servers sharing the store: a line said
// at a game (NoticeLine) wakes its streams here; "" (notices may have
// been missed) forgets the games' last lines, read again when asked for.
// Other notices are not the chat's.
func (s *Service) Notice(n string) {
	if n == "" {
		s.mu.Lock()
		clear(s.latest)
		s.mu.Unlock()
		return
	}
	rest, ok := strings.CutPrefix(n, noticeLine)
	if !ok {
		return
	}
	num, game, ok := strings.Cut(rest, ":")
	seq, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil || game == "" {
		return
	}
	s.learn(game, seq)
	s.wake(game)
}
