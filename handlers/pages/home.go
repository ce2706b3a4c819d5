package pages

import (
	"context"
	"net/http"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
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
		if h.Last, h.More, err = p.lastGame(ctx, languageOf(c), cred); err != nil {
			return err
		}
	}
	return render(c, http.StatusOK, views.HomePage(h))
}

// lastGame is the game the home page offers the browser's player to go
// back to: the latest unfinished one where it is their turn, else the
// latest unfinished one, else the latest finished one — never an aborted
// game or one where nothing was played, nor one that cannot be read.
// more says the player has other games in their list. The list ranks the
// games; only those it ranks first are read, most often one.
func (p *create) lastGame(ctx context.Context, l *i18n.Language, cred players.Credential) (last *views.GameLink, more bool, err error) {
	list, err := p.s.games.Games(ctx, cred, listSize)
	if err != nil || len(list) == 0 {
		return nil, false, err
	}
	me, err := p.s.players.Identify(ctx, cred)
	if err != nil {
		return nil, false, err
	}
	for rank := yourTurn; rank > aborted; rank-- {
		for _, sum := range list {
			if lastRank(sum, me.ID) != rank {
				continue
			}
			played, err := p.played(ctx, sum.ID, cred)
			if err != nil {
				return nil, false, err
			}
			if played {
				link := p.s.gameLink(l, sum, me.ID)
				link.Turn, link.Over = rank == yourTurn, rank == finished
				return &link, len(list) > 1, nil
			}
		}
	}
	return nil, true, nil
}

// The ranks of a player's games as the home page's last game.
const (
	aborted  = iota // never the last game
	finished        // a result
	waiting         // unfinished, the opponent to play
	yourTurn        // unfinished, the player to play
)

// lastRank ranks game sum of player me's as the home page's last game.
func lastRank(sum games.Summary, me string) int {
	switch {
	case sum.Phase == "over" && sum.Result == "*":
		return aborted
	case sum.Phase == "over":
		return finished
	case sum.Actor == "white" && sum.White == me, sum.Actor == "black" && sum.Black == me:
		return yourTurn
	}
	return waiting
}

// played says something was played in game id since it started; a game
// gone or that cannot be read has not.
func (p *create) played(ctx context.Context, id string, cred players.Credential) (bool, error) {
	played := false
	err := p.s.games.View(ctx, id, cred, func(rec *games.Record, _ games.Seats) {
		played = rec.Game.Ply() > rec.Game.StartPly()
	})
	switch e := errs.Of(err); {
	case err == nil:
		return played, nil
	case e.Detail == errs.Unreadable, e.Code == errs.NotFound:
		return false, nil
	}
	return false, err
}
