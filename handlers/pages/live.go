package pages

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/stream"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// liveRoutes adds the pages of games between two players and the live
// stream every game page follows.
func (p *play) liveRoutes(e *echo.Echo) {
	e.GET("/g/:id/events", p.events)
	e.POST("/g/:id/join", p.core.onGame(p.join))
	e.POST("/g/:id/offer", p.core.onGame(p.offer))
	e.POST("/g/:id/answer", p.core.onGame(p.answer))
	e.POST("/g/:id/premove", p.core.onGame(p.premove))
	e.POST("/g/:id/forecasts", p.core.onGame(p.forecasts))
}

// inviteSettings reads the invite form: colour and clock.
func inviteSettings(c echo.Context) (games.InviteSettings, error) {
	f := c.Request().Form
	var st games.InviteSettings
	var ok bool
	if st.Color, ok = kit.ColorField(f.Get("color"), true); !ok {
		return st, kit.Invalidf("%q is not a colour to play: use white, black or random.", kit.TrimText(f.Get("color")))
	}
	tc, ok, err := games.ParseTimeControl(f.Get("clock"))
	if err != nil {
		return st, err
	}
	if ok {
		st.Clock = &tc
	}
	return st, nil
}

// newInvite starts a game with a friend: this browser holds the seat of
// the colour chosen, and the page shows the link that gives the other.
func (p *create) newInvite(c echo.Context, o views.Options) error {
	settings, err := inviteSettings(c)
	if err != nil {
		return err
	}
	g, err := p.s.loader.NewGame(c.Request().Form.Get("variant"))
	if err != nil {
		return err
	}
	if err := p.s.kit.AllowGame(c); err != nil {
		return err
	}
	cred, err := p.s.kit.EnsurePlayer(c)
	if err != nil {
		return err
	}
	id, _, _, err := p.s.games.CreateInvite(c.Request().Context(), cred, g, settings)
	if err != nil {
		return err
	}
	o.Announce = "New game with a friend: send them the invite link"
	return p.core.created(c, id, o, g, false)
}

// openInvite answers the invite link /g/{id}?invite=CODE with the game and
// a button that takes the free seat (a POST to /g/{id}/join): only that
// deliberate act takes it, never loading the link, which a link preview, a
// prefetch (Sec-Purpose: prefetch) or a headless browser does as a person
// opening it would. Once both seats are taken it shows the game to watch,
// saying so.
func (p *play) openInvite(c echo.Context, id, code string, o *views.Options) error {
	o.JoinCode = code
	return p.core.show(c, id, *o, http.StatusOK)
}

// takeSeat joins game id with code and goes to its page.
func (p *play) takeSeat(c echo.Context, id, code string, o *views.Options) error {
	cred, err := p.s.kit.EnsurePlayer(c)
	if err == nil {
		_, err = p.s.games.Join(c.Request().Context(), id, cred, code)
	}
	switch e := errs.Of(err); {
	case err == nil:
		return c.Redirect(http.StatusSeeOther, o.GameURL(id))
	case e.Detail == errs.SeatTaken:
		o.SeatTaken = true
		return p.core.show(c, id, *o, http.StatusOK)
	}
	return err
}

// join takes the free seat: the invite page's button.
func (p *play) join(c echo.Context, id string, o *views.Options) error {
	return p.takeSeat(c, id, c.Request().Form.Get("invite"), o)
}

// offer makes an offer: takeback, draw or rematch.
func (p *play) offer(c echo.Context, id string, o *views.Options) error {
	offer, err := games.ParseOffer(c.Request().Form.Get("offer"))
	if err != nil {
		return err
	}
	news := func(l *i18n.Language, rec *games.Record) string { return views.OfferNews(l, rec, offer, false) }
	ctx := c.Request().Context()
	then, settle, err := p.s.kit.RematchAllowance(c, offer, p.s.kit.AcceptsOffer(ctx, id, kit.Player(c), offer), announce(o, news))
	if err != nil {
		return err
	}
	err = p.s.games.MakeOffer(ctx, id, kit.Player(c), offer, then)
	settle()
	if err != nil {
		return err
	}
	return p.core.done(c, id, *o)
}

// answer accepts or declines the opponent's offer.
func (p *play) answer(c echo.Context, id string, o *views.Options) error {
	f := c.Request().Form
	offer, err := games.ParseOffer(f.Get("offer"))
	if err != nil {
		return err
	}
	var accept bool
	switch v := f.Get("accept"); v {
	case "yes":
		accept = true
	case "no":
	default:
		return kit.Invalidf("%q is not an answer: use yes or no.", kit.TrimText(v))
	}
	news := func(l *i18n.Language, rec *games.Record) string { return views.OfferNews(l, rec, offer, !accept) }
	then, settle, err := p.s.kit.RematchAllowance(c, offer, accept, announce(o, news))
	if err != nil {
		return err
	}
	err = p.s.games.AnswerOffer(c.Request().Context(), id, kit.Player(c), offer, accept, then)
	settle()
	if err != nil {
		return err
	}
	if accept && offer == games.OfferRematch {
		var next string
		p.s.games.View(c.Request().Context(), id, "", func(rec *games.Record, _ games.Seats) { next = rec.Rematch })
		if next != "" {
			o.Flip = false // a flip was this game's view
			return p.core.moveTo(c, next, *o)
		}
	}
	return p.core.done(c, id, *o)
}

// table describes a game between two players for the viewer holding
// seats: nil for a hot-seat game.
func (p *core) table(c echo.Context, rec *games.Record, seats games.Seats, presence games.Presence) *views.Table {
	if rec.Mode != games.Invite {
		return nil
	}
	t := &views.Table{
		Offers:     rec.Offers,
		Declined:   rec.Declined,
		Spectators: presence.Spectators,
		OfferURL:   templ.SafeURL(kit.GamePath(rec.ID) + "/offer"),
		AnswerURL:  templ.SafeURL(kit.GamePath(rec.ID) + "/answer"),
	}
	free := rec.White == "" || rec.Black == ""
	if free && seats.Any() {
		t.InviteURL = p.s.kit.Origin(c) + kit.GamePath(rec.ID) + "?invite=" + rec.InviteCode
	}
	if rec.Rematch != "" {
		t.RematchURL = kit.GamePath(rec.Rematch)
	}
	if rec.Tournament != "" {
		t.TournamentURL = views.TournamentPath(rec.Tournament)
		if games.MayBerserk(rec, seats) && !p.swissGame(c, rec.Tournament) {
			t.BerserkURL = t.TournamentURL + "/berserk"
		}
	}
	if rec.Clock != nil {
		t.Clocked, t.TimeControl = true, rec.Clock.Control.String()
	}
	t.Rated = rec.Rated
	var o views.Options
	readSettings(c, &o)
	if side := seats.Side(); side != 0 && !rec.Game.Outcome().Over() && !o.NoPremoves {
		q := rec.Premoves.Of(side)
		t.Premove = views.Premove{URL: templ.SafeURL(kit.GamePath(rec.ID) + "/premove"), Side: side.String(),
			Actions: q.Actions(), Text: q.Text(), Dropped: q.Dropped}
	}
	if side := seats.Side(); side != 0 && !rec.Game.Outcome().Over() && rec.Clock != nil && rec.Clock.Control.Correspondence() {
		t.Forecast = forecastView(rec, side)
	}
	return t
}

// players describes who plays each side of the game rec holds, for the
// viewer holding seats, as the strips show them at now: the computer and
// its level, a player of a game between two players (and whether they
// are online), an imported game's tags, or at one board the sides'
// names; and each side's clock. The names it words itself ("Anonymous",
// "Waiting for a player", "Computer · level 3") are said in l.
func playerStrips(l *i18n.Language, rec *games.Record, seats games.Seats, now time.Time, presence games.Presence) [2]views.Player {
	tags := [2]views.SideNames{}
	tags[0], tags[1] = views.TagNames(rec.Game)
	var clock games.ClockView
	if rec.Clock != nil {
		clock = rec.Clock.At(now)
	}
	actor := rec.Game.Turn().Actor
	var out [2]views.Player
	for i, side := range []rules.Color{rules.White, rules.Black} {
		pl := views.Player{Side: side, Name: tags[i].Name, Title: tags[i].Title, Rating: tags[i].Rating}
		switch {
		case rec.Bot != nil && rec.Bot.Color == side:
			pl = views.Player{Side: side, Name: l.T("seat.computer", "Level", rec.Bot.Level)}
		case rec.Mode == games.Invite:
			e := rec.Entrant(side)
			pl = views.Player{Side: side, Name: e.Name, Profile: e.Named(), Rating: e.Rating, Provisional: e.Provisional, You: seats.Has(side), Presence: true, Seated: rec.Holder(side) != ""}
			pl.Connected = side == rules.White && presence.White || side == rules.Black && presence.Black
			switch {
			case !pl.Seated:
				pl.Name = l.T("seat.waiting")
			case pl.Name == "":
				pl.Name = l.T("players.anonymous")
			}
		case rec.Mode == games.BotGame:
			pl = views.Player{Side: side, Name: l.T("players.anonymous"), You: seats.Has(side)}
		}
		if rec.Clock != nil {
			left := clock.White
			if side == rules.Black {
				left = clock.Black
			}
			switch {
			case clock.Control.Unlimited(): // no time to show
			case clock.Control.Correspondence():
				pl.Clock = views.NewDaysClockFace(left.Milliseconds(), clock.Running == side)
			default:
				pl.Clock = views.NewClockFace(left.Milliseconds(), clock.Running == side)
			}
			if clock.Waiting && side == actor && pl.Clock != nil {
				pl.Clock.FirstMS = clock.First.Milliseconds()
			}
		}
		out[i] = pl
	}
	return out
}

// events streams game id's changes to its page: event "change" (id: the
// revision) when the game changed, "presence" when who watches did
// (once at the start), and "chat" for each line said in the viewer's
// room after the one the query's "chat" names (the last its page shows).
// The page then asks for what changed; a page that reconnects says the
// revision it has (Last-Event-ID) and hears at once if it missed one.
func (p *play) events(c echo.Context) error {
	id := c.Param("id")
	cred := kit.Player(c)
	state := stream.State{Events: func(_ context.Context, rev int64) (int64, []stream.Event, error) {
		r := strconv.FormatInt(rev, 10)
		return rev, []stream.Event{{ID: r, Name: "change", Data: []byte(r)}}, nil
	}}
	// A watch wakes for a change of the game as for one of who watches:
	// say who watches only when that changed.
	var said *games.Presence
	chatLines := stream.FollowChat(p.s.chat, id, cred, stream.ChatAfter(c.QueryParam("chat")))
	presence := func(ctx context.Context, es *stream.Source) error {
		if err := chatLines(ctx, es); err != nil {
			return err
		}
		pr := p.s.games.Presence(id)
		if said != nil && *said == pr {
			return nil
		}
		said = &pr
		data, _ := json.Marshal(struct {
			White      bool `json:"white"`
			Black      bool `json:"black"`
			Spectators int  `json:"spectators"`
		}{pr.White, pr.Black, pr.Spectators})
		return es.Send(stream.Event{Name: "presence", Data: data})
	}
	return p.s.streams.Game(c, id, cred, state, presence)
}

// withRatingDiffs adds to the strips of a finished rated game what it
// changed each player's rating by, as their lists of games record it.
func (p *core) withRatingDiffs(c echo.Context, rec *games.Record, strips [2]views.Player) [2]views.Player {
	for i, d := range kit.RatingDiffs(c.Request().Context(), p.s.players, rec) {
		if d != nil {
			strips[i].RatingDiff = views.RatingChange(*d)
		}
	}
	return strips
}
