package api

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// Game is a game as the API writes it (issue 4).
type Game struct {
	ID      string   `json:"id"`
	Variant string   `json:"variant"`
	FEN     string   `json:"fen"`
	Ply     int      `json:"ply"`
	Turn    string   `json:"turn"`
	Phase   string   `json:"phase"`
	Ban     *string  `json:"ban"`
	InCheck bool     `json:"inCheck"`
	Legal   []string `json:"legal"`
	Status  string   `json:"status"`
	Reason  string   `json:"reason"`
	Winner  string   `json:"winner"`
	Result  string   `json:"result"`
	Log     []string `json:"log"`
	PGN     string   `json:"pgn"`

	// Who plays and what stands around the board.
	Mode     string      `json:"mode"`     // "hotseat", "invite" or "bot"
	Revision int64       `json:"revision"` // counts the game's changes
	Seats    seatsObject `json:"seats"`
	Clock    *clockJSON  `json:"clock"`    // null for a game without a clock
	Offers   offersJSON  `json:"offers"`   // pending offers, by side
	Declined offersJSON  `json:"declined"` // offers the opponent declined, by the side that made them
	Rematch  *string     `json:"rematch"`  // the rematch game's id, once accepted
	Bot      *botJSON    `json:"bot"`      // the computer's seat; null but at a game against it
	Rated    bool        `json:"rated"`    // the result changes both players' ratings
	Players  playersJSON `json:"players"`  // who sits at each side, as the game recorded them
}

// playersJSON are the players of a game's seats.
type playersJSON struct {
	White playerJSON `json:"white"`
	Black playerJSON `json:"black"`
}

// playerJSON is a seat's player as the game recorded them when they sat:
// their name and rating in the game's variant and speed (null for an
// anonymous player, or a game without a clock); provisional says the
// rating is still uncertain (shown as "1500?").
type playerJSON struct {
	Name        *string `json:"name"`
	Rating      *int    `json:"rating"`
	Provisional bool    `json:"provisional"`
	// RatingDiff is what a finished rated game changed the rating by
	// (+12, -8); left out otherwise.
	RatingDiff *int `json:"ratingDiff,omitempty"`
}

// playerJSONOf describes a seat's entrant.
func playerJSONOf(e games.Entrant) playerJSON {
	var p playerJSON
	if e.Named() {
		p.Name = &e.Name
	}
	if e.Rating != 0 {
		p.Rating, p.Provisional = &e.Rating, e.Provisional
	}
	return p
}

// botJSON is the computer's seat: its side and level.
type botJSON struct {
	Color string `json:"color"`
	Level int    `json:"level"`
}

// seatsObject says which seats are taken.
type seatsObject struct {
	White bool `json:"white"`
	Black bool `json:"black"`
}

// clockJSON is a clock as it stands when the answer is written.
type clockJSON struct {
	White     int64   `json:"white"` // milliseconds left
	Black     int64   `json:"black"`
	Running   *string `json:"running"` // "white", "black", or null when stopped
	Initial   int64   `json:"initial"` // milliseconds
	Increment int64   `json:"increment"`
	// FirstAction is the milliseconds the side to act has left for its
	// first action before the game is aborted; null when the clock does
	// not wait for one.
	FirstAction *int64 `json:"firstAction"`
	// Days is a correspondence game's days a move (each side's time is
	// reset to them once its turn is over); Unlimited a correspondence
	// game without a limit (its times are 0 and never run out). Both
	// left out for a live clock.
	Days      int  `json:"days,omitempty"`
	Unlimited bool `json:"unlimited,omitempty"`
	// Speed is the class of the control ratings are kept for: "bullet" …
	// "classical", or "correspondence".
	Speed string `json:"speed"`
}

// offersJSON are the offers pending: each the side that made it, or null.
type offersJSON struct {
	Takeback *string `json:"takeback"`
	Draw     *string `json:"draw"`
	Rematch  *string `json:"rematch"`
}

// sideOrNull writes a side as "white" or "black", no side as null.
func sideOrNull(c rules.Color) *string {
	if c == 0 {
		return nil
	}
	s := c.String()
	return &s
}

// recordJSON describes the game rec holds, with its seats, clock and
// offers as they stand at now. Call it with the game's lock held.
func recordJSON(rec *games.Record, now time.Time, tags ...rules.Tag) Game {
	return recordSubset(rec, now, nil, tags...)
}

// recordSubset is recordJSON with only the members in want filled (nil:
// all; see gameSubset).
func recordSubset(rec *games.Record, now time.Time, want fieldSet, tags ...rules.Tag) Game {
	obj := gameSubset(rec.ID, rec.Game, want)
	if want.has("pgn") {
		obj.PGN = rec.PGN(rules.PGNNotes{}, tags...)
	}
	obj.Mode, obj.Revision = string(rec.Mode), rec.ShownRevision()
	obj.Seats = seatsObject{White: rec.White != "", Black: rec.Black != ""}
	obj.Offers, obj.Declined = offersOf(rec.Offers), offersOf(rec.Declined)
	if rec.Rematch != "" {
		obj.Rematch = &rec.Rematch
	}
	if b := rec.Bot; b != nil {
		obj.Bot = &botJSON{Color: b.Color.String(), Level: b.Level}
	}
	obj.Rated = rec.Rated
	obj.Players = playersJSON{White: playerJSONOf(rec.WhitePlayer), Black: playerJSONOf(rec.BlackPlayer)}
	if rec.Clock != nil {
		cv := rec.Clock.At(now)
		obj.Clock = &clockJSON{White: cv.White.Milliseconds(), Black: cv.Black.Milliseconds(), Running: sideOrNull(cv.Running),
			Initial: cv.Control.Initial.Milliseconds(), Increment: cv.Control.Increment.Milliseconds(),
			Days: max(cv.Control.Days, 0), Unlimited: cv.Control.Unlimited(), Speed: string(cv.Control.Speed())}
		if cv.Waiting {
			ms := cv.First.Milliseconds()
			obj.Clock.FirstAction = &ms
		}
	}
	return obj
}

// rated is the object of a finished rated game rec, built by object with
// the tags given and the PGN tags of its rating changes, and with each
// player's change (kit.RatingDiffs, read from played).
func rated(ctx context.Context, played kit.PlayedGames, rec *games.Record, tags []rules.Tag, object func(tags ...rules.Tag) Game) Game {
	diffs := kit.RatingDiffs(ctx, played, rec)
	obj := object(append(tags[:len(tags):len(tags)], kit.RatingDiffTags(diffs)...)...)
	for i, p := range []*playerJSON{&obj.Players.White, &obj.Players.Black} {
		if d := diffs[i]; d != nil {
			n := int(*d)
			p.RatingDiff = &n
		}
	}
	return obj
}

// offersOf writes offers as the game object does: each kind's side, or null.
func offersOf(o games.Offers) offersJSON {
	return offersJSON{Takeback: sideOrNull(o.Takeback), Draw: sideOrNull(o.Draw), Rematch: sideOrNull(o.Rematch)}
}

// gameSubset describes g, stored under id, with only the members in want
// filled (nil: all) but for its PGN, which recordSubset writes: the log,
// which grows with the game, only when asked for. Call it with the game's
// lock held.
func gameSubset(id string, g *rules.Game, want fieldSet) Game {
	turn, out := g.Turn(), g.Outcome()
	var legal []string
	if want.has("legal") {
		legal = make([]string, 0, 64)
		for _, a := range g.Legal() {
			legal = append(legal, a.String())
		}
	}
	var ban *string
	if p, ok := g.Ban(); ok {
		s := p.String()
		ban = &s
	}
	var log []string
	if want.has("log") {
		if log = g.Record().Log(); log == nil {
			log = []string{}
		}
	}
	return Game{
		ID:      id,
		Variant: g.Variant().ID(),
		FEN:     g.FEN(),
		Ply:     g.Ply(),
		Turn:    turn.Actor.String(),
		Phase:   turn.Phase.String(),
		Ban:     ban,
		InCheck: g.InCheck(),
		Legal:   legal,
		Status:  out.Status.String(),
		Reason:  out.Reason.String(),
		Winner:  out.Winner.String(),
		Result:  out.Result(),
		Log:     log,
	}
}

// fieldSet is the game object's members a request asks for with
// ?fields=fen,legal (nil: all of them).
type fieldSet map[string]bool

func (f fieldSet) has(name string) bool { return f == nil || f[name] }

// member is one of the game object's members: its JSON name, and the
// index of its field.
type member struct {
	name  string
	field int
}

// gameMembers are the game object's members, in its order, as its struct
// tags name them (read-only).
var gameMembers = func() []member {
	t := reflect.TypeFor[Game]()
	ms := make([]member, t.NumField())
	for i := range ms {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		ms[i] = member{name: name, field: i}
	}
	return ms
}()

// fieldsOf reads the fields query parameter: a comma-separated list of the
// game object's members ("compact": all but log and pgn, which grow with
// the game); nil when absent.
func fieldsOf(c echo.Context) (fieldSet, error) {
	raw, ok := c.QueryParams()["fields"]
	if !ok {
		return nil, nil
	}
	want := fieldSet{}
	for _, v := range raw {
		for name := range strings.SplitSeq(v, ",") {
			name = strings.TrimSpace(name)
			switch {
			case name == "compact":
				for _, m := range gameMembers {
					want[m.name] = m.name != "log" && m.name != "pgn"
				}
			case memberNamed(name):
				want[name] = true
			default:
				names := make([]string, len(gameMembers))
				for i, m := range gameMembers {
					names[i] = m.name
				}
				return nil, &errs.Error{Code: errs.Invalid, Detail: errs.BadFields,
					Msg: fmt.Sprintf("%q is not a member of the game object: ask for some of %s, or for compact.", kit.TrimText(name), strings.Join(names, ", "))}
			}
		}
	}
	return want, nil
}

// memberNamed reports whether the game object has a member of that name.
func memberNamed(name string) bool {
	for _, m := range gameMembers {
		if m.name == name {
			return true
		}
	}
	return false
}

// gameAnswer writes obj with only the members in want (all when nil).
func gameAnswer(c echo.Context, obj Game, want fieldSet) error {
	return c.JSON(http.StatusOK, gameValue(obj, want))
}

// gameValue is obj as written with only the members in want (nil: all).
func gameValue(obj Game, want fieldSet) any {
	if want == nil {
		return obj
	}
	v := reflect.ValueOf(obj)
	out := make(map[string]any, len(want))
	for _, m := range gameMembers {
		if want[m.name] {
			out[m.name] = v.Field(m.field).Interface()
		}
	}
	return out
}
