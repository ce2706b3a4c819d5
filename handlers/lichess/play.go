package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/stream"
	"github.com/banchess/banchess/rules"
)

// uciRE is a ply in UCI coordinates: from, to and a promotion letter.
var uciRE = regexp.MustCompile(`^[a-h][1-8][a-h][1-8][qrbnk]?$`)

// notYours refuses a game the caller holds no seat of.
func notYours() *errs.Error {
	return errs.Errorf(errs.Forbidden, "This is not your game: only its players may stream it and play it here.")
}

// seat reads game id for who: the side it plays (the one to act, when it
// holds both seats), and a copy of the record.
func (p *playAPI) seat(ctx context.Context, who caller, id string) (rules.Color, *games.Record, error) {
	var rec *games.Record
	var seats games.Seats
	if err := p.s.games.View(ctx, id, who.cred, func(r *games.Record, st games.Seats) { rec, seats = r, st }); err != nil {
		return 0, nil, err
	}
	switch {
	case seats.Both():
		if t := rec.Game.Turn(); !rec.Game.Outcome().Over() {
			return t.Actor, rec, nil
		}
		return rules.White, rec, nil
	case seats.White:
		return rules.White, rec, nil
	case seats.Black:
		return rules.Black, rec, nil
	}
	return 0, nil, notYours()
}

// stream streams the game as lichess's Board and Bot APIs do (NDJSON):
// gameFull first, then gameState after every change (a ply, an offer,
// the end), learnt from the games' feed as our own streams learn it; an
// empty line every 6 s. A stream opened again (a dropped connection)
// starts again with gameFull, with every ply so far.
func (p *playAPI) stream(c echo.Context) error {
	who, err := p.s.authorizeFor(c, p.kind)
	if err != nil {
		return err
	}
	id := c.Param("id")
	side, rec, err := p.seat(c.Request().Context(), who, id)
	if err != nil {
		return err
	}
	onWake, err := p.talk(c.Request().Context(), who, id, side, rec)
	if err != nil {
		return err
	}
	var titles map[string]string // read once, for gameFull
	state := stream.State{Events: func(ctx context.Context, _ int64) (int64, []stream.Event, error) {
		var rec *games.Record
		if err := p.s.games.View(ctx, id, "", func(r *games.Record, _ games.Seats) { rec = r }); err != nil {
			return 0, nil, err
		}
		var line any
		if titles == nil {
			titles = p.s.titlesOf(ctx, rec)
			line = p.s.fullOf(rec, p.s.kit.Now(), titles)
		} else {
			line = stateOf(rec, p.s.kit.Now())
		}
		data, err := json.Marshal(line)
		if err != nil {
			return 0, nil, fmt.Errorf("encoding game %s: %w", id, err)
		}
		return rec.ShownRevision(), []stream.Event{{Data: data}}, nil
	}}
	return p.s.streams.GameLines(c, id, who.cred, state, onWake)
}

// move plays the ban or the move the game asks for now, given in UCI
// coordinates (e2e4, e7e8q); with offeringDraw=true it offers a draw
// after it too.
func (p *playAPI) move(c echo.Context) error {
	who, err := p.s.authorizeFor(c, p.kind)
	if err != nil {
		return err
	}
	text := strings.ToLower(c.Param("move"))
	if !uciRE.MatchString(text) {
		return errs.Errorf(errs.Invalid, "%q is not a ply in UCI coordinates, such as e2e4 or e7e8q (a ban gives its from and to squares the same way).", clip(c.Param("move"))).WithDetail(errs.NotBCN)
	}
	ctx, id := c.Request().Context(), c.Param("id")
	if err := p.s.games.Play(ctx, id, who.cred, games.Input{Text: text}, nil); err != nil {
		if errs.Of(err).Code == errs.Forbidden {
			// A player of the game out of turn: lichess's 400.
			if _, _, serr := p.seat(ctx, who, id); serr == nil {
				return errs.Errorf(errs.Invalid, "Not your turn: %s", errs.Of(err).Msg).WithDetail(errs.NotYourTurn)
			}
		}
		return err
	}
	if c.QueryParam("offeringDraw") == "true" {
		// As on lichess, the offer goes with the ply when it can: a game the
		// ply ended, or one not between two players, takes none.
		if err := p.s.games.MakeOffer(ctx, id, who.cred, games.OfferDraw, nil); err != nil && errs.Of(err).Code == errs.Internal {
			return err
		}
	}
	return ok(c)
}

// resign resigns the caller's side.
func (p *playAPI) resign(c echo.Context) error {
	who, err := p.s.authorizeFor(c, p.kind)
	if err != nil {
		return err
	}
	ctx, id := c.Request().Context(), c.Param("id")
	side, _, err := p.seat(ctx, who, id)
	if err != nil {
		return err
	}
	if err := p.s.games.Resign(ctx, id, who.cred, side, nil); err != nil {
		return err
	}
	return ok(c)
}

// abort calls the game off, before each side has acted.
func (p *playAPI) abort(c echo.Context) error {
	who, err := p.s.authorizeFor(c, p.kind)
	if err != nil {
		return err
	}
	if err := p.s.games.Abort(c.Request().Context(), c.Param("id"), who.cred, nil); err != nil {
		return err
	}
	return ok(c)
}

// answer offers or accepts (yes), or declines (no), a draw or a takeback:
// yes makes the offer, which accepts the opponent's if they made it; no
// declines the opponent's offer, and is nothing to do without one.
func (p *playAPI) answer(offer games.Offer) echo.HandlerFunc {
	return func(c echo.Context) error {
		who, err := p.s.authorizeFor(c, p.kind)
		if err != nil {
			return err
		}
		var yes bool
		switch strings.ToLower(c.Param("accept")) {
		case "yes", "true":
			yes = true
		case "no", "false":
		default:
			return errs.Errorf(errs.Invalid, "%q is neither yes nor no.", clip(c.Param("accept"))).WithDetail(errs.BadOffer)
		}
		ctx, id := c.Request().Context(), c.Param("id")
		if yes {
			if err := p.s.games.MakeOffer(ctx, id, who.cred, offer, nil); err != nil {
				return err
			}
			return ok(c)
		}
		side, rec, err := p.seat(ctx, who, id)
		if err != nil {
			return err
		}
		pending := rec.Offers.Draw
		if offer == games.OfferTakeback {
			pending = rec.Offers.Takeback
		}
		if pending == side.Other() {
			if err := p.s.games.AnswerOffer(ctx, id, who.cred, offer, false, nil); err != nil {
				return err
			}
		}
		return ok(c)
	}
}

// clip shortens text from a request for a message.
func clip(text string) string { return rules.Clip(text) }
