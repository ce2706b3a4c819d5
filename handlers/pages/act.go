package pages

import (
	"net/http"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// game shows game id at /g/{id}.
func (p *play) game(c echo.Context, id string, o *views.Options) error {
	var err error
	if o.Sel, err = square(c, "sel", true); err != nil {
		return err
	}
	if o.PromoTo, err = square(c, "to", true); err != nil {
		return err
	}
	o.Notice = noticeText(c.QueryParam("notice"))
	if code := c.QueryParam("invite"); code != "" {
		return p.openInvite(c, id, code, o)
	}
	o.Export = c.QueryParam("export") == "1"
	return p.core.show(c, id, *o, http.StatusOK)
}

// selectSquare picks a square (the no-JavaScript way): the page comes back
// with its destinations marked. Picking the picked square again, or a square
// with nothing to do, clears the selection.
func (p *play) selectSquare(c echo.Context, id string, o *views.Options) error {
	return pick(c, o, func() error { return p.core.show(c, id, *o, http.StatusOK) }, func() error {
		// The redirect carries the selection: keep only one the viewer may
		// pick, and send no one to the address of a game that is not there
		// (the fragment of htmx checks both as it renders).
		err := p.s.games.View(c.Request().Context(), id, kit.Player(c), func(rec *games.Record, seats games.Seats) {
			if !views.CanPick(rec.Game, rec.Permissions(seats), o.Sel) {
				o.Sel = rules.NoSquare
			}
		})
		if err != nil {
			return err
		}
		return p.core.done(c, id, *o)
	})
}

// ply plays a ban or a move: from the board (from, to, promotion) or typed
// (text: "e2e4", "Nf3", "b:e2e4"). A move that promotes without a piece
// chosen opens the promotion picker instead.
func (p *play) ply(c echo.Context, id string, o *views.Options) error {
	in, err := p.core.boardInput(c)
	if err != nil {
		return err
	}
	err = p.core.act(c, id, o, nil, func(then games.ViewFunc) error {
		return p.s.games.Play(c.Request().Context(), id, kit.Player(c), in, then)
	})
	if in.Text == "" && games.IsPromotionNeeded(err) {
		o.Sel, o.PromoTo = in.From, in.To
		return p.core.done(c, id, *o)
	}
	return err
}

// undo takes back the last ply (or a resignation or agreed draw), and
// announces which.
func (p *play) undo(c echo.Context, id string, o *views.Options) error {
	return p.core.act(c, id, o, nil, func(then games.ViewFunc) error {
		_, err := p.s.games.Undo(c.Request().Context(), id, kit.Player(c), func(u games.Undone, rec *games.Record, seats games.Seats) {
			if u.Declared.Over() {
				o.Announce = views.TookBackEnding(o.Lang, u.Declared)
			} else {
				o.Announce = views.TookBack(o.Lang, u.Ply)
			}
			if then != nil {
				then(rec, seats)
			}
		})
		return err
	})
}

// resign ends the game: side (white or black) resigns.
func (p *play) resign(c echo.Context, id string, o *views.Options) error {
	v := c.Request().Form.Get("side")
	side, ok := kit.ColorField(v, false)
	if !ok {
		return kit.Invalidf("%q is not a side: use white or black.", kit.TrimText(v))
	}
	return p.core.act(c, id, o, announce(o, ending), func(then games.ViewFunc) error {
		return p.s.games.Resign(c.Request().Context(), id, kit.Player(c), side, then)
	})
}

// abort calls a game between two players off, with no result.
func (p *play) abort(c echo.Context, id string, o *views.Options) error {
	if err := p.s.games.Abort(c.Request().Context(), id, kit.Player(c), announce(o, ending)); err != nil {
		return err
	}
	return p.core.done(c, id, *o)
}

// draw ends the game as a draw by agreement.
func (p *play) draw(c echo.Context, id string, o *views.Options) error {
	return p.core.act(c, id, o, announce(o, ending), func(then games.ViewFunc) error {
		return p.s.games.Draw(c.Request().Context(), id, kit.Player(c), then)
	})
}

// announce is a change's view that sets o's announcement to what news
// says of the game after it.
func announce(o *views.Options, news func(*i18n.Language, *games.Record) string) games.ViewFunc {
	return func(rec *games.Record, _ games.Seats) { o.Announce = news(o.Lang, rec) }
}

// ending words how the game rec holds ended.
func ending(l *i18n.Language, rec *games.Record) string { return views.GameBanner(l, rec.Game) }

// hide removes the game from the browser's list, and goes back to the
// page the form was on (a game's page, if that game is still there; else
// the current game).
func (p *play) hide(c echo.Context) error {
	id := c.Param("id")
	if _, err := p.core.options(c); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := p.s.games.Hide(ctx, id, kit.Player(c)); err != nil {
		return err
	}
	back := "/"
	if from := c.Request().Form.Get("back"); from == "new" {
		back = "/new" // the page that starts games lists them too
	} else if from != id && kit.ValidID(from) {
		if p.s.games.View(ctx, from, "", func(*games.Record, games.Seats) {}) == nil {
			back = kit.GamePath(from)
		}
	}
	return c.Redirect(http.StatusSeeOther, back)
}
