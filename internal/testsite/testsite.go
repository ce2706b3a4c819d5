// Package testsite wires the services together as main does, for the
// tests of the front ends: games, the players who hold their seats, the
// lobby, analysis and reviews, the games' chat, and the computer.
package testsite

import (
	"context"
	"time"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/computer"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/lobby"
	"github.com/banchess/banchess/moderation"
	"github.com/banchess/banchess/notify"
	"github.com/banchess/banchess/password"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/relations"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/tournament"
)

// Store is a store of everything the services keep (every store of
// package store is one).
type Store interface {
	games.Store
	players.Store
	lobby.Store
	Chat() chat.Store
	Relations() relations.Store
	Safety() players.SafetyStore
	Moderation() moderation.Store
	Tournaments() tournament.Store
	Challenges() challenges.Store
	Reviews() analysis.ReviewStore
}

// Engine analyses positions and plays the computer's plies
// (engine.Pool is one).
type Engine interface {
	analysis.Analyser
	computer.Engine
}

// Config says how to wire the services. Its zero value wires them on a
// fresh memory store with no engine.
type Config struct {
	// Now is the services' clock; nil is time.Now.
	Now func() time.Time
	// Passwords hash passwords; nil is a cheap hasher (password.Default's
	// format and checks, a fraction of its cost).
	Passwords players.Passwords
	// Engine analyses and plays the computer's seat; nil: neither.
	Engine Engine
	// LobbyAsMain makes the lobby play what main's does.
	LobbyAsMain bool
	// Options for each service, after those Config makes.
	Players  []players.Option
	Games    []games.Option
	Lobby    []lobby.Option
	Analysis []analysis.Option
	Computer []computer.Option
	Chat     []chat.Option
	// Tournament are the tournaments' options (no schedule by default).
	Tournament []tournament.Option
	// Challenges are the challenges' options.
	Challenges []challenges.Option
}

// Site is the services wired together.
type Site struct {
	Games    *games.Service
	Players  *players.Service
	Lobby    *lobby.Service
	Analysis *analysis.Service
	Chat     *chat.Service
	// Relations keeps follows and blocks.
	Relations *relations.Service
	// Moderation takes reports and serves the moderators.
	Moderation *moderation.Service
	// Blocks answer who blocks whom (as the lobby and the chat ask).
	Blocks relations.BlockList
	// Tournaments run arenas; their Run is not started.
	Tournaments *tournament.Service
	// Challenges are players' challenges to each other.
	Challenges *challenges.Service
	// Feed wakes the watchers of the games (games.WithFeed).
	Feed *games.Feed
	// Notify keeps named players' notifications, fed as main feeds them.
	Notify *notify.Service
}

// Cheap is a password hasher of password.Default's format and checks at a
// fraction of its cost.
func Cheap() players.Passwords {
	return password.NewHasher(password.Params{Memory: 64, Time: 1, Threads: 1}, 2)
}

// New wires the services on st (a fresh memory store when nil) as c says.
// Close the Site's Games and Analysis when done with them.
func New(st Store, c Config) Site {
	if st == nil {
		st = store.NewMemory()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Passwords == nil {
		c.Passwords = Cheap()
	}
	pl := players.New(st, append([]players.Option{players.WithClock(c.Now), players.WithPasswords(c.Passwords), players.WithSafety(st.Safety()),
		players.WithBlocks(relations.NewBlockList(st.Relations()))}, c.Players...)...)
	feed := games.NewFeed()
	ns := store.Notifications(st)
	if ns == nil {
		ns = notify.NewMemory()
	}
	inbox := notify.New(ns, pl, notify.WithClock(c.Now))
	gopts := []games.Option{games.WithClock(c.Now), games.WithFeed(feed),
		games.WithChanges(func(ctx context.Context, ch games.Change) { _ = inbox.Game(ctx, ch) })}
	var an analysis.Analyser
	if c.Engine != nil {
		gopts = append(gopts, games.WithComputer(computer.New(c.Engine, c.Computer...)))
		an = c.Engine
	}
	svc := games.New(st, pl, append(gopts, c.Games...)...)
	blocks := relations.NewBlockList(st.Relations())
	lopts := []lobby.Option{lobby.WithClock(c.Now), lobby.WithBlocks(blocks)}
	if c.LobbyAsMain {
		lopts = append(lopts, lobby.WithVariants(rules.BanChess{}.ID(), rules.Classic{}.ID()))
	}
	lb := lobby.New(st, svc, svc.Loader(), pl, append(lopts, c.Lobby...)...)
	talk := chat.New(st.Chat(), svc, pl, append([]chat.Option{chat.WithClock(c.Now), chat.WithWaker(feed.Wake), chat.WithBlocks(blocks),
		chat.WithMutes(moderation.NewMuteList(st.Moderation(), c.Now))}, c.Chat...)...)
	return Site{
		Games:      svc,
		Players:    pl,
		Lobby:      lb,
		Blocks:     blocks,
		Relations:  relations.New(st.Relations(), pl, st, lb, relations.WithClock(c.Now)),
		Analysis:   analysis.New(svc, svc.Loader(), st.Reviews(), an, append([]analysis.Option{analysis.WithClock(c.Now)}, c.Analysis...)...),
		Chat:       talk,
		Moderation: moderation.New(st.Moderation(), pl, talk, st.Chat(), moderation.WithClock(c.Now)),
		Feed:       feed,
		Notify:     inbox,
		Tournaments: tournament.New(storeTournaments{st}, st, svc, pl, svc.Loader(),
			append([]tournament.Option{tournament.WithClock(c.Now), tournament.WithBerserk(svc.Clocks().Berserk),
				tournament.WithStarted(func(ctx context.Context, t *tournament.Tournament) { _ = inbox.Tournament(ctx, t) })}, c.Tournament...)...),
		Challenges: challenges.New(st.Challenges(), svc, svc.Loader(), pl,
			append([]challenges.Option{challenges.WithClock(c.Now), challenges.WithBlocker(pl),
				challenges.WithNotices(func(ctx context.Context, ch challenges.Challenge) { _ = inbox.Challenge(ctx, ch) })}, c.Challenges...)...),
	}
}

// Close stops the services' clock timers, the computer's searches and the
// reviews.
func (s Site) Close() {
	s.Analysis.Close()
	s.Games.Close()
}
