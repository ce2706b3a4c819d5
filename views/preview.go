package views

import (
	"strconv"
	"strings"

	"github.com/banchess/banchess/boardimage"
	"github.com/banchess/banchess/i18n"
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

// gamePreview is the link preview of the game page m describes: where
// the game stands, or, for an invite link that gives the free seat, the
// invitation. It returns nil without an origin.
func gamePreview(g *rules.Game, m Game) *Preview {
	title, path := m.Status, gamePath(m.Info.ID)
	if m.Over {
		title = overTitle(m.Status, m.Banner)
	}
	desc := previewText(m.Opts.Lang, g, m.Info.Players)
	flipped := m.Board.Flipped
	if t := m.Info.Table; t != nil && m.Opts.JoinCode != "" && m.Info.Perm.Join {
		free := rules.White
		if m.Info.Players[0].Seated {
			free = rules.Black
		}
		title = invitationTitle(m.Opts.Lang, m.Variant, t.TimeControl, free)
		desc = invitationText(m.Opts.Lang, m.Variant, playerOf(m.Opts.Lang, m.Info.Players, free.Other()).Display())
		flipped = free == rules.Black
	}
	return newPreview(m.Opts.Lang, m.Info.Origin, path, title, desc, m.FEN, lastMove(g), flipped)
}

// newPreview describes, in l, the page at path (under origin) showing fen, with
// title and description, and last as the last move (nil for none). It
// returns nil without an origin: a preview needs absolute URLs.
func newPreview(l *i18n.Language, origin, path, title, description, fen string, last *rules.Pair, flipped bool) *Preview {
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
		Description: description,
		Image:       img,
		URL:         origin + path,
		ImageAlt:    l.T("preview.imageAlt", "Title", title),
		ImageSize:   strconv.Itoa(PreviewSize),
	}
}

// previewText names the variant, the players and where the game stands:
// "Ban Chess · Morphy vs Duke Karl · Checkmate — White wins, 1-0".
func previewText(l *i18n.Language, g *rules.Game, players [2]Player) string {
	parts := []string{g.Variant().Name(), l.T("preview.vs", "White", playerOf(l, players, rules.White).Display(), "Black", playerOf(l, players, rules.Black).Display())}
	if g.Outcome().Over() {
		parts = append(parts, GameBanner(l, g))
	} else {
		parts = append(parts, l.T("preview.inPlay", "Move", g.Position().Fullmove))
	}
	return strings.Join(parts, " · ")
}
