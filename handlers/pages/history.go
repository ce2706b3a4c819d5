package pages

import (
	"context"
	"net/http"
	"strconv"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/editor"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// delta answers GET /g/{id}/delta?ply=N (with the page's view options,
// flip and auto, and optionally from, the square picked on its board):
// what changed since the page that shows the game at ply N, as htmx
// out-of-band swaps with HX-Reswap: none, or the whole #game when the page
// is too far behind (see docs/fragments.md). Live pages ask for it when
// the game changes.
func (p *browse) delta(c echo.Context) error {
	o, err := p.core.options(c)
	if err != nil {
		return err
	}
	return p.core.respond(c, c.Param("id"), o, http.StatusOK, true)
}

// export shows the game's PGN and share link: for htmx, the export panel's
// part that holds them; else the game's page with them shown.
func (p *browse) export(c echo.Context) error {
	o, err := p.core.options(c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	o.Export = true
	if !kit.IsHX(c) {
		return c.Redirect(http.StatusSeeOther, o.GameURL(id, "export", "1"))
	}
	var m views.Game
	err = p.s.games.View(c.Request().Context(), id, kit.Player(c), func(rec *games.Record, seats games.Seats) {
		m = views.NewGame(rec.Game, p.core.gameInfo(c, rec, seats, o), o)
	})
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ExportFragment(m))
}

// history shows the board after the first index plies, read-only.
func (p *browse) history(c echo.Context) error {
	o, index, err := p.plyOptions(c)
	if err != nil {
		return err
	}
	o.Notice = noticeText(c.QueryParam("notice"))
	return p.core.showHistory(c, c.Param("id"), index, o)
}

// showHistory renders the read-only view of game id after index plies.
func (p *core) showHistory(c echo.Context, id string, index int, o views.Options) error {
	m, err := p.historyAt(c, id, index, o)
	if err != nil {
		return err
	}
	if kit.IsHX(c) {
		return render(c, http.StatusOK, views.Fragment(m))
	}
	return render(c, http.StatusOK, views.Page(m))
}

// view answers GET /g/{id}/view/{index} (with the page's view options):
// the board after the first index plies as the game's page shows an
// earlier position in place (static/steps.js), with the players'
// material there; the page keeps its own board, strips and clocks, and
// follows the game meanwhile.
func (p *browse) view(c echo.Context) error {
	o, index, err := p.plyOptions(c)
	if err != nil {
		return err
	}
	m, err := p.core.historyAt(c, c.Param("id"), index, o)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ViewBoard(m))
}

// plyOptions reads a history request's view options and its ply number
// (the path's index).
func (p *browse) plyOptions(c echo.Context) (views.Options, int, error) {
	o, err := p.core.options(c)
	if err != nil {
		return o, 0, err
	}
	index, err := strconv.Atoi(c.Param("index"))
	if err != nil {
		return o, 0, kit.Titled(languageOf(c).T("error.title.noPly"), kit.Invalidf("%q is not a ply number.", kit.TrimText(c.Param("index"))))
	}
	return o, index, nil
}

// historyAt is the read-only view of game id after index plies.
func (p *core) historyAt(c echo.Context, id string, index int, o views.Options) (views.Game, error) {
	var m views.Game
	var viewErr error
	err := p.s.games.View(c.Request().Context(), id, kit.Player(c), func(rec *games.Record, seats games.Seats) {
		m, viewErr = views.NewHistoryView(rec.Game, index, p.gameInfo(c, rec, seats, o), o)
	})
	switch {
	case err != nil:
		return m, err
	case viewErr != nil:
		return m, noSuchPly(c, errs.Sentence(viewErr.Error()))
	}
	return m, nil
}

// noSuchPly refuses a ply a game does not have.
func noSuchPly(c echo.Context, msg string) error {
	return kit.Titled(languageOf(c).T("error.title.noPly"), &errs.Error{Code: errs.NotFound, Msg: msg})
}

// editPosition opens in the board editor the position that game id's page
// shows (/g/{id}/edit), or its history view after index plies
// (/g/{id}/history/{index}/edit). The page's link is the same after every
// ply, so a ply's delta need not carry it.
// While the engine may not analyse the game (games.Permissions.Analyse)
// it refuses (403 analysis_locked): the editor analyses its position. A
// variant the editor does not edit is refused (400).
func (p *browse) editPosition(c echo.Context) error {
	index := -1
	if v := c.Param("index"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return kit.Titled(languageOf(c).T("error.title.noPly"), kit.Invalidf("%q is not a ply number.", kit.TrimText(v)))
		}
		index = n
	}
	var fen, variant string
	found, locked, editable := true, false, true
	err := p.s.games.View(c.Request().Context(), c.Param("id"), kit.Player(c), func(rec *games.Record, seats games.Seats) {
		if locked = !rec.Permissions(seats).Analyse; locked {
			return
		}
		g := rec.Game
		if editable = editor.Edits(g.Variant()); !editable {
			variant = g.Variant().Name()
			return
		}
		variant, fen = g.Variant().ID(), g.FEN()
		if index >= 0 {
			fen, found = g.Record().FENAfter(index)
		}
	})
	switch {
	case err != nil:
		return err
	case locked:
		return &errs.Error{Code: errs.Forbidden, Detail: errs.AnalysisLocked,
			Msg: "This game is between two players: its positions open in the board editor, which analyses them, when it ends."}
	case !editable:
		return kit.Titled(languageOf(c).T("error.title.notInEditor"), kit.Invalidf("The board editor sets up positions on a chess board: a %s position (its x squares, its Aurors) cannot be opened there.", variant))
	case !found:
		return noSuchPly(c, "This game has no ply "+strconv.Itoa(index)+".")
	}
	return c.Redirect(http.StatusSeeOther, views.EditURL(fen, variant))
}

// downloadPGN sends the game as a .pgn file, with its review's
// evaluations once it has one.
func (p *browse) downloadPGN(c echo.Context) error {
	id := c.Param("id")
	pgn, err := p.s.games.PGN(c.Request().Context(), id, kit.Player(c), p.s.analysis, p.s.players, p.core.pgnTags()...)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="banchess-`+id+`.pgn"`)
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, "application/x-chess-pgn", []byte(pgn))
}

// pgn writes the PGN of the game rec holds, with the playground's Site and
// Date if it created the game (see games.Record.PGN).
func (p *core) pgn(ctx context.Context, rec *games.Record) string {
	return rec.PGN(rules.PGNNotes{}, append(p.pgnTags(), kit.RatingDiffTags(kit.RatingDiffs(ctx, p.s.players, rec))...)...)
}

// pgnTags are the playground's Site and Date.
func (p *core) pgnTags() []rules.Tag {
	return []rules.Tag{{Name: "Site", Value: "Ban Chess playground"}, {Name: "Date", Value: p.s.now().Format("2006.01.02")}}
}
