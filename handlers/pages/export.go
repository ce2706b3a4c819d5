package pages

import (
	"archive/zip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/players"
)

// The download of a player's data is bounded: at most exportGames games,
// and its PGN at most exportPGNBytes (the newest games first).
const (
	exportGames    = 5000
	exportPGNBytes = 32 << 20
)

// exportReadme says what the download holds.
const exportReadme = `Your data from Ban Chess playground

account.json   your name, when the account was made, your settings
ratings.json   your ratings: variant, speed, rating, deviation, rated games
games.pgn      your finished games, newest first, as PGN (one file)
chat.json      the chat lines you wrote in those games
puzzles.json   your puzzle history: your last attempt at each puzzle
`

// exportRoutes adds the download of the player's data, for a browser
// (/account/export) and a program with its token (/api/account/export).
func (p *accounts) exportRoutes(e *echo.Echo) {
	for _, path := range []string{"/account/export", "/api/account/export"} {
		e.Match([]string{http.MethodGet, http.MethodHead}, path, p.export)
	}
}

// export streams the zip of the signed-in player's data: the bearer
// token's, else the browser's.
func (p *accounts) export(c echo.Context) error {
	ctx := c.Request().Context()
	cred := kit.Bearer(c)
	if cred == "" {
		cred = kit.Player(c)
	}
	pl, err := p.s.players.Identify(ctx, cred)
	if err != nil {
		return err
	}
	if pl.ID == "" {
		return errs.Errorf(errs.Unauthorized, "Sign in first: your data is downloaded by you alone.")
	}
	account := map[string]any{"name": pl.Name, "created": pl.Created.UTC().Format(time.RFC3339)}
	if p.s.chat != nil {
		off, err := p.s.chat.Off(ctx, cred)
		if err != nil {
			return err
		}
		account["settings"] = map[string]any{"chatOff": off}
	}
	standings, err := p.s.players.Standings(ctx, pl.ID)
	if err != nil {
		return err
	}
	ratings := make([]map[string]any, 0, len(standings))
	for _, s := range standings {
		ratings = append(ratings, map[string]any{"variant": s.Variant, "speed": s.Speed, "rating": s.Rating.Rating, "deviation": s.Rating.Deviation, "games": s.Games})
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "application/zip")
	h.Set(echo.HeaderContentDisposition, `attachment; filename="banchess-data.zip"`)
	h.Set("Cache-Control", "no-store")
	c.Response().WriteHeader(http.StatusOK)
	if c.Request().Method == http.MethodHead {
		return nil
	}
	// From here the answer is under way: an error ends the zip unfinished.
	z := zip.NewWriter(c.Response())
	if err := writeFile(z, "README.txt", []byte(exportReadme)); err != nil {
		return err
	}
	if err := writeJSON(z, "account.json", account); err != nil {
		return err
	}
	if err := writeJSON(z, "ratings.json", ratings); err != nil {
		return err
	}
	ids, err := p.exportGames(ctx, z, cred, pl.ID)
	if err != nil {
		return err
	}
	if err := writeJSON(z, "chat.json", p.exportChat(ctx, cred, pl.ID, ids)); err != nil {
		return err
	}
	puzzles := []map[string]any{}
	if p.s.training != nil {
		attempts, err := p.s.training.History(ctx, pl.ID)
		if err != nil {
			return err
		}
		for _, a := range attempts {
			puzzles = append(puzzles, map[string]any{"puzzle": a.Puzzle, "at": a.At.UTC().Format(time.RFC3339), "solved": a.Solved, "actions": a.Actions, "rated": a.Rated})
		}
	}
	if err := writeJSON(z, "puzzles.json", puzzles); err != nil {
		return err
	}
	return z.Close()
}

// exportGames writes games.pgn: the player's finished games, newest
// first, within the bounds; it returns their ids.
func (p *accounts) exportGames(ctx context.Context, z *zip.Writer, cred players.Credential, player string) ([]string, error) {
	w, err := z.Create("games.pgn")
	if err != nil {
		return nil, err
	}
	var ids []string
	written := 0
	var cursor players.PlayedGamesCursor
	for len(ids) < exportGames && written < exportPGNBytes {
		page, err := p.s.players.PlayedGames(ctx, player, cursor, 100)
		if err != nil {
			return nil, err
		}
		for _, g := range page {
			text, err := p.s.games.PGN(ctx, g.Game, cred, p.s.analysis, p.s.players, p.core.pgnTags()...)
			if err != nil && errs.Of(err).Code == errs.NotFound {
				continue // swept
			}
			if err != nil {
				return nil, err
			}
			n, err := io.WriteString(w, text+"\n\n")
			if err != nil {
				return nil, err
			}
			ids, written = append(ids, g.Game), written+n
			if len(ids) >= exportGames || written >= exportPGNBytes {
				break
			}
		}
		if len(page) < 100 {
			break
		}
		cursor = players.PlayedGamesCursor{Ended: page[len(page)-1].Ended, Game: page[len(page)-1].Game}
	}
	return ids, nil
}

// exportChat returns the lines the player wrote in the games of ids.
func (p *accounts) exportChat(ctx context.Context, cred players.Credential, player string, ids []string) []map[string]any {
	out := []map[string]any{}
	if p.s.chat == nil {
		return out
	}
	for _, id := range ids {
		for _, room := range []chat.Room{chat.PlayerRoom, chat.SpectatorRoom} {
			for after := int64(0); ; {
				lines, last, err := p.s.chat.Lines(ctx, id, cred, room, after)
				if err != nil || len(lines) == 0 || last <= after {
					break // the end, or a room the player does not read
				}
				for _, l := range lines {
					if l.Author == player {
						out = append(out, map[string]any{"game": id, "room": string(l.Room), "at": l.At.UTC().Format(time.RFC3339), "text": l.Text})
					}
				}
				after = last
			}
		}
	}
	return out
}

// writeFile adds a file to the zip.
func writeFile(z *zip.Writer, name string, b []byte) error {
	w, err := z.Create(name)
	if err == nil {
		_, err = w.Write(b)
	}
	return err
}

// writeJSON adds v as an indented JSON file to the zip.
func writeJSON(z *zip.Writer, name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(z, name, append(b, '\n'))
}
