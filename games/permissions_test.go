package games_test

import (
	"context"
	"testing"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/computer"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// quietEngine analyses at once (the position's first legal action) and
// never plays: the computer's searches wait until they are cancelled, so
// a game against it stays as the test made it.
type quietEngine struct{}

func (quietEngine) Analyse(_ context.Context, g *rules.Game, _ engine.Limits) (engine.Result, error) {
	return engine.Result{Best: g.Legal()[0]}, nil
}

func (quietEngine) Play(ctx context.Context, _ *rules.Game, _ engine.Limits) (engine.Result, error) {
	<-ctx.Done()
	return engine.Result{}, ctx.Err()
}

// The seats of the scenes: White's and Black's holders at games between
// two players or against the computer, the holder of both at a hot-seat
// game, a player of another game, and a request without a credential.
var (
	whiteCred = players.NewCredential()
	blackCred = players.NewCredential()
	bothCred  = players.NewCredential()
	otherCred = players.NewCredential()
)

// issueScenes records the scenes' credentials as issued by e's store, each
// to a player whose id is its hash.
func issueScenes(e *env) {
	e.t.Helper()
	for _, c := range []players.Credential{whiteCred, blackCred, bothCred, otherCred} {
		h := c.Hash()
		if err := e.store.AddPlayer(e.ctx, players.Player{ID: h, Created: epoch}, players.Issued{Hash: h, Player: h, Kind: players.Cookie, Created: epoch}); err != nil {
			e.t.Fatal(err)
		}
	}
}

// scene is a game in some state: built afresh for each action tried.
type scene struct {
	name    string
	mode    games.Mode
	plies   []string
	end     string // "resign": White resigns after the plies; "draw": a draw agreed
	bot     rules.Color
	offers  games.Offers
	free    bool // Black's seat is free
	viewers []players.Credential
}

// mateByBan ends in checkmate by ban: White wins.
var mateByBan = []string{
	"b:d2d4", "m:e2e4", "b:d7d5", "m:e7e5", "b:g1f3", "m:f1c4", "b:a7a6", "m:b8c6",
	"b:d2d4", "m:d1h5", "b:a7a6", "m:g8f6", "b:a2a3", "m:c4f7", "b:e8e7",
}

var (
	hotSeat  = []players.Credential{bothCred, otherCred, ""}
	twoSeats = []players.Credential{whiteCred, blackCred, otherCred, ""}
	vsBot    = []players.Credential{whiteCred, otherCred, ""}
)

var scenes = []scene{
	{name: "hot seat, start", mode: games.HotSeat, viewers: hotSeat},
	{name: "hot seat, two plies", mode: games.HotSeat, plies: []string{"b:e2e4", "m:d2d4"}, viewers: hotSeat},
	{name: "hot seat, mate by ban", mode: games.HotSeat, plies: mateByBan, viewers: hotSeat},
	{name: "hot seat, resigned", mode: games.HotSeat, plies: []string{"b:e2e4", "m:d2d4"}, end: "resign", viewers: hotSeat},
	{name: "hot seat, draw agreed", mode: games.HotSeat, plies: []string{"b:e2e4"}, end: "draw", viewers: hotSeat},
	{name: "two players, a seat free", mode: games.Invite, free: true, viewers: twoSeats},
	{name: "two players, start", mode: games.Invite, viewers: twoSeats},
	{name: "two players, Black's ban", mode: games.Invite, plies: []string{"b:e2e4"}, viewers: twoSeats},
	{name: "two players, three plies", mode: games.Invite, plies: []string{"b:e2e4", "m:d2d4", "b:e7e5"}, viewers: twoSeats},
	{name: "two players, offers", mode: games.Invite, plies: []string{"b:e2e4", "m:d2d4", "b:e7e5"},
		offers: games.Offers{Takeback: rules.White, Draw: rules.Black}, viewers: twoSeats},
	{name: "two players, mate by ban, rematch offered", mode: games.Invite, plies: mateByBan,
		offers: games.Offers{Rematch: rules.White}, viewers: twoSeats},
	{name: "two players, resigned", mode: games.Invite, plies: []string{"b:e2e4", "m:d2d4"}, end: "resign", viewers: twoSeats},
	{name: "computer, it acts first", mode: games.BotGame, bot: rules.Black, viewers: vsBot},
	{name: "computer, the player to move", mode: games.BotGame, bot: rules.Black, plies: []string{"b:e2e4"}, viewers: vsBot},
	{name: "computer, it is to move", mode: games.BotGame, bot: rules.Black, plies: []string{"b:e2e4", "m:d2d4", "b:e7e5"}, viewers: vsBot},
	{name: "computer, the player resigned", mode: games.BotGame, bot: rules.Black, plies: []string{"b:e2e4", "m:d2d4"}, end: "resign", viewers: vsBot},
	{name: "computer, the player acts first", mode: games.BotGame, bot: rules.White, viewers: []players.Credential{blackCred, otherCred}},
}

// build stores the scene's game and returns its id.
func (sc scene) build(e *env) string {
	e.t.Helper()
	issueScenes(e)
	g, err := rules.Replay(rules.BanChess{}, "", sc.plies)
	if err != nil {
		e.t.Fatal(err)
	}
	switch sc.end {
	case "resign":
		err = g.Resign(rules.White)
	case "draw":
		err = g.AgreeDraw()
	}
	if err != nil {
		e.t.Fatal(err)
	}
	rec := &games.Record{Game: g, Mode: sc.mode, Created: epoch, Updated: epoch, Revision: 1}
	switch sc.mode {
	case games.HotSeat:
		rec.White, rec.Black = bothCred.Hash(), bothCred.Hash()
	case games.Invite:
		rec.White, rec.InviteCode, rec.Offers = whiteCred.Hash(), "the-invite-code", sc.offers
		if !sc.free {
			rec.Black = blackCred.Hash()
		}
	case games.BotGame:
		rec.Bot = &games.Bot{Color: sc.bot, Level: 2}
		rec.White, rec.Black = whiteCred.Hash(), "engine:2"
		if sc.bot == rules.White {
			rec.White, rec.Black = "engine:2", blackCred.Hash()
		}
	}
	if err := e.store.Create(e.ctx, rec); err != nil {
		e.t.Fatal(err)
	}
	return rec.ID
}

// action is one thing a viewer may try, and whether the permissions
// allow it (ok false: they say nothing of it here).
type action struct {
	name string
	// never says no permission allows it: the scenes try it only to be
	// refused.
	never bool
	// allowed reads the permissions; ok false skips the action.
	allowed func(p games.Permissions, cred players.Credential) (allowed, ok bool)
	// try does it through the service and reports whether it was
	// accepted (took effect, for a join).
	try func(e *env, id string, cred players.Credential, p games.Permissions) (bool, error)
}

func always(f func(p games.Permissions) bool) func(games.Permissions, players.Credential) (bool, bool) {
	return func(p games.Permissions, _ players.Credential) (bool, bool) { return f(p), true }
}

var actions = []action{
	{"play", false, always(func(p games.Permissions) bool { return p.Play }), func(e *env, id string, cred players.Credential, _ games.Permissions) (bool, error) {
		in := games.Input{Text: "e2e4"}
		err := e.svc.View(e.ctx, id, "", func(rec *games.Record, _ games.Seats) {
			in.Ply = rec.Game.Ply()
			if legal := rec.Game.Legal(); len(legal) > 0 {
				in.Text = legal[0].String()
			}
		})
		if err != nil {
			return false, err
		}
		err = e.svc.Play(e.ctx, id, cred, in, nil)
		return err == nil, err
	}},
	{"undo", false, always(func(p games.Permissions) bool { return p.Undo }), func(e *env, id string, cred players.Credential, _ games.Permissions) (bool, error) {
		_, err := e.svc.Undo(e.ctx, id, cred, nil)
		return err == nil, err
	}},
	{"resign as Side", false, func(p games.Permissions, _ players.Credential) (bool, bool) { return p.Resign, p.Side != 0 },
		func(e *env, id string, cred players.Credential, p games.Permissions) (bool, error) {
			err := e.svc.Resign(e.ctx, id, cred, p.Side, nil)
			return err == nil, err
		}},
	{"resign for a seat not held", true, func(p games.Permissions, _ players.Credential) (bool, bool) { return false, !p.Seats.Both() },
		func(e *env, id string, cred players.Credential, p games.Permissions) (bool, error) {
			side := rules.White
			if p.Seats.White {
				side = rules.Black
			}
			err := e.svc.Resign(e.ctx, id, cred, side, nil)
			return err == nil, err
		}},
	{"draw", false, always(func(p games.Permissions) bool { return p.Draw }), func(e *env, id string, cred players.Credential, _ games.Permissions) (bool, error) {
		err := e.svc.Draw(e.ctx, id, cred, nil)
		return err == nil, err
	}},
	{"abort", false, always(func(p games.Permissions) bool { return p.Abort }), func(e *env, id string, cred players.Credential, _ games.Permissions) (bool, error) {
		err := e.svc.Abort(e.ctx, id, cred, nil)
		return err == nil, err
	}},
	offerAction(games.OfferTakeback), offerAction(games.OfferDraw), offerAction(games.OfferRematch),
	answerAction(games.OfferTakeback, true), answerAction(games.OfferDraw, true), answerAction(games.OfferRematch, true),
	answerAction(games.OfferTakeback, false), answerAction(games.OfferDraw, false), answerAction(games.OfferRematch, false),
	// A join takes a credential, which a page makes for a browser
	// without one before it joins: the permission assumes one.
	{"join", false, func(p games.Permissions, cred players.Credential) (bool, bool) { return p.Join, cred != "" },
		func(e *env, id string, cred players.Credential, p games.Permissions) (bool, error) {
			rec, _ := e.record(id)
			seats, err := e.svc.Join(e.ctx, id, cred, rec.InviteCode)
			return err == nil && seats != p.Seats, err
		}},
	{"hide", false, always(func(p games.Permissions) bool { return p.Hide }), func(e *env, id string, cred players.Credential, _ games.Permissions) (bool, error) {
		err := e.svc.Hide(e.ctx, id, cred)
		return err == nil, err
	}},
	// The analysis of the game's start position, which every scene has
	// played on from (so only the lock can refuse it).
	{"analyse", false, always(func(p games.Permissions) bool { return p.Analyse }), func(e *env, id string, _ players.Credential, _ games.Permissions) (bool, error) {
		_, err := e.svc.analysis.AnalyseGame(e.ctx, id, analysis.Request{Ply: 1})
		return err == nil, err
	}},
}

func offerAction(o games.Offer) action {
	return action{"offer " + string(o), false, always(func(p games.Permissions) bool { return p.Offer.Has(o) }),
		func(e *env, id string, cred players.Credential, _ games.Permissions) (bool, error) {
			err := e.svc.MakeOffer(e.ctx, id, cred, o, nil)
			return err == nil, err
		}}
}

func answerAction(o games.Offer, accept bool) action {
	name := "decline " + string(o)
	if accept {
		name = "accept " + string(o)
	}
	return action{name, false, always(func(p games.Permissions) bool { return p.Answer.Has(o) }),
		func(e *env, id string, cred players.Credential, _ games.Permissions) (bool, error) {
			err := e.svc.AnswerOffer(e.ctx, id, cred, o, accept, nil)
			return err == nil, err
		}}
}

// TestPermissionsAreWhatTheServiceAccepts: over game states × viewers,
// every action the viewer's Permissions allow is accepted by the service,
// and every one they deny is refused.
func TestPermissionsAreWhatTheServiceAccepts(t *testing.T) {
	e := newEnv(t, games.WithComputer(computer.New(quietEngine{})))
	e.svc.analysis = analysis.New(e.svc, e.svc.Loader(), nil, quietEngine{})
	t.Cleanup(e.svc.Close)
	issueScenes(e)
	e.create(otherCred) // a player of another game: a spectator here
	names := map[players.Credential]string{whiteCred: "White", blackCred: "Black", bothCred: "both seats", otherCred: "a spectator", "": "no credential"}
	allowedSomewhere, deniedSomewhere := map[string]bool{}, map[string]bool{}
	for _, sc := range scenes {
		for _, cred := range sc.viewers {
			var p games.Permissions
			if err := e.svc.View(e.ctx, sc.build(e), cred, func(rec *games.Record, seats games.Seats) { p = rec.Permissions(seats) }); err != nil {
				t.Fatal(err)
			}
			for _, a := range actions {
				want, ok := a.allowed(p, cred)
				if !ok {
					continue
				}
				got, err := a.try(e, sc.build(e), cred, p)
				if got != want {
					t.Errorf("%s, %s: %s is allowed %v by %+v, but the service accepted it %v (%v)", sc.name, names[cred], a.name, want, p, got, err)
				}
				if want {
					allowedSomewhere[a.name] = true
				} else {
					deniedSomewhere[a.name] = true
				}
			}
		}
	}
	for _, a := range actions {
		if allowedSomewhere[a.name] == a.never || !deniedSomewhere[a.name] {
			t.Errorf("%s: allowed in some scene %v, denied in some %v: the scenes do not try it both ways", a.name, allowedSomewhere[a.name], deniedSomewhere[a.name])
		}
	}
}

// TestPermissionsOfAViewer checks a few permissions in words: what each
// viewer of a game between two players may do as it goes.
func TestPermissionsOfAViewer(t *testing.T) {
	e := newEnv(t)
	perm := func(id string, cred players.Credential) games.Permissions {
		t.Helper()
		var p games.Permissions
		if err := e.svc.View(e.ctx, id, cred, func(rec *games.Record, seats games.Seats) { p = rec.Permissions(seats) }); err != nil {
			t.Fatal(err)
		}
		return p
	}
	id := scene{mode: games.Invite, plies: []string{"b:e2e4"}}.build(e)
	white, black, other := perm(id, whiteCred), perm(id, blackCred), perm(id, otherCred)
	switch {
	case white.Side != rules.White || !white.Play || white.Offer.Takeback || white.Offer.Draw || white.Resign || !white.Abort || white.Undo || white.Analyse:
		t.Errorf("White, to move, has played nothing (so it may abort, not resign or offer a draw): %+v", white)
	case black.Side != rules.Black || black.Play || black.Offer.Takeback || black.Offer.Draw || black.Resign || !black.Abort:
		t.Errorf("Black, who banned, waits (and has no move to take back, and White has not acted): %+v", black)
	case other.Side != 0 || other.Play || other.Resign || other.Offer != (games.OfferSet{}) || other.Join || other.Hide:
		t.Errorf("a spectator: %+v", other)
	}
	id = scene{mode: games.Invite, plies: []string{"b:e2e4", "m:d2d4"}}.build(e)
	if white, black := perm(id, whiteCred), perm(id, blackCred); !white.Resign || !white.Offer.Draw || white.Abort || !black.Resign || !black.Offer.Draw || black.Abort {
		t.Errorf("once each side has acted, each may resign or offer a draw, not abort: White %+v, Black %+v", white, black)
	}
	hot := scene{mode: games.HotSeat, plies: []string{"b:e2e4"}}.build(e)
	if p := perm(hot, bothCred); p.Side != rules.White || !p.Play || !p.Undo || !p.Draw || !p.Resign || !p.Analyse || p.Offer.Draw {
		t.Errorf("the hot-seat player, White to move: %+v", p)
	}
}
