// Package chat keeps the talk at each game between two players: a
// players' room and a spectators' room, as on lichess. Players read and
// write in theirs, everyone else in theirs; once the game is over both
// rooms are read-only and kept with it. A line is plain text of at most
// MaxRunes characters; a player writes at most BurstLines lines in any
// BurstWindow and MinuteLines in any minute (sliding windows), never the same line twice in a
// row in a room; an anonymous player does not write at a game between two
// named players; and a player may turn chat off for themselves (Off).
package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/ratelimit"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// Room is one of a game's two rooms.
type Room string

// The rooms of a game.
const (
	PlayerRoom    Room = "player"    // the game's players'
	SpectatorRoom Room = "spectator" // everyone else's
)

// ParseRoom reads a room's name: "player" or "spectator".
func ParseRoom(s string) (Room, error) {
	switch r := Room(s); r {
	case PlayerRoom, SpectatorRoom:
		return r, nil
	}
	return "", errs.Errorf(errs.Invalid, "%q is not a room: use player or spectator.", truncate(s, 20)).WithDetail(errs.BadRoom)
}

// The limits on lines.
const (
	// MaxRunes bounds a line's length, in characters.
	MaxRunes = 140
	// BurstLines lines at most in BurstWindow, and MinuteLines in a
	// minute, per player in all games.
	BurstLines  = 3
	BurstWindow = 5 * time.Second
	MinuteLines = 20
	// HistoryLines is how many of a room's latest lines a read returns
	// at most.
	HistoryLines = 100
)

// Line is one line said in a room.
type Line struct {
	Game string
	Room Room
	// Seq numbers the game's lines, both rooms together, from 1.
	Seq int64
	// Author is the id of the player who wrote it; Name their name then,
	// "" for an anonymous player.
	Author, Name string
	Text         string
	At           time.Time
}

// ErrRepeated is a store's refusal of a line whose author's previous line
// in the room says the same.
var ErrRepeated = errors.New("chat: the same as the author's previous line in the room")

// Store keeps the lines and who turned chat off.
type Store interface {
	// AddChatLine keeps l numbered after its game's last line (its Seq
	// set), or refuses it with ErrRepeated, keeping nothing, when its
	// author's previous line in its room has the same text.
	AddChatLine(ctx context.Context, l Line) (Line, error)
	// ChatLines returns the latest limit lines of game's room numbered
	// after after, oldest first, and the number of the game's last line
	// in either room (0 for none).
	ChatLines(ctx context.Context, game string, room Room, after int64, limit int) ([]Line, int64, error)
	// ChatOff reports whether player turned chat off.
	ChatOff(ctx context.Context, player string) (bool, error)
	// SetChatOff turns chat off (or on again) for player.
	SetChatOff(ctx context.Context, player string, off bool) error
}

// Games reads games: who sits, whether it is over.
type Games interface {
	View(ctx context.Context, id string, cred players.Credential, fn games.ViewFunc) error
}

// Players says whose a credential is.
type Players interface {
	Identify(ctx context.Context, cred players.Credential) (players.Player, error)
}

// Service serves the games' rooms. It is safe for concurrent use.
type Service struct {
	store   Store
	games   Games
	players Players
	now     func() time.Time
	wake    func(game string) // tells a game's watchers its chat changed
	burst   *ratelimit.Window
	minute  *ratelimit.Window

	blocks Blocks // nil: no one blocks anyone
	mutes  Mutes  // nil: no one is muted

	mu     sync.Mutex
	latest map[string]int64 // each game's last line as this server knows it
}

// Blocks say whose lines are hidden from a reader (relations.BlockList).
type Blocks interface {
	// Hidden returns the players whose lines are hidden from player: those
	// they block.
	Hidden(ctx context.Context, player string) ([]string, error)
}

// WithBlocks hides from each reader the lines of the players they block,
// in every read: the page's panel, the API and the streams.
func WithBlocks(b Blocks) Option { return func(s *Service) { s.blocks = b } }

// maxLatest bounds the games whose last line is remembered: past it they
// are all forgotten, and read again from the store when asked for.
const maxLatest = 100_000

// Option configures a Service.
type Option func(*Service)

// WithClock makes the service read the time from now (the lines' times
// and the rate limits); the default is time.Now.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithWaker makes the service call wake with a game's id when a line was
// said there (games.Feed.Wake wakes the game's streams).
func WithWaker(wake func(game string)) Option { return func(s *Service) { s.wake = wake } }

// New returns a service keeping its lines in store, reading games from
// g and players from p.
func New(store Store, g Games, p Players, opts ...Option) *Service {
	s := &Service{store: store, games: g, players: p, now: time.Now, wake: func(string) {}, latest: map[string]int64{}}
	for _, o := range opts {
		o(s)
	}
	clock := func() time.Time { return s.now() }
	s.burst = ratelimit.NewWindow(BurstLines, BurstWindow, clock)
	s.minute = ratelimit.NewWindow(MinuteLines, time.Minute, clock)
	return s
}

// View is a viewer's room at a game.
type View struct {
	// Chat says the game has rooms: a game between two players.
	Chat bool
	// Room is the viewer's room: the players' for a player, else the
	// spectators'.
	Room Room
	// Lines are the room's latest lines, oldest first; Last numbers the
	// game's last line in either room.
	Lines []Line
	Last  int64
	// Off says the viewer turned chat off: they see no room.
	Off bool
	// Write says the viewer may write now; else Why says why not, and
	// Refused is that refusal (its code and detail, for a page to say it
	// in the viewer's language).
	Write   bool
	Why     string
	Refused *errs.Error
}

// seat is what the service needs of a game and a viewer.
type seat struct {
	chat   bool // a game between two players
	player bool // the viewer holds a seat
	over   bool
	named  bool // both players have names
}

// seat reads game id for cred's viewer.
func (s *Service) seat(ctx context.Context, id string, cred players.Credential) (seat, error) {
	var st seat
	err := s.games.View(ctx, id, cred, func(rec *games.Record, seats games.Seats) { st = seatOf(rec, seats) })
	if err != nil {
		return seat{}, err
	}
	return st, nil
}

// seatOf is what the chat needs of the game rec holds, for a viewer
// holding seats.
func seatOf(rec *games.Record, seats games.Seats) seat {
	return seat{
		chat:   rec.Mode == games.Invite,
		player: seats.Any(),
		over:   rec.Game.Outcome().Over(),
		named:  rec.Entrant(rules.White).Named() && rec.Entrant(rules.Black).Named(),
	}
}

// room is the room of a viewer seated so.
func (st seat) room() Room {
	if st.player {
		return PlayerRoom
	}
	return SpectatorRoom
}

// Room returns game id's room for cred's viewer (a player, or with ""
// anyone), with its latest lines and whether they may write.
func (s *Service) Room(ctx context.Context, id string, cred players.Credential) (View, error) {
	st, err := s.seat(ctx, id, cred)
	if err != nil {
		return View{}, err
	}
	return s.room(ctx, id, st, cred)
}

// RoomOf is Room of the game rec holds, read already (a copy, as a
// games.ViewFunc is given), for cred's viewer, who holds seats in it.
func (s *Service) RoomOf(ctx context.Context, rec *games.Record, seats games.Seats, cred players.Credential) (View, error) {
	return s.room(ctx, rec.ID, seatOf(rec, seats), cred)
}

// room is game id's room for cred's viewer, seated so.
func (s *Service) room(ctx context.Context, id string, st seat, cred players.Credential) (View, error) {
	if !st.chat {
		return View{}, nil
	}
	v := View{Chat: true, Room: st.room()}
	p, err := s.identify(ctx, cred)
	if err != nil {
		return View{}, err
	}
	if v.Off, err = s.off(ctx, p.ID); err != nil || v.Off {
		return v, err
	}
	if v.Lines, v.Last, err = s.lines(ctx, id, v.Room, 0, p.ID); err != nil {
		return View{}, err
	}
	if e := s.refusal(st, v.Room, p); e != nil {
		v.Why, v.Refused = e.Msg, e
	} else if err := s.muted(ctx, p.ID); err != nil {
		if errs.Of(err).Detail != errs.ChatMuted {
			return View{}, err
		}
		v.Why, v.Refused = errs.Of(err).Msg, errs.Of(err)
	} else {
		v.Write = true
	}
	return v, nil
}

// Lines returns the latest lines of game id's room numbered after after,
// oldest first, and the number of the game's last line, to cred's viewer:
// a player reads the players' room, anyone else the spectators'.
func (s *Service) Lines(ctx context.Context, id string, cred players.Credential, room Room, after int64) ([]Line, int64, error) {
	st, err := s.seat(ctx, id, cred)
	if err != nil {
		return nil, 0, err
	}
	p, err := s.mayRead(ctx, st, room, cred)
	if err != nil {
		return nil, 0, err
	}
	return s.lines(ctx, id, room, after, p.ID)
}

// Since returns what the stream of game id to cred's viewer, who has
// seen its lines up to after, has not sent yet: the lines of their room
// numbered after after, and the game's last line's number. It reads
// nothing when this server knows no later line was said.
func (s *Service) Since(ctx context.Context, id string, cred players.Credential, after int64) ([]Line, int64, error) {
	s.mu.Lock()
	last, known := s.latest[id]
	s.mu.Unlock()
	if known && last <= after {
		return nil, after, nil
	}
	st, err := s.seat(ctx, id, cred)
	if err != nil {
		return nil, after, err
	}
	if !st.chat {
		s.learn(id, 0) // it never has a line
		return nil, after, nil
	}
	p, err := s.mayRead(ctx, st, st.room(), cred)
	if err != nil {
		if errs.Of(err).Detail == errs.ChatOff {
			return nil, after, nil // a viewer with chat off hears no lines
		}
		return nil, after, err
	}
	return s.lines(ctx, id, st.room(), after, p.ID)
}

// mayRead returns the viewer of cred, refusing them a room not theirs,
// or when chat is off.
func (s *Service) mayRead(ctx context.Context, st seat, room Room, cred players.Credential) (players.Player, error) {
	if !st.chat {
		return players.Player{}, noChat()
	}
	if room != st.room() {
		return players.Player{}, wrongRoom(st.room())
	}
	p, err := s.identify(ctx, cred)
	if err != nil {
		return players.Player{}, err
	}
	off, err := s.off(ctx, p.ID)
	if err != nil {
		return players.Player{}, err
	}
	if off {
		return players.Player{}, chatOff()
	}
	return p, nil
}

// lines reads a room's lines after after for reader (a player's id, ""
// for none), the lines of those they block left out, and notes the
// game's last.
func (s *Service) lines(ctx context.Context, id string, room Room, after int64, reader string) ([]Line, int64, error) {
	lines, last, err := s.store.ChatLines(ctx, id, room, after, HistoryLines)
	if err != nil {
		return nil, 0, errs.FromStore(fmt.Errorf("reading game %s's chat: %w", id, err))
	}
	s.learn(id, last)
	if s.blocks != nil && reader != "" && len(lines) > 0 {
		hidden, err := s.blocks.Hidden(ctx, reader)
		if err != nil {
			return nil, 0, err
		}
		lines = slices.DeleteFunc(lines, func(l Line) bool { return slices.Contains(hidden, l.Author) })
	}
	return lines, max(last, after), nil
}

// learn notes that game id's last line is numbered last, or later.
func (s *Service) learn(id string, last int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.latest) >= maxLatest {
		clear(s.latest)
	}
	if last > s.latest[id] {
		s.latest[id] = last
	} else if _, ok := s.latest[id]; !ok {
		s.latest[id] = last
	}
}

// Post says text in game id's room for cred's player, and tells the
// game's watchers. It refuses, keeping nothing: an empty line or one
// over MaxRunes, a room not the player's, a player with chat off, a game
// over, an anonymous player at a game between two named ones (Invalid,
// each with its Detail), a repeat of the player's previous line in the
// room (Invalid, ChatRepeated), and a player over the rate
// (TooMany, ChatRate).
func (s *Service) Post(ctx context.Context, id string, cred players.Credential, room Room, text string) (Line, error) {
	text, err := Clean(text)
	if err != nil {
		return Line{}, err
	}
	p, err := s.identify(ctx, cred)
	if err != nil {
		return Line{}, err
	}
	if p.ID == "" {
		return Line{}, errs.Errorf(errs.Unauthorized, "Say who is writing: only a player with a credential writes in a game's chat.")
	}
	st, err := s.seat(ctx, id, cred)
	if err != nil {
		return Line{}, err
	}
	if !st.chat {
		return Line{}, noChat()
	}
	if room != st.room() {
		return Line{}, wrongRoom(st.room())
	}
	off, err := s.off(ctx, p.ID)
	if err != nil {
		return Line{}, err
	}
	if off {
		return Line{}, chatOff()
	}
	if e := s.refusal(st, room, p); e != nil {
		return Line{}, e
	}
	if err := s.muted(ctx, p.ID); err != nil {
		return Line{}, err
	}
	if err := s.take(p.ID); err != nil {
		return Line{}, err
	}
	l, err := s.store.AddChatLine(ctx, Line{Game: id, Room: room, Author: p.ID, Name: p.Name, Text: text, At: s.now()})
	if err != nil {
		s.burst.Untake(p.ID)
		s.minute.Untake(p.ID)
		if errors.Is(err, ErrRepeated) {
			return Line{}, errs.Errorf(errs.Invalid, "You said that just before: say something else.").WithDetail(errs.ChatRepeated)
		}
		return Line{}, errs.FromStore(fmt.Errorf("keeping a line of game %s's chat: %w", id, err))
	}
	s.learn(id, l.Seq)
	s.wake(id)
	return l, nil
}

// refusal says why player p may not write in room at a game seated so,
// nil when they may.
func (s *Service) refusal(st seat, room Room, p players.Player) *errs.Error {
	switch {
	case st.over:
		return errs.Errorf(errs.Invalid, "The game is over: its chat is read-only.").WithDetail(errs.ChatClosed)
	case room == SpectatorRoom && st.named && !p.Named():
		return errs.Errorf(errs.Invalid, "Only players with a name write in the chat of a game between two named players: choose a name first.").WithDetail(errs.ChatAnonymous)
	}
	return nil
}

// take spends one line of player's rates, or refuses.
func (s *Service) take(player string) error {
	wait := s.burst.Take(player)
	if wait == 0 {
		if wait = s.minute.Take(player); wait > 0 {
			s.burst.Untake(player)
		}
	}
	if wait == 0 {
		return nil
	}
	e := errs.Errorf(errs.TooMany, "You are writing too fast: at most %d lines in %d seconds and %d a minute. Wait a moment.",
		BurstLines, int(BurstWindow.Seconds()), MinuteLines).WithDetail(errs.ChatRate)
	e.RetryAfter = wait
	return e
}

// Off reports whether cred's player turned chat off.
func (s *Service) Off(ctx context.Context, cred players.Credential) (bool, error) {
	p, err := s.identify(ctx, cred)
	if err != nil {
		return false, err
	}
	return s.off(ctx, p.ID)
}

// SetOff turns chat off for cred's player, or on again.
func (s *Service) SetOff(ctx context.Context, cred players.Credential, off bool) error {
	p, err := s.identify(ctx, cred)
	if err != nil {
		return err
	}
	if p.ID == "" {
		return errs.Errorf(errs.Unauthorized, "Say who you are: chat is turned off for a player.")
	}
	if err := s.store.SetChatOff(ctx, p.ID, off); err != nil {
		return errs.FromStore(fmt.Errorf("turning chat off for player %s: %w", p.ID, err))
	}
	return nil
}

// off reports whether player (an id, "" for none) turned chat off.
func (s *Service) off(ctx context.Context, player string) (bool, error) {
	if player == "" {
		return false, nil
	}
	off, err := s.store.ChatOff(ctx, player)
	if err != nil {
		return false, errs.FromStore(fmt.Errorf("reading player %s's chat setting: %w", player, err))
	}
	return off, nil
}

// identify returns cred's player, the zero Player for none.
func (s *Service) identify(ctx context.Context, cred players.Credential) (players.Player, error) {
	if cred == "" {
		return players.Player{}, nil
	}
	p, err := s.players.Identify(ctx, cred)
	if err != nil {
		return players.Player{}, fmt.Errorf("identifying a chat's reader: %w", err)
	}
	return p, nil
}
