package games

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/players"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/rules"
)

// Bot is the computer's seat at a game against it.
type Bot struct {
	// Color is the side the computer plays.
	Color rules.Color `json:"color"`
	// Level is its strength, 1 (weakest) to engine.Levels.
	Level int `json:"level"`
}

// botHolder is the holder of the computer's seat: no player has its id (a
// player's id is base64 without a colon).
func botHolder(level int) string { return "engine:" + strconv.Itoa(level) }

// BotSettings are what a game against the computer is created with.
type BotSettings struct {
	// Color is the human's side; no Color picks one at random.
	Color rules.Color
	// Level is the computer's strength, 1 to engine.Levels.
	Level int
	// Clock is the time control; nil for a game without a clock. Both
	// seats are taken at once, so it starts running at once.
	Clock *TimeControl
}

// CreateBot stores g as a new game between cred and the computer, which
// holds the other seat and plays its plies by itself (at once when it acts
// first). It returns the game's id and the human's side.
func (s *Service) CreateBot(ctx context.Context, cred players.Credential, g *rules.Game, settings BotSettings) (id string, side rules.Color, err error) {
	holder, err := s.creator(ctx, cred)
	switch {
	case err != nil:
		return "", 0, err
	case settings.Level < 1 || settings.Level > engine.Levels:
		return "", 0, errs.Errorf(errs.Invalid, "The level must be from 1 to %d.", engine.Levels).WithDetail(errs.BadLevel)
	case s.computer == nil:
		return "", 0, errs.Internalf(errors.New("no computer"), "creating a game against the computer")
	}
	if !engine.Supports(g.Variant()) {
		return "", 0, UnsupportedVariant("The computer plays %s only", g.Variant(), s.loader.variants)
	}
	side = settings.Color
	if side != rules.White && side != rules.Black {
		side = randomColor()
	}
	now := s.now()
	rec := &Record{Game: g, Mode: BotGame, Created: now, Updated: now, Revision: 1}
	rec.Bot = &Bot{Color: side.Other(), Level: settings.Level}
	if side == rules.White {
		rec.White, rec.Black = holder, botHolder(settings.Level)
	} else {
		rec.White, rec.Black = botHolder(settings.Level), holder
	}
	if settings.Clock != nil {
		rec.Clock = NewClock(*settings.Clock)
		if !g.Outcome().Over() {
			rec.Clock.run(g.Turn().Actor, now)
		}
	}
	if err := s.store.Create(ctx, rec); err != nil {
		return "", 0, errs.Of(err)
	}
	s.timers.set(rec.ID, flagTimerOf(rec, now), s.checkClock)
	s.tellComputer(rec.ID, s.computerTurn(rec.ID, rec, now, engine.ClientOf(ctx)))
	return rec.ID, side, nil
}

// Computer plays the computer's seat at games against it (package
// computer's Player).
type Computer interface {
	// Turn is told, once each change to game id is committed, of the turn
	// the computer owes it, or nil when it owes none; a turn told before is
	// cancelled.
	Turn(id string, t *ComputerTurn)
	// Idle reports whether game id has no turn pending here.
	Idle(id string) bool
	// Close cancels every turn and waits for them to end.
	Close()
}

// WithComputer makes c play the computer's seat at games against it; the
// service's Close closes it. Without it, no game against the computer is
// created.
func WithComputer(c Computer) Option { return func(s *Service) { s.computer = c } }

// ComputerTurn is a search the computer owes a game: its copy of the game,
// taken under the lock, the ply it was taken at, in a game with a clock
// the computer's clock then, and the client whose request made it due (the
// engine shares its workers fairly among clients).
type ComputerTurn struct {
	Game   *rules.Game // the computer's to keep
	Ply    int
	Level  int
	Clock  *engine.Clock // nil for a game without a clock
	At     time.Time     // when the clock was read, on the machine's clock
	Client string
	// Play plays the computer's action at the game's ply Ply: a game that
	// has moved on refuses it, harmlessly.
	Play func(ctx context.Context, a rules.Action) error
}

// computerOverhead is the time a ply of the computer's loses outside its
// search (starting it, replaying the game, saving the ply).
const computerOverhead = 50 * time.Millisecond

// computerTurn returns the turn the computer owes game id as rec stands at
// now, for client (see engine.WithClient), or nil when the computer plays
// no part in it or is not to act.
func (s *Service) computerTurn(id string, rec *Record, now time.Time, client string) *ComputerTurn {
	g := rec.Game
	if s.computer == nil || rec.Bot == nil || g.Outcome().Over() || g.Turn().Actor != rec.Bot.Color {
		return nil
	}
	cp, err := rules.Replay(g.Variant(), g.StartFEN(), g.BCN())
	if err != nil {
		return nil // the game replays from its own record; never seen
	}
	ply := g.Ply()
	t := &ComputerTurn{Game: cp, Ply: ply, Level: rec.Bot.Level, At: time.Now(), Client: client}
	if c := rec.Clock; c != nil && c.Running == rec.Bot.Color && !c.Control.Correspondence() { // days: the computer thinks as without a clock
		t.Clock = &engine.Clock{Left: c.Left(rec.Bot.Color, now), Increment: c.Control.Increment, Overhead: computerOverhead}
	}
	t.Play = func(ctx context.Context, a rules.Action) error {
		return s.update(ctx, id, "", nil, func(rec *Record, _ Seats) error {
			g := rec.Game
			if rec.Bot == nil || g.Outcome().Over() || g.Turn().Actor != rec.Bot.Color {
				return errs.Errorf(errs.Conflict, "The computer is not to act.")
			}
			if err := checkPly(g, ply); err != nil {
				return err
			}
			return g.Play(a)
		})
	}
	return t
}

// resume returns the turn game id owes the computer, for client, when the
// computer is to act and has no turn pending: after a restart, or a
// change another server made.
func (s *Service) resume(id string, rec *Record, client string) *ComputerTurn {
	if s.computer == nil || rec.Bot == nil || !s.computer.Idle(id) {
		return nil
	}
	return s.computerTurn(id, rec, s.now(), client)
}

// tellComputer tells the computer of the turn game id owes it (nil: none).
func (s *Service) tellComputer(id string, t *ComputerTurn) {
	if s.computer != nil {
		s.computer.Turn(id, t)
	}
}

// undoBot takes back, at a game against the computer, its player's last
// ply and the computer's since (mayUndo allowed it), and returns the
// player's ply.
func undoBot(rec *Record) (rules.PlyInfo, error) {
	g := rec.Game
	keep := lastPlyBy(g, rec.Bot.Color.Other())
	undone := g.Record().HistorySince(keep)[0]
	for g.Ply()-g.StartPly() > keep {
		if err := g.Undo(); err != nil {
			return undone, err
		}
	}
	return undone, nil
}

// UnsupportedVariant refuses a game of v, a variant the engine does not
// play (engine.Supports). format words the refusal around the names of
// those of among it plays, such as "The computer plays %s only".
func UnsupportedVariant(format string, v rules.Variant, among []rules.Variant) *errs.Error {
	var names []string
	for _, w := range among {
		if engine.Supports(w) {
			names = append(names, w.Name())
		}
	}
	plays := "no variant"
	if n := len(names); n > 0 {
		plays = strings.Join(names[:n-1], ", ")
		if n > 1 {
			plays += " and "
		}
		plays += names[n-1]
	}
	return errs.Errorf(errs.Invalid, format+", not %s.", plays, v.Name()).WithDetail(errs.UnsupportedVariant)
}
