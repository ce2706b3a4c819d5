package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/stream"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// eventsPeriod is how often the stream of events looks at the player's
// games: no feed wakes it when a game starts.
const eventsPeriod = time.Second

// eventsListed bounds the games the stream of events looks at: the most
// recently played.
const eventsListed = 50

// event is a line of the stream of events.
type event struct {
	Type      string         `json:"type"` // "gameStart", "gameFinish", "challenge", "challengeCanceled" or "challengeDeclined"
	Game      *eventGame     `json:"game,omitempty"`
	Challenge *challengeJSON `json:"challenge,omitempty"`
}

// events streams the token's player's games as lichess's stream of
// events does (NDJSON): gameStart for each game between two sides that
// is under way when the stream opens or starts later, gameFinish when one
// of those ends; an empty line every 6 s. A game the player holds both
// seats of (played from one place) is left out: it has no side to tell.
func (a *eventsAPI) events(c echo.Context) error {
	who, err := a.s.authorize(c, players.BoardPlay, players.BotPlay)
	if err != nil {
		return err
	}
	started := map[string]bool{}  // the games told of as started
	finished := map[string]bool{} // those told of as finished
	told := a.s.challengeEvents(who.player.ID, a.s.kit.Origin(c))
	poll := func(ctx context.Context) ([]stream.Event, error) {
		out, err := told(ctx)
		if err != nil {
			return nil, err
		}
		list, err := a.s.games.Games(ctx, who.cred, eventsListed)
		if err != nil && errs.Of(err).Code == errs.Unavailable && ctx.Err() == nil {
			return nil, nil // the store was busy: look again next time
		}
		if err != nil {
			return nil, err
		}
		for _, sum := range list {
			side, ok := sideOf(sum, who.player.ID)
			over := sum.Phase == "over"
			if !ok || finished[sum.ID] || over && !started[sum.ID] || !over && started[sum.ID] {
				continue
			}
			ev, err := a.event(ctx, sum.ID, side)
			if err != nil && ctx.Err() != nil {
				return nil, err
			}
			if err != nil {
				continue // unreadable or busy now: told of when it can be read
			}
			started[sum.ID] = true
			if ev.Type == "gameFinish" {
				finished[sum.ID] = true
			}
			data, err := json.Marshal(ev)
			if err != nil {
				return nil, fmt.Errorf("encoding an event of game %s: %w", sum.ID, err)
			}
			out = append(out, stream.Event{Data: data})
		}
		return out, nil
	}
	return a.s.streams.Poll(c, eventsPeriod, poll, nil)
}

// event reads game id and tells of it as it stands: gameStart while it
// goes on, gameFinish once over.
func (a *eventsAPI) event(ctx context.Context, id string, side rules.Color) (event, error) {
	var rec *games.Record
	if err := a.s.games.View(ctx, id, "", func(r *games.Record, _ games.Seats) { rec = r }); err != nil {
		return event{}, err
	}
	g := a.s.eventGameOf(rec, side, a.s.kit.Now(), a.s.titlesOf(ctx, rec))
	ev := event{Type: "gameStart", Game: &g}
	if rec.Game.Outcome().Over() {
		ev.Type = "gameFinish"
	}
	return ev, nil
}

// sideOf is the side player holds at the game sum, when it holds exactly
// one and the other is taken (a game with a friend starts when the friend
// comes).
func sideOf(sum games.Summary, player string) (rules.Color, bool) {
	w, b := sum.White == player, sum.Black == player
	switch {
	case sum.White == "" || sum.Black == "":
		return 0, false
	case w && !b:
		return rules.White, true
	case b && !w:
		return rules.Black, true
	}
	return 0, false
}

// challengeEvents returns what tells player's stream of events of their
// challenges, each time it is called since the last: challenge for each
// open one (those open when the stream opens first), challengeDeclined
// and challengeCanceled when one is answered so (an accepted one is told
// by its gameStart). Without challenges it tells nothing.
func (s *deps) challengeEvents(player, origin string) func(context.Context) ([]stream.Event, error) {
	if s.challenges == nil {
		return func(context.Context) ([]stream.Event, error) { return nil, nil }
	}
	opened := s.kit.Now()
	since := opened.Add(-challenges.Lifetime)
	told := map[string]challenges.Status{} // the status each was told with
	return func(ctx context.Context) ([]stream.Event, error) {
		now := s.kit.Now()
		list, err := s.challenges.Changed(ctx, player, since)
		if err != nil && errs.Of(err).Code == errs.Unavailable && ctx.Err() == nil {
			return nil, nil // the store was busy: look again next time
		}
		if err != nil {
			return nil, err
		}
		since = now.Add(-2 * eventsPeriod) // what changed since, and a margin for clocks and commits
		var out []stream.Event
		for i := len(list) - 1; i >= 0; i-- { // the oldest first
			c := list[i]
			typ := ""
			switch st := c.StatusAt(now); {
			case told[c.ID] == st:
			case st == challenges.Created:
				typ = "challenge"
			case st == challenges.Declined && !c.Updated.Before(opened):
				typ = "challengeDeclined"
			case st == challenges.Canceled && !c.Updated.Before(opened):
				typ = "challengeCanceled"
			}
			told[c.ID] = c.StatusAt(now)
			if typ == "" {
				continue
			}
			cj := s.challengeOf(c, player, origin, now)
			data, err := json.Marshal(event{Type: typ, Challenge: &cj})
			if err != nil {
				return nil, fmt.Errorf("encoding an event of challenge %s: %w", c.ID, err)
			}
			out = append(out, stream.Event{Data: data})
		}
		return out, nil
	}
}
