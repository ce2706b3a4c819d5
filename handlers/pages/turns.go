package pages

import (
	"context"
	"github.com/banchess/banchess/i18n"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// Turns are a player's games in play and those awaiting them
// (games.Turns), as the pages use them.
type Turns interface {
	Ongoing(ctx context.Context, cred players.Credential, limit int) ([]games.Summary, error)
	Awaiting(ctx context.Context, cred players.Credential) (int, error)
}

// ongoingSize is how many games in play /games lists.
const ongoingSize = 100

// turnsPage answers /games: the viewer's games in play against someone,
// those where it is their turn first, each with a small board, the
// opponent and the time left.
func (p *browse) turnsPage(c echo.Context) error {
	ctx, cred := c.Request().Context(), kit.Player(c)
	t := views.Turns{Site: p.s.site(c)}
	list, err := p.s.turns.Ongoing(ctx, cred, ongoingSize)
	if err != nil {
		return err
	}
	holder := ""
	if len(list) > 0 {
		if holder, err = p.s.players.PlayerID(ctx, cred); err != nil {
			return err
		}
	}
	now := p.s.now()
	for _, sum := range list {
		link := p.s.gameLink(languageOf(c), sum, holder)
		link.Turn = lastRank(sum, holder) == yourTurn
		link.Left = timeLeft(languageOf(c), sum, now)
		if link.Turn {
			t.Awaiting++
		}
		t.Games = append(t.Games, link)
	}
	return render(c, http.StatusOK, views.TurnsPage(t))
}

// timeLeft is the time game sum's side to act has left at now, as its
// clock shows it ("2 days", "4:59"); "" when no clock runs for it.
func timeLeft(l *i18n.Language, sum games.Summary, now time.Time) string {
	c := sum.Clock
	side, err := rules.ParseColor(sum.Actor)
	if c == nil || err != nil || c.Control.Unlimited() {
		return ""
	}
	if left, ok := c.FirstActionLeft(now); ok {
		return leftText(l, c.Control, left.Milliseconds())
	}
	if c.Running != side {
		return ""
	}
	return leftText(l, c.Control, c.Left(side, now).Milliseconds())
}

// leftText writes ms left on a clock of tc as its face does.
func leftText(l *i18n.Language, tc games.TimeControl, ms int64) string {
	if tc.Correspondence() {
		return views.DaysTextIn(l, ms)
	}
	return views.ClockText(ms)
}

// withAwaiting gives every page the count of its viewer's games awaiting
// them, for the header (views.WithAwaiting): read once, and only if the
// page draws its layout. The API and the static files are passed by.
func (s *deps) withAwaiting(h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if p := req.URL.Path; strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/static/") || strings.HasPrefix(p, kit.ImagePrefix) {
			return h(c)
		}
		ctx := req.Context()
		n := sync.OnceValue(func() int {
			cred := kit.Player(c)
			if cred == "" {
				return 0
			}
			n, err := s.turns.Awaiting(ctx, cred)
			if err != nil {
				s.log.ErrorContext(ctx, "counting the games awaiting a player", "err", err)
			}
			return n
		})
		c.SetRequest(req.WithContext(views.WithAwaiting(ctx, n)))
		return h(c)
	}
}
