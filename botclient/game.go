package botclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/banchess/banchess/rules"
)

// gameEvent is what the bot reads of a gameStart or gameFinish.
type gameEvent struct {
	GameID string `json:"gameId"`
	Status struct {
		Name string `json:"name"`
	} `json:"status"`
	Winner string `json:"winner"`
}

// noClock is the time lichess writes for a side without a clock.
const noClock = 2147483647

// gameLine is a line of a game's stream: gameFull (with its state) or
// gameState.
type gameLine struct {
	Type    string `json:"type"`
	Variant struct {
		Key string `json:"key"`
	} `json:"variant"`
	White      struct{ ID string } `json:"white"`
	Black      struct{ ID string } `json:"black"`
	InitialFen string              `json:"initialFen"`
	State      *gameState          `json:"state"`
	gameState
}

// gameState is a game as it stands.
type gameState struct {
	Moves  string `json:"moves"`
	WTime  int64  `json:"wtime"`
	BTime  int64  `json:"btime"`
	WInc   int64  `json:"winc"`
	BInc   int64  `json:"binc"`
	Status string `json:"status"`
	Winner string `json:"winner"`
}

// errOver stops a game's stream once the game is over.
var errOver = errors.New("the game is over")

// game is one game the bot plays.
type game struct {
	b       *Client
	id      string
	variant rules.Variant
	uciName string
	start   string // the position's "startpos" or "fen …"
	side    rules.Color
	eng     *engine
	posted  int // the plies there were when the bot last posted one; -1: none
}

// play plays game id to its end, with an engine of its own, opening its
// stream again when it drops.
func (b *Client) play(ctx context.Context, id string) error {
	g := &game{b: b, id: id, posted: -1}
	defer func() {
		if g.eng != nil {
			g.eng.stop()
		}
	}()
	b.c.Log.Info("playing", "game", id)
	for {
		err := b.stream(ctx, "/api/"+b.api()+"/game/stream/"+id, g.line)
		var ae *apiError
		switch {
		case errors.Is(err, errOver):
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.As(err, &ae) && ae.Status != http.StatusTooManyRequests && ae.Status < 500:
			return err
		}
		b.c.Log.Warn("the game's stream dropped: opening it again", "game", id, "err", err)
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// line handles a line of the game's stream.
func (g *game) line(ctx context.Context, data []byte) error {
	var l gameLine
	if err := json.Unmarshal(data, &l); err != nil {
		return fmt.Errorf("a line of the game's stream that is not JSON: %w", err)
	}
	switch l.Type {
	case "gameFull":
		if err := g.full(ctx, l); err != nil {
			return err
		}
		return g.state(ctx, *l.State)
	case "gameState":
		return g.state(ctx, l.gameState)
	}
	return nil // chatLine, opponentGone…
}

// full reads the game's variant, start and the bot's side, and starts
// its engine (once).
func (g *game) full(ctx context.Context, l gameLine) error {
	if l.State == nil {
		return errors.New("a gameFull without its state")
	}
	uciName := l.Variant.Key
	if uciName == "standard" {
		uciName = "chess"
	}
	g.variant = nil
	for _, v := range rules.Variants() {
		if v.UCIName() == uciName {
			g.variant, g.uciName = v, uciName
		}
	}
	if g.variant == nil {
		return fmt.Errorf("%w: the variant %q is not one the bot knows", errOver, l.Variant.Key)
	}
	switch me := g.b.me.ID; {
	case l.White.ID == me:
		g.side = rules.White
	case l.Black.ID == me:
		g.side = rules.Black
	default:
		return fmt.Errorf("%w: the bot plays neither side", errOver)
	}
	g.start = "startpos"
	if l.InitialFen != "" && l.InitialFen != "startpos" {
		g.start = "fen " + l.InitialFen
	}
	if g.eng == nil {
		eng, err := startEngine(ctx, g.b.c.Engine, g.uciName, g.b.c.Options)
		if err != nil {
			return fmt.Errorf("%w: %w", errOver, err)
		}
		g.eng = eng
	}
	return nil
}

// replay is the game after moves.
func (g *game) replay(moves []string) (*rules.Game, error) {
	pos := rules.New(g.variant)
	if fen, ok := strings.CutPrefix(g.start, "fen "); ok {
		var err error
		if pos, err = rules.FromFEN(fen, g.variant); err != nil {
			return nil, err
		}
	}
	for i, tok := range moves {
		prefix := "m:"
		if pos.Turn().Phase == rules.PhaseBan {
			prefix, tok = "b:", tok[:min(len(tok), 4)]
		}
		a, err := rules.ParseAction(prefix + tok)
		if err == nil {
			err = pos.Play(a)
		}
		if err != nil {
			return nil, fmt.Errorf("ply %d (%s): %w", i+1, tok, err)
		}
	}
	return pos, nil
}

// state plays the bot's ply when the game waits for it; once the game is
// over it logs the result and ends the stream.
func (g *game) state(ctx context.Context, st gameState) error {
	if st.Status != "started" && st.Status != "created" {
		g.b.c.Log.Info("game over", "game", g.id, "status", st.Status, "winner", st.Winner, "plies", len(strings.Fields(st.Moves)))
		return errOver
	}
	moves := strings.Fields(st.Moves)
	pos, err := g.replay(moves)
	if err != nil {
		return fmt.Errorf("%w: replaying the game: %w", errOver, err)
	}
	if pos.Outcome().Over() || pos.Turn().Actor != g.side || g.posted == len(moves) {
		return nil
	}
	position := g.start
	if len(moves) > 0 {
		position += " moves " + st.Moves
	}
	goArgs, wait := g.goArgs(st)
	ply, err := g.eng.search(ctx, position, goArgs, wait)
	if err != nil {
		return fmt.Errorf("%w: %w", errOver, err)
	}
	g.posted = len(moves)
	if err := g.b.call(ctx, http.MethodPost, "/api/"+g.b.api()+"/game/"+g.id+"/move/"+ply, nil, nil); err != nil {
		// Refused (the clock ran out, the game changed): the next state
		// tells; a ply the server did not take is looked for again.
		g.b.c.Log.Warn("a ply refused", "game", g.id, "ply", ply, "err", err)
		g.posted = -1
	}
	return nil
}

// goArgs are the engine's search arguments for st, and how long to wait
// for its answer.
func (g *game) goArgs(st gameState) (string, time.Duration) {
	if d := g.b.c.MoveTime; d > 0 {
		return fmt.Sprintf("movetime %d", d.Milliseconds()), d + 10*time.Second
	}
	if st.WTime >= noClock || st.BTime >= noClock {
		return "movetime 1000", 11 * time.Second
	}
	left := st.WTime
	if g.side == rules.Black {
		left = st.BTime
	}
	return fmt.Sprintf("wtime %d btime %d winc %d binc %d", st.WTime, st.BTime, st.WInc, st.BInc),
		time.Duration(left)*time.Millisecond + 10*time.Second
}
