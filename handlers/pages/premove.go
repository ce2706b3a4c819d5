package pages

import (
	"context"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/views"
)

// premove queues, replaces or cancels the player's premove at a game
// between two players: typed (text: squares, "c2c4 c7c5", or BCN), from
// the board (from and to, with kind "move" from one of the player's own
// pieces, or "ban" from one of the opponent's: the ban to make after the
// move queued), or cancelled (cancel).
func (p *play) premove(c echo.Context, id string, o *views.Options) error {
	f := c.Request().Form
	ctx, cred := c.Request().Context(), kit.Player(c)
	queue := p.s.games.Premoves()
	if f.Get("cancel") != "" {
		if err := queue.Cancel(ctx, id, cred, nil); err != nil {
			return err
		}
		return p.core.done(c, id, *o)
	}
	actions, err := p.premoveActions(ctx, id, cred, f)
	if err != nil {
		return err
	}
	if _, err := queue.Set(ctx, id, cred, actions, nil); err != nil {
		return err
	}
	return p.core.done(c, id, *o)
}

// premoveActions reads the premove form f as the actions to queue.
func (p *play) premoveActions(ctx context.Context, id string, cred players.Credential, f url.Values) ([]string, error) {
	if text := f.Get("text"); text != "" || f.Get("from") == "" {
		words := strings.Fields(text)
		if len(words) == 0 || len(words) > 2 {
			return nil, kit.Invalidf("Type your next move, then perhaps the ban to make after it, as squares: such as c2c4 c7c5.")
		}
		for i, w := range words {
			if !strings.Contains(w, ":") {
				words[i] = [2]string{"m:", "b:"}[i] + w
			}
		}
		return words, nil
	}
	pair := f.Get("from") + f.Get("to")
	switch kind := f.Get("kind"); kind {
	case "", "move":
		return []string{"m:" + pair + f.Get("promotion")}, nil
	case "ban":
		q, err := p.s.games.Premoves().Get(ctx, id, cred)
		if err != nil {
			return nil, err
		}
		if q.Move == "" {
			return nil, kit.Invalidf("Queue your move first: a pre-ban is the ban to make after it.")
		}
		return []string{q.Move, "b:" + pair}, nil
	default:
		return nil, kit.Invalidf("%q is not a kind of premove: use move or ban.", kit.TrimText(kind))
	}
}
