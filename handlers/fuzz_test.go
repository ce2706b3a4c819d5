package handlers

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// The fuzz targets drive the whole handler chain (Register on an Echo, as
// main does) with one fuzzed request per input, against a game set up
// afresh for that input. Their seed corpora are in testdata/fuzz; run one
// with, for example,
//
//	go test ./handlers -run '^$' -fuzz '^FuzzPages$' -fuzztime 5m -fuzzminimizetime 10s -parallel 1
//
// (an input of long strings takes the default minute to minimize, during
// which a single worker fuzzes nothing else).

// fuzzSetup is a game an input plays against: fen ("" for the initial
// position) and actions replayed in variant, then end (a resignation or an
// agreed draw), or a PGN read as it is.
type fuzzSetup struct {
	variant rules.Variant
	fen     string
	actions []string
	end     string
	pgn     string
}

// fuzzSetups are the games the targets start from, chosen by an input's
// setup byte: every phase, a ban in force, a promotion to play, a mate one
// ban away, and every way a game ends.
var fuzzSetups = []fuzzSetup{
	{variant: rules.BanChess{}},
	{variant: rules.BanChess{}, actions: []string{"b:e2e4"}},
	{variant: rules.BanChess{}, actions: banMate[:6]},
	{variant: rules.BanChess{}, actions: banMate},
	{variant: rules.BanChess{}, fen: mateFEN, actions: []string{"b:a2a3", "m:c4f7"}},
	{variant: rules.BanChess{}, fen: "k7/4P3/8/8/8/8/8/4K3 w - - 0 1 1", actions: []string{"b:e1d1"}},
	{variant: rules.BanChess{}, fen: rules.StartFEN + " 2:e2e4", actions: []string{"m:d2d4"}},
	{variant: rules.BanChess{}, actions: []string{"b:e2e4", "m:d2d4"}, end: "white"},
	{variant: rules.BanChess{}, actions: []string{"b:e2e4"}, end: "draw"},
	{variant: rules.Classic{}, actions: []string{"m:e2e4", "m:e7e5"}},
	{variant: rules.Classic{}, actions: []string{"m:f2f3", "m:e7e5", "m:g2g4", "m:d8h4"}},
	{pgn: "1. e4 e5 2. Nf3 Nc6 *"},
}

// game builds the setup's game.
func (s fuzzSetup) game() (*rules.Game, error) {
	if s.pgn != "" {
		return rules.FromPGN(s.pgn, rules.PGNOptions{})
	}
	g, err := rules.Replay(s.variant, s.fen, s.actions)
	if err != nil {
		return nil, err
	}
	switch s.end {
	case "white":
		err = g.Resign(rules.White)
	case "draw":
		err = g.AgreeDraw()
	}
	return g, err
}

// tagsWithin reports whether g's tags are within the default limits on a
// PGN's tags.
// createdFor checks a game an input created: held by holder (both seats
// of a hot-seat game, the creator's of a game with a friend, the other
// one free), with at most the tags the limits allow and a clock, if any,
// within a time control's bounds.
func createdFor(rec *games.Record, holder string) error {
	held := rec.White == holder && rec.Black == holder
	if rec.Mode == games.Invite {
		held = holder != "" && (rec.White == holder) != (rec.Black == holder) && (rec.White == "") != (rec.Black == "")
	}
	switch {
	case holder == "" || !held:
		return fmt.Errorf("game %s (%s) was created for another browser than the one that asked", rec.ID, rec.Mode)
	case !tagsWithin(rec.Game):
		return fmt.Errorf("game %s was created with %d tags, beyond the limits", rec.ID, len(rec.Game.Record().Tags()))
	case rec.Clock != nil && !clockWithin(rec.Clock.Control):
		return fmt.Errorf("game %s was created with the clock %+v, beyond a time control's bounds", rec.ID, rec.Clock.Control)
	}
	return nil
}

// clockWithin reports whether tc is a time control a client may set:
// whole minutes from 1 to 180, whole seconds of increment up to 180.
func clockWithin(tc games.TimeControl) bool {
	return tc.Initial >= games.MinInitialMinutes*time.Minute && tc.Initial <= games.MaxInitialMinutes*time.Minute && tc.Initial%time.Minute == 0 &&
		tc.Increment >= 0 && tc.Increment <= games.MaxIncrementSeconds*time.Second && tc.Increment%time.Second == 0
}

func tagsWithin(g *rules.Game) bool {
	l := games.DefaultLimits()
	tags := g.Record().Tags()
	for _, t := range tags {
		if len(t.Name) > l.MaxTagNameBytes || len(t.Value) > l.MaxTagBytes {
			return false
		}
	}
	return len(tags) <= l.MaxTags
}

// The credentials of the targets' browsers and API clients: fuzzPlayer
// holds both seats of the game an input plays against; fuzzOther holds a
// game of its own, and no seat in that one.
const (
	fuzzPlayer players.Credential = "fuzz-player-credential"
	fuzzOther  players.Credential = "fuzz-other-credential"
)

// fuzzStore is the store under test: a map emptied for each input, so that
// inputs do not see each other's games, whose ids are the same for the same
// input (random ids would make coverage, and so the fuzzer, noisy). It
// counts the games created. A refused Update's fn leaves the record as it
// found it or the targets see the change: nothing is rolled back. It serves
// one request at a time, as the targets send them.
type fuzzStore struct {
	*store.Memory // players and the lobby
	recs          map[string]*games.Record
	creates       int
}

// Chat is the chat of the store's memory as it stands: reset empties it
// too.
func (s *fuzzStore) Chat() chat.Store { return fuzzChat{s} }

// fuzzChat is a fuzzStore's chat, its memory's of the moment.
type fuzzChat struct{ s *fuzzStore }

func (f fuzzChat) AddChatLine(ctx context.Context, l chat.Line) (chat.Line, error) {
	return f.s.Memory.Chat().AddChatLine(ctx, l)
}

func (f fuzzChat) ChatLines(ctx context.Context, game string, room chat.Room, after int64, limit int) ([]chat.Line, int64, error) {
	return f.s.Memory.Chat().ChatLines(ctx, game, room, after, limit)
}

func (f fuzzChat) ChatOff(ctx context.Context, player string) (bool, error) {
	return f.s.Memory.Chat().ChatOff(ctx, player)
}

func (f fuzzChat) SetChatOff(ctx context.Context, player string, off bool) error {
	return f.s.Memory.Chat().SetChatOff(ctx, player, off)
}

// reset empties the store but for the players of fuzzPlayer and
// fuzzOther, whose ids are their credentials' hashes.
func (s *fuzzStore) reset() {
	s.Memory, s.recs, s.creates = store.NewMemory(), map[string]*games.Record{}, 0
	for _, cred := range []players.Credential{fuzzPlayer, fuzzOther} {
		h := cred.Hash()
		s.AddPlayer(context.Background(), players.Player{ID: h}, players.Issued{Hash: h, Player: h, Kind: players.Cookie})
	}
}

// playerOf returns the id of the player cred was issued to.
func (s *fuzzStore) playerOf(cred players.Credential) string {
	id, _ := s.CredentialPlayer(context.Background(), cred.Hash())
	return id
}

// add stores rec under the next id.
func (s *fuzzStore) add(rec *games.Record) string {
	rec.ID = base64.RawURLEncoding.EncodeToString(binary.BigEndian.AppendUint64(make([]byte, 8), uint64(len(s.recs)+1)))
	s.recs[rec.ID] = rec
	return rec.ID
}

func (s *fuzzStore) Create(_ context.Context, rec *games.Record) error {
	s.creates++
	s.add(rec)
	return nil
}

func (s *fuzzStore) Update(_ context.Context, id string, fn func(*games.Record) error) error {
	rec, ok := s.recs[id]
	if !ok {
		return &errs.Error{Code: errs.NotFound, Msg: "There is no game with this id."}
	}
	return fn(rec)
}

func (s *fuzzStore) View(ctx context.Context, id string, fn func(*games.Record) error) error {
	return s.Update(ctx, id, fn)
}

func (s *fuzzStore) List(_ context.Context, holder string, limit int) ([]games.Summary, error) {
	var out []games.Summary
	for _, rec := range s.recs {
		if holder != "" && (rec.White == holder && !rec.WhiteHidden || rec.Black == holder && !rec.BlackHidden) {
			out = append(out, rec.Summary())
		}
	}
	slices.SortFunc(out, func(a, b games.Summary) int {
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out[:min(len(out), max(limit, 0))], nil
}

// fuzzServer is one server for a whole fuzz run.
type fuzzServer struct {
	e     *echo.Echo
	store *fuzzStore
	log   bytes.Buffer // the Echo logger's output, where recovered panics go
	errs  []error      // every error that reached Echo's error handler
}

func newFuzzServer() *fuzzServer {
	s := &fuzzServer{e: echo.New(), store: &fuzzStore{}}
	New(servicesOf(testsite.New(s.store, testsite.Config{Now: apiClock})), apiClock).Register(s.e)
	s.e.Logger.SetOutput(&s.log)
	handle := s.e.HTTPErrorHandler
	s.e.HTTPErrorHandler = func(err error, c echo.Context) {
		s.errs = append(s.errs, err)
		handle(err, c)
	}
	return s
}

// start empties the store and stores the game setup chooses, held by
// fuzzPlayer, and a game of fuzzOther's, returning the first's id and
// state.
func (s *fuzzServer) start(t *testing.T, setup uint8) (id, state string) {
	t.Helper()
	s.store.reset()
	s.log.Reset()
	s.errs = s.errs[:0]
	g, err := fuzzSetups[int(setup)%len(fuzzSetups)].game()
	if err != nil {
		t.Fatalf("setup %d: %v", setup, err)
	}
	hold := func(g *rules.Game, cred players.Credential) *games.Record {
		h := cred.Hash()
		return &games.Record{Game: g, White: h, Black: h, Mode: games.HotSeat, Created: apiClock(), Updated: apiClock()}
	}
	id = s.store.add(hold(g, fuzzPlayer))
	s.store.add(hold(rules.New(rules.BanChess{}), fuzzOther))
	s.store.creates = 0
	return id, s.state(t, id)
}

// created returns the records of the games the input created.
func (s *fuzzServer) created() []*games.Record {
	var out []*games.Record
	for _, rec := range s.store.recs {
		if n, _ := base64.RawURLEncoding.DecodeString(rec.ID); len(n) == 8 && binary.BigEndian.Uint64(n) > 2 {
			out = append(out, rec)
		}
	}
	return out
}

// state describes game id — its seats and who hid it, start, actions,
// log, position and outcome — and checks that the game is whole: rebuilt
// from its snapshot, it is the same game.
func (s *fuzzServer) state(t *testing.T, id string) string {
	t.Helper()
	describe := func(g *rules.Game) string {
		return fmt.Sprintf("%s %s\n%s\n%q\n%q\n%v", g.Variant().ID(), g.StartFEN(), g.FEN(), g.BCN(), g.Record().Log(), g.Outcome())
	}
	var desc string
	err := s.store.View(context.Background(), id, func(rec *games.Record) error {
		g := rec.Game
		desc = fmt.Sprintf("seats %q %q hidden %v %v mode %q\n", rec.White, rec.Black, rec.WhiteHidden, rec.BlackHidden, rec.Mode) + describe(g)
		back, err := rules.Restore(g.Snapshot())
		if err != nil {
			return fmt.Errorf("the game does not restore from its snapshot: %w", err)
		}
		if again := describe(back); again != describe(g) {
			return fmt.Errorf("restored from its snapshot, the game is another:\n%s\n%s", describe(g), again)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("game %s: %v", id, err)
	}
	return desc
}

// serve answers req and fails on a 5xx or on a panic that the recovering
// middleware turned into an answer.
func (s *fuzzServer) serve(t *testing.T, req *http.Request) apiResp {
	t.Helper()
	r := newAPIT(t, s.e).send(req)
	t.Logf("%s %q: %d %s", req.Method, req.URL.String(), r.code, r.hdr.Get("Location"))
	if r.code >= 500 {
		t.Fatalf("%s %q: %d %s", req.Method, req.URL.String(), r.code, r.body)
	}
	for _, err := range s.errs {
		if strings.HasPrefix(err.Error(), "panic: ") { // from apiErrors, when the answer had begun
			t.Fatalf("%s %q: %v", req.Method, req.URL.String(), err)
		}
	}
	if l := s.log.String(); strings.Contains(l, "PANIC RECOVER") {
		t.Fatalf("%s %q: %s", req.Method, req.URL.String(), l)
	}
	return r
}

// fuzzRequest is a request whose path, query and body may be anything.
func fuzzRequest(method, path, query string, body []byte) *http.Request {
	req := httptest.NewRequest(method, "/", bytes.NewReader(body))
	req.URL.Path, req.URL.RawQuery = path, query
	req.RequestURI = req.URL.RequestURI()
	return req
}

// The bits of FuzzPages' flags byte. With both pageNoCookie and
// pageBadCookie, the cookie's value is an input's y: a credential
// invented, as a forger or a broken client sends.
const (
	pageHX        = 1 << iota // HX-Request: true
	pageInQuery               // a POST's fields in the query, not the body
	pageNoCookie              // no credential cookie
	pageBadCookie             // the credential of another browser, which holds no seat in the game
	pageCrossSite             // Sec-Fetch-Site: cross-site
	pageHuge                  // a body just over the limit
	pageRestore               // HX-History-Restore-Request: true
	pageLegacy                // the old cookie, naming the game
)

// pageRoute is a request of the playground: method and path ("{g}" stands
// for the game's address, /g/{id}), and the form (or query) fields an
// input's x and y fill. With pathArg, x ends the path.
type pageRoute struct {
	method, path string
	pathArg      bool
	x, y         string
	also         string // fields always sent (after x and y, which win)
}

var fuzzPageRoutes = []pageRoute{
	{method: "POST", path: "{g}/select", x: "square", y: "from"},
	{method: "POST", path: "{g}/ply", x: "from", y: "to"},
	{method: "POST", path: "{g}/ply", x: "text", y: "ply"},
	{method: "POST", path: "{g}/undo", x: "ply"},
	{method: "POST", path: "{g}/resign", x: "side"},
	{method: "POST", path: "{g}/draw", x: "flip"},
	{method: "POST", path: "/new", x: "variant"},
	{method: "POST", path: "/import", x: "text", y: "variant"},
	{method: "GET", path: "{g}", x: "sel", y: "to"},
	{method: "GET", path: "/", x: "fen", y: "v"},
	{method: "GET", path: "/", x: "pgn", y: "notice"},
	{method: "GET", path: "/", x: "a", y: "end"}, // a share link: v and fen come with extra
	{method: "GET", path: "{g}/history/", pathArg: true, y: "flip"},
	{method: "GET", path: "{g}/pgn", x: "auto"},
	{method: "GET", path: "/", pathArg: true},
	{method: "POST", path: "/", pathArg: true, y: "text"},
	{method: "POST", path: "{g}/hide", x: "back"},
	{method: "POST", path: "/import", x: "text", y: "game"}, // y "" is the game's id
	{method: "GET", path: "/", x: "flip", y: "auto"},
	{method: "GET", path: "/g/", pathArg: true, y: "sel"},
	{method: "POST", path: "/g/", pathArg: true, y: "text"},
	{method: "POST", path: "/new", x: "clock", y: "color", also: "mode=invite"},
}

// FuzzPages drives the playground's pages and forms: a route (every form
// post, the game's page with its selection, links that open a game from a
// FEN, a PGN or a share link, the history and the PGN download, hiding a
// game, / itself, any other path), its fields from x and y, extra fields
// (raw, first, so they win), with or without htmx, with the credential
// that holds the game's seats, another browser's, one invented or none,
// with the old cookie or not, same-site or cross-site, against a game of
// fuzzSetups. It checks that no request panics or gets a 5xx; that a
// refused one (4xx) leaves the game as it was, creates none and gives the
// browser no credential; that a browser whose credential names a player
// is never given another, and one given names a player; that a request without the game's credential never changes
// it (its seats included); that a game created is held by the browser that
// asked and is where the answer sends it; that a redirect (or an htmx
// history push) stays on this site and a redirect lands on a page that
// answers 200; and that every game stays whole (it restores from its
// snapshot).
func FuzzPages(f *testing.F) {
	f.Add(uint8(1), uint8(1), uint8(0), "d2", "d4", "")
	f.Add(uint8(0), uint8(2), uint8(pageHX), "e2e4", "1", "")
	f.Add(uint8(4), uint8(1), uint8(0), "e8", "e7", "ply=3")
	f.Add(uint8(5), uint8(1), uint8(pageHX), "e7", "e8", "promotion=q")
	f.Add(uint8(3), uint8(3), uint8(0), "", "", "flip=1&auto=1")
	f.Add(uint8(7), uint8(4), uint8(pageHX), "black", "", "")
	f.Add(uint8(2), uint8(7), uint8(0), "1. {banning: e2e4} d4 {banning: e7e5} d5 *", "", "")
	f.Add(uint8(0), uint8(9), uint8(0), rules.StartFEN+" 2:e2e4", "ban", "")
	f.Add(uint8(0), uint8(11), uint8(0), "b:e2e4,m:d2d4", "draw", "v=classic&fen=x")
	f.Add(uint8(2), uint8(12), uint8(pageHX), "99999999999999999999", "1", "")
	f.Add(uint8(6), uint8(0), uint8(pageCrossSite), "e2", "", "")
	f.Add(uint8(1), uint8(2), uint8(pageBadCookie), "m:d2d4", "", "")
	f.Add(uint8(0), uint8(4), uint8(pageNoCookie|pageHX), "white", "", "")
	f.Add(uint8(8), uint8(14), uint8(pageNoCookie), "api/../history/1", "", "%zz")
	f.Add(uint8(1), uint8(16), uint8(0), "", "", "")
	f.Add(uint8(1), uint8(16), uint8(pageBadCookie), "AAAAAAAAAAAAAAAAAAAAAQ", "", "")
	f.Add(uint8(2), uint8(17), uint8(pageHX), "not a game", "", "")
	f.Add(uint8(0), uint8(18), uint8(pageLegacy|pageNoCookie), "", "", "")
	f.Add(uint8(0), uint8(18), uint8(pageNoCookie), "1", "", "")
	f.Add(uint8(1), uint8(19), uint8(0), "AAAAAAAAAAAAAAAAAAAAAQ/history/1", "e2", "")
	f.Add(uint8(1), uint8(20), uint8(pageBadCookie), "AAAAAAAAAAAAAAAAAAAAAQ/ply", "d4", "ply=2")
	// Invented credentials: unknown, malformed, too long, quoted.
	for _, c := range []string{"AAAAAAAAAAAAAAAAAAAAAQ", "not a credential; x=1", strings.Repeat("A", 5000), `"quoted"`, "é\x7f,="} {
		f.Add(uint8(1), uint8(1), uint8(pageNoCookie|pageBadCookie), "d2", c, "")
		f.Add(uint8(0), uint8(0), uint8(pageNoCookie|pageBadCookie|pageHX), "", c, "")
	}
	// Bounds on a PGN (its tags; 16 KiB in a link) and on what is quoted.
	f.Add(uint8(0), uint8(10), uint8(0), tagPGN(33, 8, 8), "", "")
	f.Add(uint8(0), uint8(10), uint8(pageHX), paddedPGN(16<<10+1), "", "")
	f.Add(uint8(0), uint8(10), uint8(0), paddedPGN(16<<10), "", "")
	f.Add(uint8(0), uint8(7), uint8(0), tagPGN(2000, 8, 8), "", "")
	f.Add(uint8(0), uint8(17), uint8(pageHX), tagPGN(32, 64, 256), "", "")
	f.Add(uint8(0), uint8(17), uint8(0), tagPGN(1, 8, 257), "", "")
	f.Add(uint8(0), uint8(9), uint8(0), "", strings.Repeat("é", 3555), "a=")
	f.Add(uint8(0), uint8(11), uint8(0), strings.Repeat("b:e2e4", 600), strings.Repeat("é", 100), "")
	// Clocks of a game with a friend (issue 24: NaN+0 gave -9.2e15 ms).
	for _, clock := range []string{"5+3", "NaN+0", "5+9223372037", "1e-9+0", "0.5+0", "180+180", "181+0", "+1+1"} {
		f.Add(uint8(0), uint8(21), uint8(0), clock, "white", "")
	}

	s := newFuzzServer()
	f.Fuzz(func(t *testing.T, setup, route, flags uint8, x, y, extra string) {
		id, before := s.start(t, setup)
		rt := fuzzPageRoutes[int(route)%len(fuzzPageRoutes)]
		fields := url.Values{}
		path := strings.ReplaceAll(rt.path, "{g}", kit.GamePath(id))
		if rt.pathArg {
			path += x
		} else if rt.x != "" {
			fields.Set(rt.x, x)
		}
		if rt.y == "game" && y == "" {
			y = id
		}
		if rt.y != "" {
			fields.Set(rt.y, y)
		}
		form := fields.Encode()
		if rt.also != "" {
			form = strings.TrimPrefix(form+"&"+rt.also, "&")
		}
		if extra != "" {
			form = strings.TrimSuffix(extra+"&"+form, "&")
		}
		var query string
		var body []byte
		if rt.method == http.MethodGet || flags&pageInQuery != 0 {
			query = form
		} else {
			body = []byte(form)
		}
		if flags&pageHuge != 0 {
			body = append(body, bytes.Repeat([]byte("&"), kit.MaxBody+1-len(body))...)
		}
		req := fuzzRequest(rt.method, path, query, body)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if flags&pageHX != 0 {
			req.Header.Set("HX-Request", "true")
		}
		if flags&pageRestore != 0 {
			req.Header.Set("HX-History-Restore-Request", "true")
		}
		if flags&pageCrossSite != 0 {
			req.Header.Set("Sec-Fetch-Site", "cross-site")
		} else if rt.method == http.MethodPost {
			req.Header.Set("Sec-Fetch-Site", "same-origin")
		}
		// The credential the request carries, and whether it holds the game.
		var cred players.Credential
		switch {
		case flags&(pageBadCookie|pageNoCookie) == pageBadCookie|pageNoCookie:
			// What a client can send in a header: no line breaks, no NUL.
			cred = players.Credential(strings.Map(func(r rune) rune {
				if r == '\r' || r == '\n' || r == 0 {
					return -1
				}
				return r
			}, y))
		case flags&pageBadCookie != 0:
			cred = fuzzOther
		case flags&pageNoCookie == 0:
			cred = fuzzPlayer
		}
		player := cred == fuzzPlayer
		if cred != "" {
			req.Header.Add("Cookie", kit.PlayerCookie+"="+string(cred)) // as sent, not as net/http would clean it
		}
		if flags&pageLegacy != 0 {
			req.AddCookie(&http.Cookie{Name: kit.LegacyCookie, Value: id})
		}

		r := s.serve(t, req)
		var given *http.Cookie
		for _, ck := range (&http.Response{Header: r.hdr}).Cookies() {
			if ck.Name == kit.PlayerCookie {
				given = ck
			}
		}
		after := s.state(t, id)
		switch {
		case !player && after != before:
			t.Fatalf("a request without the game's credential changed it:\n%s\n%s", before, after)
		case r.code >= 400 && after != before:
			t.Fatalf("refused with %d, but the game changed:\n%s\n%s", r.code, before, after)
		case r.code >= 400 && (s.store.creates > 0 || given != nil):
			t.Fatalf("refused with %d, but %d games were created and the browser was given a credential (%v)", r.code, s.store.creates, given != nil)
		case given != nil && s.store.playerOf(cred) != "":
			t.Fatalf("a browser with a credential was given another")
		case given != nil && s.store.playerOf(players.Credential(given.Value)) == "":
			t.Fatalf("the browser was given a credential that names no player")
		}
		if given != nil {
			cred = players.Credential(given.Value)
		}
		loc, push := r.hdr.Get("Location"), r.hdr.Get("HX-Push-Url")
		for _, rec := range s.created() {
			s.state(t, rec.ID)
			if err := createdFor(rec, s.store.playerOf(cred)); err != nil {
				t.Fatal(err)
			}
			if gameOf(loc) != rec.ID && gameOf(push) != rec.ID {
				t.Fatalf("game %s was created, but the answer sends the browser to %q / %q", rec.ID, loc, push)
			}
			if q := req.URL.Query(); rt.method == http.MethodGet && q.Has("pgn") && len(q.Get("pgn")) > games.DefaultLimits().MaxLinkPGNBytes {
				t.Fatalf("a link of %d bytes of PGN opened a game", len(q.Get("pgn")))
			}
		}
		for _, to := range []string{loc, push} {
			if to != "" && (!strings.HasPrefix(to, "/") || strings.HasPrefix(to, "//") || strings.HasPrefix(to, "/\\")) {
				t.Fatalf("answer %d sends the browser to %q, off this site", r.code, to)
			}
		}
		if r.code < 300 || r.code >= 400 {
			return
		}
		// Follow the redirect (/ redirects once more, to a game).
		for range 2 {
			next := httptest.NewRequest(http.MethodGet, loc, nil)
			if cred != "" {
				next.AddCookie(&http.Cookie{Name: kit.PlayerCookie, Value: string(cred)})
			}
			r = s.serve(t, next)
			if r.code != http.StatusSeeOther || loc != "/" {
				break
			}
			loc = r.hdr.Get("Location")
		}
		if r.code != http.StatusOK {
			t.Fatalf("the redirect to %q answers %d: %s", loc, r.code, r.body)
		}
	})
}

// apiRoute is an endpoint of the JSON API; {id} in path stands for a game.
type apiRoute struct{ method, path string }

var fuzzAPIRoutes = []apiRoute{
	{"POST", "/api/games"},
	{"GET", "/api/games/{id}"},
	{"POST", "/api/games/{id}/actions"},
	{"POST", "/api/games/{id}/undo"},
	{"POST", "/api/games/{id}/resign"},
	{"POST", "/api/games/{id}/draw"},
	{"GET", "/api/games/{id}/pgn"},
}

var fuzzMethods = []string{"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "QUERY"}

// The bits of FuzzAPI's flags byte.
const (
	apiOtherMethod = 1 << iota // the method the route byte chooses, not the route's
	apiNoLength                // no Content-Length
	apiIDMode                  // two bits: the id is the game's, fuzzed, the game's and more, or a path
	_
	apiCrossSite // Sec-Fetch-Site: cross-site
	apiHuge      // a body just over the limit
	apiTokenMode // two bits: the game's token, none, another client's, or one never issued (the fuzzed id, else the game's id)
	_
)

// FuzzAPI drives the JSON API: an endpoint, a method (its own, or with
// apiOtherMethod any), the game id (the set-up game's, a fuzzed one, the
// real one with fuzzed text after it, or a fuzzed path under /api), a
// bearer token (the one holding the game's seats, none, another client's,
// or one the server never issued: the fuzzed id text, or the game's id
// when it is empty), a Content-Type (none when empty) and a body, against
// a game of fuzzSetups. It checks that no request panics or gets a 5xx;
// that every refusal is a JSON {"error", "code"} with both non-empty,
// leaves the game as it was and creates none; that only the game's token
// changes it; that a token never issued is refused as another client's is
// (the answer tells nothing of which tokens exist); that every success is a game object (the PGN file for
// …/pgn) of the game asked for, or of the one created, held by the token
// sent (or, without one, by the token answered); and that every game stays
// whole.
func FuzzAPI(f *testing.F) {
	const banFEN = `{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2:e2e4"}`
	f.Add(uint8(0), uint8(2), uint8(0), "", "application/json", []byte(`{"action":"b:e2e4"}`))
	f.Add(uint8(1), uint8(2), uint8(0), "", "application/json", []byte(`{"action":"m:e2e4"}`))
	f.Add(uint8(3), uint8(3), uint8(0), "", "", []byte(nil))
	f.Add(uint8(2), uint8(4), uint8(0), "", "application/json; charset=utf-8", []byte(`{"color":"black"}`))
	f.Add(uint8(0), uint8(0), uint8(0), "", "application/json", []byte(banFEN))
	f.Add(uint8(0), uint8(0), uint8(0), "", "application/json", []byte(`{"pgn":"1. {banning: e2e4} d4 {banning: e7e5} d5 *","variant":"ban"}`))
	f.Add(uint8(4), uint8(2), uint8(0), "", "text/plain", []byte(`{"action":"b:e8e7"}`))
	f.Add(uint8(1), uint8(1), uint8(1*apiIDMode), "nosuchgame", "", []byte(nil))
	f.Add(uint8(1), uint8(6), uint8(3*apiIDMode), "games/../pgn", "", []byte(nil))
	f.Add(uint8(8), uint8(5+3*7), uint8(apiOtherMethod), "", "application/json", []byte(`{}`))
	f.Add(uint8(0), uint8(2), uint8(apiCrossSite), "", "application/json", []byte(`{"action":"b:e2e4"}`))
	f.Add(uint8(5), uint8(2), uint8(apiNoLength|apiHuge), "", "application/json", []byte(`{"action":"m:e7e8q"}`))
	f.Add(uint8(0), uint8(2), uint8(1*apiTokenMode), "", "application/json", []byte(`{"action":"b:e2e4"}`))
	f.Add(uint8(1), uint8(2), uint8(2*apiTokenMode), "", "application/json", []byte(`{"action":"d4","ply":2}`))
	f.Add(uint8(0), uint8(5), uint8(3*apiTokenMode), "", "", []byte(nil))
	f.Add(uint8(0), uint8(0), uint8(2*apiTokenMode), "", "application/json", []byte(`{"variant":"classic"}`))
	f.Add(uint8(1), uint8(2), uint8(1*apiIDMode|1*apiTokenMode), "nosuchgame", "application/json", []byte(`{"action":"Nf3"}`))
	// Tokens the server never issued (issue 24: "Bearer mybot" held seats).
	for _, token := range []string{"mybot", "admin", strings.Repeat("t", 129), "fuzz-player-credential ", "Zm9v\x00"} {
		f.Add(uint8(0), uint8(2), uint8(3*apiTokenMode), token, "application/json", []byte(`{"action":"b:e2e4"}`))
		f.Add(uint8(0), uint8(0), uint8(3*apiTokenMode), token, "application/json", []byte(`{"variant":"classic"}`))
	}
	f.Add(uint8(2), uint8(2), uint8(0), "", "application/json", []byte(`{"action":"Nc6","ply":"7"}`))
	// Bounds on a PGN's tags, and on what a refusal quotes.
	f.Add(uint8(0), uint8(0), uint8(0), "", "application/json", []byte(pgnJSON(tagPGN(2000, 8, 8))))
	f.Add(uint8(0), uint8(0), uint8(0), "", "application/json", []byte(pgnJSON(tagPGN(32, 64, 256))))
	f.Add(uint8(0), uint8(0), uint8(0), "", "application/json", []byte(pgnJSON(tagPGN(1, 65, 1))))
	f.Add(uint8(0), uint8(0), uint8(0), "", "application/json", []byte(`{"variant":"`+strings.Repeat("é", 3555)+`"}`))
	f.Add(uint8(0), uint8(0), uint8(0), "", "text/"+strings.Repeat("é", 100), []byte(`{}`))
	// Clocks of a game with a friend (issue 24: NaN+0 gave -9.2e15 ms).
	for _, clock := range []string{`"5+3"`, `"NaN+0"`, `"5+9223372037"`, `"1e-9+0"`, `"0.5+0"`, `"180+180"`, `5`, `"1+0"`} {
		f.Add(uint8(0), uint8(0), uint8(0), "", "application/json", []byte(`{"mode":"invite","color":"black","clock":`+clock+`}`))
	}

	s := newFuzzServer()
	f.Fuzz(func(t *testing.T, setup, route, flags uint8, id, contentType string, body []byte) {
		gameID, before := s.start(t, setup)
		rt := fuzzAPIRoutes[int(route)%len(fuzzAPIRoutes)]
		method := rt.method
		if flags&apiOtherMethod != 0 {
			method = fuzzMethods[int(route)/len(fuzzAPIRoutes)%len(fuzzMethods)]
		}
		want := gameID // the game a success must describe
		path := rt.path
		switch flags / apiIDMode % 4 {
		case 0:
		case 1:
			want = id
		case 2:
			want = gameID + id
		case 3:
			path, want = "/api/"+id, ""
		}
		path = strings.ReplaceAll(path, "{id}", want)
		if flags&apiHuge != 0 {
			body = append(body, bytes.Repeat([]byte(" "), kit.MaxBody+1-len(body))...)
		}
		req := fuzzRequest(method, path, "", body)
		if flags&apiNoLength != 0 {
			req.Body, req.ContentLength = io.NopCloser(bytes.NewReader(body)), -1
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if flags&apiCrossSite != 0 {
			req.Header.Set("Sec-Fetch-Site", "cross-site")
		}
		var token players.Credential // as the server reads it: trimmed
		switch flags / apiTokenMode % 4 {
		case 0:
			token = fuzzPlayer
		case 2:
			token = fuzzOther
		case 3:
			sent := cmp.Or(id, gameID)
			req.Header.Set("Authorization", "Bearer "+sent)
			token = players.Credential(strings.TrimSpace(sent))
		}
		if token != "" && req.Header.Get("Authorization") == "" {
			req.Header.Set("Authorization", "Bearer "+string(token))
		}
		send := func(token players.Credential) apiResp { // req again, with another token
			again := req.Clone(context.Background())
			again.Body = io.NopCloser(bytes.NewReader(body))
			again.Header.Set("Authorization", "Bearer "+string(token))
			return s.serve(t, again)
		}

		r := s.serve(t, req)
		ct := r.hdr.Get("Content-Type")
		after := s.state(t, gameID)
		switch {
		case r.code >= 400 && (after != before || s.store.creates > 0):
			t.Fatalf("refused with %d (%s), but the game changed or %d were created:\n%s\n%s", r.code, r.body, s.store.creates, before, after)
		case token != fuzzPlayer && after != before:
			t.Fatalf("a request without the game's token changed it (%d %s):\n%s\n%s", r.code, r.body, before, after)
		}
		switch {
		case r.code >= 400 && method == http.MethodHead:
			// A HEAD answer has no body (Echo's error handler sends none).
		case r.code >= 400:
			var e map[string]any
			if err := json.Unmarshal(r.body, &e); err != nil || !strings.HasPrefix(ct, "application/json") {
				t.Fatalf("%d with %q, not JSON (%v): %s", r.code, ct, err, r.body)
			}
			if msg, _ := e["error"].(string); msg == "" {
				t.Fatalf("%d without an error message: %s", r.code, r.body)
			} else if len(msg) > 1024 {
				t.Fatalf("%d with an error message of %d bytes: %.300s", r.code, len(msg), msg)
			}
			if code, _ := e["code"].(string); code == "" {
				t.Fatalf("%d without a code: %s", r.code, r.body)
			}
		case r.code < 200 || r.code >= 300:
			t.Fatalf("%s %q answers %d", method, path, r.code)
		case method == http.MethodGet && strings.HasSuffix(path, "/pgn"):
			if ct != "application/x-chess-pgn" || !bytes.Contains(r.body, []byte("[Result ")) {
				t.Fatalf("the PGN answers %q: %s", ct, r.body)
			}
		case method == http.MethodGet && path == "/api/games":
			// The bearer's games in play, not one game.
			var list api.OngoingGames
			if err := json.Unmarshal(r.body, &list); err != nil || list.Games == nil || !strings.HasPrefix(ct, "application/json") {
				t.Fatalf("%d with %q, not the bearer's games (%v): %s", r.code, ct, err, r.body)
			}
		default:
			var g api.Created
			if err := json.Unmarshal(r.body, &g); err != nil || g.ID == "" || !slices.Contains([]string{"ban", "classic"}, g.Variant) {
				t.Fatalf("%d, not a game (%v): %s", r.code, err, r.body)
			}
			created := r.code == http.StatusCreated
			if created != (s.store.creates == 1) || !created && g.ID != want {
				t.Fatalf("%s %q answers %d with game %q after %d creates", method, path, r.code, g.ID, s.store.creates)
			}
			if method != http.MethodGet && !created && token != fuzzPlayer {
				t.Fatalf("%s %q answers %d without the game's token", method, path, r.code)
			}
			if created {
				if token != "" && g.Token != string(token) || !players.Credential(g.Token).Valid() {
					t.Fatalf("a game created with token %q answers token %q", token, g.Token)
				}
				rec := s.store.recs[g.ID]
				if rec == nil {
					t.Fatalf("the game created, %s, is not stored", g.ID)
				}
				if err := createdFor(rec, s.store.playerOf(players.Credential(g.Token))); err != nil {
					t.Fatal(err)
				}
			} else if g.Token != "" {
				t.Fatalf("%d answers a token", r.code)
			}
			s.state(t, g.ID)
		}
		// A token never issued is answered as one issued to another
		// client is, where that one is refused too.
		if flags/apiTokenMode%4 == 3 && token != "" && token != fuzzPlayer && token != fuzzOther && r.code >= 400 {
			if o := send(fuzzOther); o.code >= 400 && (o.code != r.code || !bytes.Equal(o.body, r.body)) {
				t.Fatalf("%s %q: a token never issued answers %d %s, another client's %d %s", method, path, r.code, r.body, o.code, o.body)
			}
		}
	})
}
