package games

import (
	"maps"
	"time"

	"github.com/banchess/banchess/rules"
)

// Mode says how a game's seats are held.
type Mode string

// Modes of play.
const (
	// HotSeat is a game whose creator holds both seats: two people at one
	// screen, or a program playing both sides.
	HotSeat Mode = "hotseat"
	// Invite is a game between two players, each holding one seat: its
	// creator holds one, and the first other player to present its invite
	// code (Service.Join) takes the other.
	Invite Mode = "invite"
	// BotGame is a game between a player and the computer, which holds
	// the other seat (see Table.Bot).
	BotGame Mode = "bot"
)

// Record is a game as the service keeps it: the game itself and who may
// play it. Its ID is public (anyone who has it may watch); holding a seat
// takes a Credential.
type Record struct {
	ID   string
	Game *rules.Game
	// White and Black are the holders of the seats: the ids of the players
	// holding them (see Player), or the computer's (see Bot); "" is a free
	// seat. Every credential of a player holds its seats.
	White, Black string
	// WhiteHidden and BlackHidden say that the seat's holder removed the
	// game from their list of games.
	WhiteHidden, BlackHidden bool
	Mode                     Mode
	Created, Updated         time.Time
	// Revision counts the record's changes: the service adds one with
	// every change it makes, and a store saves a record only over the
	// revision before (so a stale copy never overwrites a newer one).
	Revision int64

	// Table is what a game between two players has besides its game: the
	// invite, the clock, the offers pending.
	Table
}

// Table is the state of a game between two players around its board.
type Table struct {
	// InviteCode is the secret of the invite link; the first other player
	// to present it takes the free seat. "" for a hot-seat game.
	InviteCode string `json:"invite,omitempty"`
	// Clock is nil for a game without one.
	Clock *Clock `json:"clock,omitempty"`
	// Offers are what a player offered and the other has not yet answered.
	Offers Offers `json:"offers,omitzero"`
	// Declined are the offers the opponent declined, each by the side
	// that made it, until it offers again or a ply is played: its page
	// tells it.
	Declined Offers `json:"declined,omitzero"`
	// Rematch is the id of the game a rematch offer, accepted, started.
	Rematch string `json:"rematch,omitempty"`
	// Bot is the computer's seat at a game against it; nil otherwise.
	Bot *Bot `json:"bot,omitempty"`
	// Rated says the game's result changes both players' ratings (see
	// Result).
	Rated bool `json:"rated,omitempty"`
	// WhitePlayer and BlackPlayer are the seats' players as the game
	// records them when they sit: names and ratings.
	WhitePlayer Entrant `json:"whitePlayer,omitzero"`
	BlackPlayer Entrant `json:"blackPlayer,omitzero"`
	// Premoves are what each player queued to play when their turn
	// comes (see Premove); each side's is shown to that side only.
	Premoves PremoveQueues `json:"premoves,omitzero"`
	// Forecasts are the lines each player of a correspondence game stored
	// (see Forecast); each side's is shown to that side only.
	Forecasts *Forecasts `json:"forecasts,omitempty"`
	// Tournament is the id of the tournament the game was paired in; ""
	// for none. Only a tournament's game may be berserked (Clocks.Berserk).
	Tournament string `json:"tournament,omitempty"`
}

// Entrant returns the player of side's seat as the game records them.
func (t *Table) Entrant(side rules.Color) Entrant {
	if side == rules.Black {
		return t.BlackPlayer
	}
	return t.WhitePlayer
}

// seat records e as the player of side's seat.
func (t *Table) seat(side rules.Color, e Entrant) {
	if side == rules.Black {
		t.BlackPlayer = e
	} else {
		t.WhitePlayer = e
	}
}

// Offers are the pending offers of each kind, each by the side that made
// it (no Color for none).
type Offers struct {
	// Takeback asks to take the game back to the offerer's last move:
	// the offerer moves again, facing the ban that move faced (the plies
	// since are taken back, whoever is to act); it lapses when a ply is
	// played.
	Takeback rules.Color `json:"takeback,omitempty"`
	// Draw offers a draw; it lapses when its maker plays.
	Draw rules.Color `json:"draw,omitempty"`
	// Rematch offers a new game, colours swapped, once this one is over.
	Rematch rules.Color `json:"rematch,omitempty"`
}

// Holder returns the holder of side's seat ("" when it is free).
func (r *Record) Holder(side rules.Color) string {
	if side == rules.White {
		return r.White
	}
	if side == rules.Black {
		return r.Black
	}
	return ""
}

// Seats reports which seats holder holds.
func (r *Record) Seats(holder string) (white, black bool) {
	if holder == "" {
		return false, false
	}
	return r.White == holder, r.Black == holder
}

// Holds reports whether holder holds the seat of side.
func (r *Record) Holds(holder string, side rules.Color) bool {
	w, b := r.Seats(holder)
	return side == rules.White && w || side == rules.Black && b
}

// Summary is what a list of games shows of one: enough to recognise it
// without loading the game.
type Summary struct {
	ID      string
	Variant string // the variant's ID
	FEN     string // the position now, extended FEN
	Ply     int
	Actor   string // "white" or "black": who acts now ("" once over)
	Phase   string // "ban", "move" or "over"
	Result  string // "*", "1-0", "0-1" or "1/2-1/2"
	Created time.Time
	Updated time.Time
	// Mode, the seats' holders ("" for a free seat) and the computer's
	// seat say whom the game is between: a list names the opponent.
	Mode         Mode
	White, Black string
	Bot          *Bot
	// WhitePlayer and BlackPlayer are the seats' players as the game
	// recorded them (a game between two players).
	WhitePlayer, BlackPlayer Entrant
	// Clock is the game's clock (nil: none), as it stood at Updated.
	Clock *Clock
}

// Summary describes the record for a list of games.
func (r *Record) Summary() Summary {
	g := r.Game
	s := Summary{
		ID:          r.ID,
		Variant:     g.Variant().ID(),
		FEN:         g.FEN(),
		Ply:         g.Ply(),
		Result:      g.Outcome().Result(),
		Created:     r.Created,
		Updated:     r.Updated,
		Mode:        r.Mode,
		White:       r.White,
		Black:       r.Black,
		Bot:         r.Bot,
		WhitePlayer: r.WhitePlayer,
		BlackPlayer: r.BlackPlayer,
	}
	if r.Clock != nil {
		c := *r.Clock
		c.After = nil // not a list's to show
		s.Clock = &c
	}
	if g.Outcome().Over() {
		s.Phase = "over"
	} else {
		t := g.Turn()
		s.Actor, s.Phase = t.Actor.String(), t.Phase.String()
	}
	return s
}

// ToAct is whom the game awaits: at a game between two players in play,
// both seats taken, the holder of the seat of the side to act, unless
// they removed it from their list; "" otherwise. A store keeps it beside
// the game, so that a page counts the games awaiting a player in one
// indexed read (see TurnStore).
func (r *Record) ToAct() string {
	g := r.Game
	if r.Mode != Invite || r.White == "" || r.Black == "" || g.Outcome().Over() {
		return ""
	}
	side := g.Turn().Actor
	if side == rules.White && r.WhiteHidden || side == rules.Black && r.BlackHidden {
		return ""
	}
	return r.Holder(side)
}

// Due is when the game's clock would end it, as the record stands: its
// running side's flag falls, or the side to act's first action is
// overdue; zero when the clock cannot end it (no clock, a stopped one,
// or the game is over). A store keeps it beside the game, so that any
// server finds the games due (see DueGames) without reading every game.
func (r *Record) Due() time.Time {
	if r.Clock == nil || r.Game.Outcome().Over() {
		return time.Time{}
	}
	return r.Clock.due()
}

// Clone returns a copy of r that shares nothing a change to r makes: what
// the service gives a front end to render once the game's lock is
// released (see ViewFunc).
func (r *Record) Clone() *Record {
	c := *r
	c.Game = r.Game.Clone()
	if r.Clock != nil {
		ck := *r.Clock
		ck.After = maps.Clone(r.Clock.After)
		c.Clock = &ck
	}
	if r.Bot != nil {
		b := *r.Bot
		c.Bot = &b
	}
	c.Forecasts = r.Forecasts.clone()
	return &c
}
