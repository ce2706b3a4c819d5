package lichess

import (
	"context"
	"strings"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// noClock is the time lichess writes for a side of a game without a
// clock (2³¹−1 ms).
const noClock = 2147483647

// gameFull is lichess's first line of a game's stream: the game, and its
// state.
type gameFull struct {
	Type       string             `json:"type"` // "gameFull"
	ID         string             `json:"id"`
	Variant    kit.LichessVariant `json:"variant"`
	Clock      *clockJSON         `json:"clock"` // null without a clock
	Speed      string             `json:"speed"`
	Perf       perfName           `json:"perf"`
	Rated      bool               `json:"rated"`
	CreatedAt  int64              `json:"createdAt"`
	White      seatJSON           `json:"white"`
	Black      seatJSON           `json:"black"`
	InitialFen string             `json:"initialFen"` // "startpos", or our extended FEN
	State      gameState          `json:"state"`
}

// clockJSON is a game's time control in milliseconds.
type clockJSON struct {
	Initial   int64 `json:"initial"`
	Increment int64 `json:"increment"`
}

// perfName names the rating a game counts for.
type perfName struct {
	Name string `json:"name"`
}

// seatJSON is a side's player in a gameFull: a player (id, name, title,
// rating, provisional; none of them for an anonymous player) or the
// computer (aiLevel).
type seatJSON struct {
	ID          string  `json:"id,omitempty"`
	Name        string  `json:"name,omitempty"`
	Title       *string `json:"title,omitempty"`
	Rating      int     `json:"rating,omitempty"`
	Provisional bool    `json:"provisional,omitempty"`
	AILevel     int     `json:"aiLevel,omitempty"`
}

// gameState is lichess's line for a game as it stands: every ply so far
// and the clocks, the status and the offers pending.
type gameState struct {
	Type      string `json:"type"` // "gameState"
	Moves     string `json:"moves"`
	WTime     int64  `json:"wtime"`
	BTime     int64  `json:"btime"`
	WInc      int64  `json:"winc"`
	BInc      int64  `json:"binc"`
	Status    string `json:"status"`
	Winner    string `json:"winner,omitempty"`
	WDraw     bool   `json:"wdraw"`
	BDraw     bool   `json:"bdraw"`
	WTakeback bool   `json:"wtakeback"`
	BTakeback bool   `json:"btakeback"`
}

// eventGame is lichess's game object of the stream of events (gameStart,
// gameFinish): the game as one of its players sees it.
type eventGame struct {
	GameID      string             `json:"gameId"`
	FullID      string             `json:"fullId"`
	ID          string             `json:"id"`
	Color       string             `json:"color"`
	Fen         string             `json:"fen"`
	HasMoved    bool               `json:"hasMoved"`
	IsMyTurn    bool               `json:"isMyTurn"`
	LastMove    string             `json:"lastMove"`
	Opponent    opponentJSON       `json:"opponent"`
	Perf        string             `json:"perf"`
	Rated       bool               `json:"rated"`
	SecondsLeft *int64             `json:"secondsLeft"` // null without a clock
	Source      string             `json:"source"`
	Status      statusJSON         `json:"status"`
	Speed       string             `json:"speed"`
	Variant     kit.LichessVariant `json:"variant"`
	Compat      compatJSON         `json:"compat"`
	Winner      string             `json:"winner,omitempty"`
}

// opponentJSON is the other side's player in an eventGame.
type opponentJSON struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	Rating   int    `json:"rating,omitempty"`
	AI       int    `json:"ai,omitempty"`
}

// statusJSON is a status with lichess's number for it.
type statusJSON struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// compatJSON says which of lichess's APIs may play the game.
type compatJSON struct {
	Bot   bool `json:"bot"`
	Board bool `json:"board"`
}

// status names an outcome as lichess does, with lichess's number: a loss
// on time (and a draw when the clock ran out beside too little material
// to mate) is outoftime; an EN-Chess king captured is variantEnd.
func status(o rules.Outcome) statusJSON {
	switch o.Status {
	case rules.Checkmate:
		if o.Reason == rules.KingCapture {
			return statusJSON{60, "variantEnd"}
		}
		return statusJSON{30, "mate"}
	case rules.Resigned:
		return statusJSON{31, "resign"}
	case rules.Stalemate:
		return statusJSON{32, "stalemate"}
	case rules.TimeForfeit:
		return statusJSON{35, "outoftime"}
	case rules.Aborted:
		return statusJSON{25, "aborted"}
	case rules.Draw:
		if o.Reason == rules.Timeout {
			return statusJSON{35, "outoftime"}
		}
		return statusJSON{34, "draw"}
	case rules.Ongoing:
		return statusJSON{20, "started"}
	}
	return statusJSON{38, "unknownFinish"}
}

// winner names the winner, "" for none.
func winner(o rules.Outcome) string {
	if o.Over() && o.Winner != 0 {
		return o.Winner.String()
	}
	return ""
}

// moves writes the plies played since the game's start as lichess's UCI
// list, as our UCI mode writes them: from→to squares and a promotion
// letter, bans and moves alternating in Ban Chess.
func moves(g *rules.Game) string {
	acts := g.Actions()
	parts := make([]string, len(acts))
	for i, a := range acts {
		parts[i] = a.Coords()
	}
	return strings.Join(parts, " ")
}

// speedOf is the game's speed and perf name as lichess names them: by its
// clock, and "correspondence" without one.
func speedOf(rec *games.Record) string {
	if rec.Clock == nil {
		return "correspondence"
	}
	return string(rec.Clock.Control.Speed())
}

// perfOf is the name of the rating the game counts for: lichess's name of
// its speed for chess, the variant's name for another.
func perfOf(rec *games.Record) string {
	v := kit.LichessVariantOf(rec.Game.Variant())
	if v.Key != "standard" {
		return v.Name
	}
	sp := speedOf(rec)
	return strings.ToUpper(sp[:1]) + sp[1:]
}

// stateOf is the record's gameState at now.
func stateOf(rec *games.Record, now time.Time) gameState {
	g := rec.Game
	st := gameState{Type: "gameState", Moves: moves(g), WTime: noClock, BTime: noClock,
		Status: status(g.Outcome()).Name, Winner: winner(g.Outcome()),
		WDraw: rec.Offers.Draw == rules.White, BDraw: rec.Offers.Draw == rules.Black,
		WTakeback: rec.Offers.Takeback == rules.White, BTakeback: rec.Offers.Takeback == rules.Black}
	if rec.Clock != nil {
		v := rec.Clock.At(now)
		st.WTime, st.BTime = v.White.Milliseconds(), v.Black.Milliseconds()
		st.WInc, st.BInc = v.Control.Increment.Milliseconds(), v.Control.Increment.Milliseconds()
	}
	return st
}

// fullOf is the record's gameFull at now; titles are the players' titles
// by name ("BOT").
func (s *deps) fullOf(rec *games.Record, now time.Time, titles map[string]string) gameFull {
	g := rec.Game
	v := g.Variant()
	f := gameFull{Type: "gameFull", ID: rec.ID, Variant: kit.LichessVariantOf(v), Speed: speedOf(rec),
		Perf: perfName{perfOf(rec)}, Rated: rec.Rated, CreatedAt: rec.Created.UnixMilli(),
		White: seatOf(rec, rules.White, titles), Black: seatOf(rec, rules.Black, titles),
		InitialFen: g.StartFEN(), State: stateOf(rec, now)}
	if rec.Clock != nil && !rec.Clock.Control.Correspondence() { // lichess's correspondence has no clock
		f.Clock = &clockJSON{rec.Clock.Control.Initial.Milliseconds(), rec.Clock.Control.Increment.Milliseconds()}
	}
	if fresh, err := s.loader.NewGame(v.ID()); err == nil && fresh.StartFEN() == f.InitialFen {
		f.InitialFen = "startpos"
	}
	return f
}

// seatOf is side's player in a gameFull.
func seatOf(rec *games.Record, side rules.Color, titles map[string]string) seatJSON {
	if rec.Bot != nil && rec.Bot.Color == side {
		return seatJSON{AILevel: rec.Bot.Level}
	}
	e := rec.Entrant(side)
	if !e.Named() {
		return seatJSON{}
	}
	out := seatJSON{ID: players.NameKey(e.Name), Name: e.Name, Rating: e.Rating, Provisional: e.Provisional}
	if t, ok := titles[e.Name]; ok {
		out.Title = &t
	}
	return out
}

// titlesOf looks up the titles of the record's named players: "BOT" for
// bot accounts. A player who cannot be read has none.
func (s *deps) titlesOf(ctx context.Context, rec *games.Record) map[string]string {
	titles := map[string]string{}
	for _, side := range []rules.Color{rules.White, rules.Black} {
		e := rec.Entrant(side)
		if !e.Named() {
			continue
		}
		if p, err := s.players.Named(ctx, e.Name); err == nil && p.Bot {
			titles[e.Name] = "BOT"
		}
	}
	return titles
}

// eventGameOf is the record as the player holding side sees it in the
// stream of events, at now.
func (s *deps) eventGameOf(rec *games.Record, side rules.Color, now time.Time, titles map[string]string) eventGame {
	g := rec.Game
	o := g.Outcome()
	v := kit.LichessVariantOf(g.Variant())
	e := eventGame{GameID: rec.ID, FullID: rec.ID, ID: rec.ID, Color: side.String(), Fen: g.FEN(),
		HasMoved: len(g.Actions()) > 0, Perf: strings.ToLower(perfOf(rec)), Rated: rec.Rated,
		Source: sourceOf(rec), Status: status(o), Speed: speedOf(rec), Variant: v,
		Compat: compatJSON{Bot: true, Board: true}, Winner: winner(o)}
	if v.Key != "standard" {
		e.Perf = v.Key
	}
	if !o.Over() {
		e.IsMyTurn = g.Turn().Actor == side
	}
	if a, ok := g.LastAction(); ok {
		e.LastMove = a.Coords()
	}
	opp := seatOf(rec, side.Other(), titles)
	e.Opponent = opponentJSON{ID: opp.ID, Username: opp.Name, Rating: opp.Rating, AI: opp.AILevel}
	if opp.AILevel == 0 && opp.Name == "" {
		e.Opponent.Username = "Anonymous"
	}
	if rec.Clock != nil {
		left := int64(rec.Clock.Left(side, now).Seconds())
		e.SecondsLeft = &left
	}
	return e
}

// sourceOf says how the game came about, in lichess's words: "ai" against
// the computer, "lobby" for a rated game (paired in the lobby), "friend"
// for another game between two players, "api" for one played from one
// place.
func sourceOf(rec *games.Record) string {
	switch {
	case rec.Mode == games.BotGame:
		return "ai"
	case rec.Mode == games.HotSeat:
		return "api"
	case rec.Rated:
		return "lobby"
	}
	return "friend"
}
