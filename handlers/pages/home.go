package pages

import (
	"context"
	"net/http"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/views"
)

// index answers /: the home page, which says what Ban Chess is and
// offers the ways to play (someone online, the computer, the lessons, a
// board on this device), with a returning player's last game one click
// away. With fen, pgn or a (a share link) in the query it opens that
// game as a new one; a browser whose old session cookie named a game it
// still holds goes there.
func (p *create) index(c echo.Context) error {
	if games.IsLink(c.QueryParams()) {
		return p.open(c)
	}
	o, err := p.core.options(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	cred := kit.Player(c)
	if old, ok := kit.LegacyGame(c); ok {
		held := false
		if old != "" {
			if cred, err = p.s.kit.EnsurePlayer(c); err != nil {
				return err
			}
			held, err = p.s.games.Claim(ctx, old, cred)
			if err != nil && errs.Of(err).Code != errs.NotFound {
				return err
			}
		}
		kit.DropLegacy(c)
		if held {
			return c.Redirect(http.StatusSeeOther, o.GameURL(old))
		}
	}
	h := views.Home{Site: p.s.site(c), Learn: "/rules"}
	if p.s.training != nil {
		h.Learn = "/learn"
	}
	if cred != "" {
		if h.Last, h.More, err = p.lastGame(ctx, cred); err != nil {
			return err
		}
	}
	return render(c, http.StatusOK, views.HomePage(h))
}

// lastGame is the game the home page offers the browser's player to go
// back to: the latest unfinished one where it is their turn, else the
// latest unfinished one, else the latest finished one — never an aborted
// game or one where nothing was played, nor one that cannot be read.
// more says the player has other games in their list.
func (p *create) lastGame(ctx context.Context, cred players.Credential) (last *views.GameLink, more bool, err error) {
	list, err := p.s.games.Games(ctx, cred, listSize)
	if err != nil || len(list) == 0 {
		return nil, false, err
	}
	me, err := p.s.players.Identify(ctx, cred)
	if err != nil {
		return nil, false, err
	}
	best, rank := -1, 0 // rank: 3 their turn, 2 unfinished, 1 finished
	for i, sum := range list {
		if sum.Phase == "over" && sum.Result == "*" { // aborted
			continue
		}
		played, turn := false, false
		err := p.s.games.View(ctx, sum.ID, cred, func(rec *games.Record, seats games.Seats) {
			g := rec.Game
			played = g.Ply() > g.StartPly()
			turn = !g.Outcome().Over() && seats.Has(g.Turn().Actor)
		})
		switch e := errs.Of(err); {
		case err == nil:
		case e.Detail == errs.Unreadable, e.Code == errs.NotFound:
			continue
		default:
			return nil, false, err
		}
		r := 1
		switch {
		case !played:
			continue
		case turn:
			r = 3
		case sum.Phase != "over":
			r = 2
		}
		if r > rank {
			best, rank = i, r
		}
		if rank == 3 {
			break
		}
	}
	if best < 0 {
		return nil, len(list) > 0, nil
	}
	link := p.s.gameLink(list[best], me.ID)
	link.Turn = rank == 3
	link.Over = rank == 1
	return &link, len(list) > 1, nil
}
