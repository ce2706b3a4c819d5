package views

import (
	"strconv"
	"strings"

	"github.com/banchess/banchess/boardimage"
	"github.com/banchess/banchess/rules"
)

// PreviewSize is the side, in pixels, of a link preview's square image.
const PreviewSize = 600

// Preview is what a chat or a social site shows of a link to a page (Open
// Graph and Twitter card tags): the position's status, the players and
// result, and the position's image.
type Preview struct {
	Title       string // "Ply 12 · White to move — e2→e4 is banned"
	Description string // "Ban Chess · Morphy vs Duke Karl · 1-0"
	Image       string // absolute URL of the position's PNG
	URL         string // absolute URL of the page
	ImageAlt    string
	ImageSize   string // the image's width and height, in pixels
}

// newPreview describes the page at path (under origin) showing fen, with
// title as the status line and last as the last move (nil for none).
// It returns nil without an origin: a preview needs absolute URLs.
func newPreview(g *rules.Game, origin, path, title, fen string, last *rules.Pair, flipped bool) *Preview {
	if origin == "" {
		return nil
	}
	img := origin + boardimage.Path(fen, boardimage.PNG) + "?size=" + strconv.Itoa(PreviewSize)
	if last != nil {
		img += "&last=" + last.String()
	}
	if flipped {
		img += "&flip=1"
	}
	return &Preview{
		Title:       title,
		Description: previewText(g),
		Image:       img,
		URL:         origin + path,
		ImageAlt:    "The board: " + title,
		ImageSize:   strconv.Itoa(PreviewSize),
	}
}

// previewText names the variant, the players (from the game's tags) and
// where the game stands: "Ban Chess · Morphy vs Duke Karl · 1-0, White wins".
func previewText(g *rules.Game) string {
	white, black := "White", "Black"
	for _, t := range g.Tags() {
		switch {
		case t.Name == "White" && t.Value != "" && t.Value != "?":
			white = t.Value
		case t.Name == "Black" && t.Value != "" && t.Value != "?":
			black = t.Value
		}
	}
	parts := []string{g.Variant().Name(), white + " vs " + black}
	if out := g.Outcome(); out.Over() {
		parts = append(parts, Banner(out))
	} else {
		parts = append(parts, "in play at ply "+strconv.Itoa(g.Ply()))
	}
	return strings.Join(parts, " · ")
}
