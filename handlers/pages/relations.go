package pages

import (
	"context"
	"net/http"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/relations"
	"github.com/banchess/banchess/views"
)

// Relations are follows and blocks as the pages use them
// (relations.Service).
type Relations interface {
	Relation(ctx context.Context, cred players.Credential, name string) (relations.Relation, error)
	Follow(ctx context.Context, cred players.Credential, name string) error
	Unfollow(ctx context.Context, cred players.Credential, name string) error
	Block(ctx context.Context, cred players.Credential, name string) error
	Unblock(ctx context.Context, cred players.Credential, name string) error
	Following(ctx context.Context, cred players.Credential) ([]relations.Followed, error)
	Blocking(ctx context.Context, cred players.Credential) ([]players.Player, error)
}

// people is the pages' part for follows and blocks: the profile's
// buttons and /following.
type people struct {
	s    *deps
	core *core
}

// relationRoutes adds /following and the profile's follow and block
// forms, on a server with relations.
func (p *people) relationRoutes(e *echo.Echo) {
	if p.s.relations == nil {
		return
	}
	e.Match([]string{http.MethodGet, http.MethodHead}, "/following", p.following)
	acts := map[string]func(context.Context, players.Credential, string) error{
		"follow": p.s.relations.Follow, "unfollow": p.s.relations.Unfollow,
		"block": p.s.relations.Block, "unblock": p.s.relations.Unblock,
	}
	for name, act := range acts {
		e.POST("/@/:name/"+name, p.relate(act))
	}
}

// relate acts on the player the path names for the browser's player, then
// sends the browser back where it came from: /following when it came
// from there, else the player's profile (Post/Redirect/Get).
func (p *people) relate(act func(context.Context, players.Credential, string) error) echo.HandlerFunc {
	return func(c echo.Context) error {
		if _, err := p.core.form(c); err != nil {
			return err
		}
		name := c.Param("name")
		if err := act(c.Request().Context(), kit.Player(c), name); err != nil {
			return kit.Titled(languageOf(c).T("error.title.notDone"), err)
		}
		back := views.ProfilePath(name)
		if c.Request().PostForm.Get("back") == "following" {
			back = "/following"
		}
		return c.Redirect(http.StatusSeeOther, back)
	}
}

// following lists the players the browser's player follows, online or
// playing now, and those they block.
func (p *people) following(c echo.Context) error {
	ctx, cred := c.Request().Context(), kit.Player(c)
	list, err := p.s.relations.Following(ctx, cred)
	if err != nil {
		return kit.Titled(languageOf(c).T("error.title.following"), err)
	}
	blocked, err := p.s.relations.Blocking(ctx, cred)
	if err != nil {
		return err
	}
	f := views.Following{Asset: p.s.asset}
	for _, pl := range list {
		row := views.FollowedRow{Name: pl.Name, Online: pl.Online, Closed: pl.Closed}
		if pl.Playing != "" {
			row.Watch = kit.GamePath(pl.Playing)
		}
		f.Players = append(f.Players, row)
	}
	for _, pl := range blocked {
		f.Blocked = append(f.Blocked, pl.Name)
	}
	return render(c, http.StatusOK, views.FollowingPage(f))
}

// profileRelation is what the browser's player chose about the player
// named name, nil when they choose nothing here (no relations served, not
// signed in with a name, or their own profile).
func (p *accounts) profileRelation(c echo.Context, name string) (*views.ProfileRelation, error) {
	if p.s.relations == nil {
		return nil, nil
	}
	ctx := c.Request().Context()
	me, err := p.s.players.Identify(ctx, kit.Player(c))
	if err != nil || !me.Named() || players.NameKey(me.Name) == players.NameKey(name) {
		return nil, err
	}
	r, err := p.s.relations.Relation(ctx, kit.Player(c), name)
	if err != nil {
		if errs.Of(err).Code == errs.NotFound {
			return nil, nil
		}
		return nil, err
	}
	return &views.ProfileRelation{Follows: r.Follows, Blocks: r.Blocks}, nil
}
