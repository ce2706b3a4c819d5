package lichess

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/stream"
	"github.com/banchess/banchess/lobby"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// Lobby is the lobby as lichess's board seek uses it (lobby.Service).
type Lobby interface {
	AddSeek(ctx context.Context, cred players.Credential, st lobby.SeekSettings) (lobby.Seek, error)
	CancelSeek(ctx context.Context, cred players.Credential, id string) error
	Pairings(ctx context.Context, cred players.Credential, since time.Time) ([]lobby.Seek, error)
	Touch(ctx context.Context, cred players.Credential) error
	View(ctx context.Context) (lobby.View, error)
}

// seekAPI serves lichess's POST /api/board/seek on the lobby's seeks.
type seekAPI struct{ s *deps }

// seekTouch is how often an open board seek's connection keeps the seek
// alive (well within lobby.SeekAbsence) and looks that it is still open.
const seekTouch = 10 * time.Second

// errSeekDone ends a board seek's stream: the seek was paired, or is gone.
var errSeekDone = errors.New("the seek is paired or gone")

// variantOf is the variant a lichess key names (or our id); "" is
// Ban Chess's, the first.
func (s *deps) variantOf(key string) (rules.Variant, error) {
	vs := s.loader.Variants()
	if key == "" && len(vs) > 0 {
		return vs[0], nil
	}
	for _, v := range vs {
		if kit.LichessVariantOf(v).Key == key || v.ID() == key {
			return v, nil
		}
	}
	return nil, errs.Errorf(errs.Invalid, "%q is not a variant played here.", rules.Clip(key)).WithDetail(errs.BadVariant)
}

// seekSettings reads lichess's seek fields: time (minutes), increment
// (seconds), rated, variant, color.
func (s *deps) seekSettings(p url.Values) (lobby.SeekSettings, error) {
	var st lobby.SeekSettings
	if p.Get("days") != "" {
		return st, errs.Errorf(errs.Invalid, "Correspondence seeks (days) are not served here yet: give time and increment.").WithDetail(errs.BadClock)
	}
	minutes, errM := strconv.Atoi(p.Get("time"))
	inc, errI := strconv.Atoi(p.Get("increment"))
	if errM != nil || errI != nil {
		return st, errs.Errorf(errs.Invalid, "A seek needs time (whole minutes) and increment (whole seconds), such as time=5&increment=3.").WithDetail(errs.BadClock)
	}
	st.Clock = fmt.Sprintf("%d+%d", minutes, inc)
	if _, _, err := games.ParseTimeControl(st.Clock); err != nil {
		return st, err
	}
	switch r := p.Get("rated"); r {
	case "", "false":
	case "true":
		st.Rated = true
	default:
		return st, errs.Errorf(errs.Invalid, "rated must be true or false, not %q.", rules.Clip(r)).WithDetail(errs.BadRated)
	}
	v, err := s.variantOf(p.Get("variant"))
	if err != nil {
		return st, err
	}
	st.Variant, st.Color = v.ID(), p.Get("color")
	return st, nil
}

// seek posts a seek in the lobby and keeps the connection open while it
// waits, as lichess does: an empty line now and then; once paired the
// server closes it (the game starts on the stream of events), and a
// connection closed first cancels the seek.
func (a *seekAPI) seek(c echo.Context) error {
	who, err := a.s.authorizeFor(c, apis()[0])
	if err != nil {
		return err
	}
	p, err := params(c)
	if err != nil {
		return err
	}
	st, err := a.s.seekSettings(p)
	if err != nil {
		return err
	}
	st.Address = c.RealIP()
	ctx := c.Request().Context()
	since := a.s.kit.Now()
	k, err := a.s.lobby.AddSeek(ctx, who.cred, st)
	if err != nil {
		return err
	}
	touched := since
	poll := func(ctx context.Context) ([]stream.Event, error) {
		list, err := a.s.lobby.Pairings(ctx, who.cred, since)
		if err != nil {
			return nil, nil // busy: look again
		}
		if slices.ContainsFunc(list, func(p lobby.Seek) bool { return p.ID == k.ID }) {
			return nil, errSeekDone
		}
		if now := a.s.kit.Now(); now.Sub(touched) >= seekTouch {
			touched = now
			if err := a.s.lobby.Touch(ctx, who.cred); err != nil {
				return nil, nil
			}
			v, err := a.s.lobby.View(ctx)
			if err == nil && !slices.ContainsFunc(v.Seeks, func(o lobby.Seek) bool { return o.ID == k.ID }) {
				return nil, errSeekDone // expired, or cancelled elsewhere
			}
		}
		return nil, nil
	}
	done := func() { a.s.lobby.CancelSeek(context.WithoutCancel(ctx), who.cred, k.ID) } // gone once paired: no matter
	return a.s.streams.Poll(c, time.Second, poll, done)
}
