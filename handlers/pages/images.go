package pages

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/boardimage"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/rules"
)

// image draws a position: GET /img/{FEN}.png?size=512&flip=1&last=e2e4&ban=d7d5.
// The ban defaults to the one the FEN's seventh field names; ban=- shows
// none. An image's address says all it shows, so it is cached for good.
func (p *site) image(c echo.Context) error {
	const noImage = "No such image"
	if p.s.images == nil {
		return kit.Titled(languageOf(c).T("error.title.noImages"), &errs.Error{Code: errs.Unavailable, Msg: "This server draws no images."})
	}
	name := strings.TrimPrefix(c.Request().URL.Path, kit.ImagePrefix)
	fen, ext, ok := cutExt(name)
	if !ok {
		return kit.Titled(noImage, &errs.Error{Code: errs.NotFound, Msg: "An image's address ends in .svg or .png, such as /img/" + strings.ReplaceAll(rules.StartFEN, " ", "_") + ".png."})
	}
	s, err := boardimage.FromFEN(fen)
	if err != nil {
		return kit.Titled(noImage, &errs.Error{Code: errs.Invalid, Msg: errs.Sentence(err.Error())})
	}
	size, err := imageOptions(c, &s)
	if err != nil {
		return kit.Titled(noImage, err)
	}
	if wait := p.s.imageRate.Take(kit.ClientKey(c.RealIP()), 1); wait > 0 {
		return kit.TooMany(wait, errs.TooManyImages, "This address has asked for more position images than the server draws for one client in a short time.")
	}
	img, err := p.s.images.Draw(c.Request().Context(), s, ext, size)
	switch {
	case errors.Is(err, boardimage.ErrBusy):
		return &errs.Error{Code: errs.Unavailable, Detail: errs.ImagesBusy, RetryAfter: time.Second, Msg: "The server is drawing as many images as it can just now. Please try again in a second."}
	case err != nil && c.Request().Context().Err() != nil:
		return errs.Of(err) // the client left while it waited
	case err != nil:
		return &errs.Error{Code: errs.Internal, Msg: "The image could not be drawn.", Err: fmt.Errorf("drawing an image: %w", err)}
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", img.ETag)
	if match := c.Request().Header.Get("If-None-Match"); match != "" && strings.Contains(match, img.ETag) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, ext.ContentType(), img.Body)
}

// cutExt splits "{fen}.png" into the FEN and the format.
func cutExt(name string) (string, boardimage.Format, bool) {
	for _, f := range []boardimage.Format{boardimage.PNG, boardimage.SVG} {
		if fen, ok := strings.CutSuffix(name, "."+string(f)); ok {
			return fen, f, true
		}
	}
	return "", "", false
}

// imageOptions reads the query's size, flip, last and ban into s.
func imageOptions(c echo.Context, s *boardimage.Scene) (int, error) {
	q := c.QueryParams()
	size := boardimage.DefaultSize
	if v := q.Get("size"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < boardimage.MinSize || n > boardimage.MaxSize {
			return 0, kit.Invalidf("size=%q: an image is %d to %d pixels wide.", kit.TrimText(v), boardimage.MinSize, boardimage.MaxSize)
		}
		size = n
	}
	switch v := q.Get("flip"); v {
	case "", "0":
	case "1":
		s.Flip = true
	default:
		return 0, kit.Invalidf("flip=%q: use flip=1 for Black at the bottom.", kit.TrimText(v))
	}
	for _, f := range []struct {
		name string
		into *rules.Pair
	}{{"last", &s.Last}, {"ban", &s.Ban}} {
		v := q.Get(f.name)
		switch v {
		case "":
			continue
		case "-":
			*f.into = boardimage.None
			continue
		}
		pair, err := rules.ParsePair(strings.ToLower(v))
		if err != nil || pair.From == pair.To {
			return 0, kit.Invalidf("%s=%q: give two squares, such as e2e4.", f.name, kit.TrimText(v))
		}
		*f.into = pair
	}
	return size, nil
}
