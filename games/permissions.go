package games

import (
	"errors"

	"github.com/banchess/banchess/players"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/rules"
)

// Permissions are what one viewer may do at one game now, as the pages
// show it. They are worked out by the rules the service's actions are
// decided by (Record.Permissions and the actions call the same may…
// rules), so a page offers exactly what the service accepts; an action
// may still refuse its input (an illegal ply, an unknown side).
type Permissions struct {
	// Seats are the seats the viewer holds; none is a spectator.
	Seats Seats
	// Side is the side the viewer plays now: their seat, or, holding
	// both (a hot-seat game), the side to act; no Color for a spectator.
	Side rules.Color
	// Play: the viewer may play the ban or move the game asks for now,
	// as Side (Service.Play).
	Play bool
	// Undo: the viewer may take back at once (Service.Undo): holding both
	// seats, the last ply or a declared ending; against the computer,
	// their last ply and the computer's since, or their resignation.
	Undo bool
	// Resign: the viewer may resign for Side (Service.Resign); at a game
	// between two players, once each side has made its first action
	// (before, it can be aborted: Abort).
	Resign bool
	// Draw: the viewer may agree a draw at once, holding both seats
	// (Service.Draw).
	Draw bool
	// Offer are the offers the viewer may make at a game between two
	// players (Service.MakeOffer: making the offer the opponent made
	// accepts it, making one's own again changes nothing); Answer, the
	// opponent's offers the viewer may accept or decline
	// (Service.AnswerOffer).
	Offer, Answer OfferSet
	// Abort: the viewer may call the game off, with no result
	// (Service.Abort): a player of a game between two players, until each
	// side has made its first action.
	Abort bool
	// Join: the viewer may take the free seat with the game's invite code
	// (Service.Join).
	Join bool
	// Hide: the viewer may remove the game from their list (Service.Hide).
	Hide bool
	// Analyse: the engine may analyse and review the game now, for any
	// viewer (Service.AnalyseGame, Service.RequestReview): not a game
	// between two players until it ends.
	Analyse bool
}

// OfferSet says, of each kind of offer, whether it is in the set.
type OfferSet struct{ Takeback, Draw, Rematch bool }

// Has reports whether the set holds o.
func (s OfferSet) Has(o Offer) bool {
	switch o {
	case OfferTakeback:
		return s.Takeback
	case OfferDraw:
		return s.Draw
	case OfferRematch:
		return s.Rematch
	}
	return false
}

// offers are the kinds of offer, for walking an OfferSet.
var offers = [...]Offer{OfferTakeback, OfferDraw, OfferRematch}

func (s *OfferSet) add(o Offer) {
	switch o {
	case OfferTakeback:
		s.Takeback = true
	case OfferDraw:
		s.Draw = true
	case OfferRematch:
		s.Rematch = true
	}
}

// Permissions says what the holder of seats may do at the game now. Call
// it with the game's lock held (in a ViewFunc).
func (r *Record) Permissions(seats Seats) Permissions {
	p := Permissions{
		Seats:   seats,
		Side:    r.sideOf(seats),
		Play:    r.mayPlay(seats, 0) == nil,
		Undo:    r.mayUndo(seats) == nil,
		Draw:    r.mayDraw(seats) == nil,
		Abort:   r.mayAbort(seats) == nil,
		Join:    r.mayJoin(seats, r.InviteCode) == nil,
		Hide:    r.mayHide(seats) == nil,
		Analyse: r.mayAnalyse() == nil,
	}
	p.Resign = p.Side != 0 && r.mayResign(seats, p.Side) == nil
	if r.Mode == Invite {
		for _, o := range offers {
			if r.mayOffer(seats, o) == nil {
				p.Offer.add(o)
			}
			if r.mayAnswer(seats, o) == nil {
				p.Answer.add(o)
			}
		}
	}
	return p
}

// sideOf is the side the holder of seats plays now (Permissions.Side).
func (r *Record) sideOf(seats Seats) rules.Color {
	switch {
	case seats.Both():
		return r.Game.Turn().Actor
	case seats.White:
		return rules.White
	case seats.Black:
		return rules.Black
	}
	return 0
}

// The may… rules below decide each action for the holder of seats: nil
// when it may, else why not — an *Error, or a notSeated, which the
// service words for the credential (Service.refuse).

// notSeated refuses an action for want of a seat: the seat it needs and
// what it is, judged by the seats held.
type notSeated struct {
	what string
	need rules.Color
	held Seats
}

func (n *notSeated) Error() string { return "it takes " + n.need.Name() + "'s seat to " + n.what }

// needSeats refuses what unless seats hold each of need.
func needSeats(seats Seats, what string, need ...rules.Color) error {
	for _, side := range need {
		if !seats.Has(side) {
			return &notSeated{what: what, need: side, held: seats}
		}
	}
	return nil
}

// notOver refuses an action on a game that has ended.
func notOver(g *rules.Game) error {
	if out := g.Outcome(); out.Over() {
		return &errs.Error{Code: errs.GameOver, Msg: errs.Sentence("the game is over: " + out.String())}
	}
	return nil
}

// mayPlay decides the ban or move the game asks for now, from a client
// that saw ply seen (0: it does not say). A ply the viewer's side played
// already, sent again (a retry whose answer was lost), is out of date
// (Conflict, as any stale ply), not out of turn: the client learns from
// the game it was played.
func (r *Record) mayPlay(seats Seats, seen int) error {
	g := r.Game
	if err := needSeats(seats, "play", g.Turn().Actor); err != nil {
		if seats.Has(actorOf(g, seen)) {
			return checkPly(g, seen)
		}
		return err
	}
	if err := checkPly(g, seen); err != nil {
		return err
	}
	return notOver(g)
}

// mayUndo decides taking back at once: holding both seats, the last ply
// or a declared ending; against the computer, its player's last ply.
func (r *Record) mayUndo(seats Seats) error {
	g := r.Game
	out := g.Outcome()
	if r.Bot != nil {
		human := r.Bot.Color.Other()
		switch {
		case !seats.Has(human):
			return errs.Errorf(errs.Forbidden, "You are watching this game: only its player can take back a ply.")
		case declared(out):
			return nil
		case lastPlyBy(g, human) < 0:
			return errs.Errorf(errs.Conflict, "You have played nothing to take back.")
		}
		return nil
	}
	if err := needSeats(seats, "take back a ply", rules.White, rules.Black); err != nil {
		return err
	}
	if g.Ply() == g.StartPly() && !declared(out) {
		return errs.Of(rules.ErrNothingToUndo)
	}
	return nil
}

// declared reports whether o is an ending declared rather than played
// (a resignation, an agreed draw, a flag fall), which an undo takes back
// alone.
func declared(o rules.Outcome) bool {
	return o.Reason == rules.Resignation || o.Reason == rules.Agreement || o.Reason == rules.Timeout
}

// mayResign decides side's resignation: at a game between two players,
// once each side has made its first action (before, it is aborted, with
// no result).
func (r *Record) mayResign(seats Seats, side rules.Color) error {
	if err := needSeats(seats, "resign for "+side.Name(), side); err != nil {
		return err
	}
	if err := notOver(r.Game); err != nil {
		return err
	}
	if r.Mode == Invite && !opened(r.Game) {
		return tooEarly("resigned")
	}
	return nil
}

// tooEarly refuses to end a game between two players with a result
// (what: "resigned", "drawn") before each side has made its first
// action: it can only be aborted then, with no result, as on lichess.
func tooEarly(what string) *errs.Error {
	return errs.Errorf(errs.Conflict, "A side has yet to make its first action, so the game cannot be %s yet: abort it instead (it ends with no result, and no rating changes).", what).WithDetail(errs.TooEarly)
}

// mayDraw decides a draw agreed at once, by the holder of both seats.
func (r *Record) mayDraw(seats Seats) error {
	if err := needSeats(seats, "agree a draw", rules.White, rules.Black); err != nil {
		return err
	}
	return notOver(r.Game)
}

// mayAbort decides calling the game off: at a game between two players,
// by either of them, until each side has made its first action.
func (r *Record) mayAbort(seats Seats) error {
	if r.Mode != Invite {
		return (&errs.Error{Code: errs.Invalid, Msg: "Only a game between two players can be aborted: start a new game instead."}).WithDetail(errs.NotInvite)
	}
	if _, err := r.tableSide(seats, "abort the game"); err != nil {
		return err
	}
	if err := notOver(r.Game); err != nil {
		return err
	}
	if opened(r.Game) {
		return (&errs.Error{Code: errs.Conflict, Msg: "Both sides have played, so the game can no longer be aborted: resign or offer a draw instead."}).WithDetail(errs.TooLateToAbort)
	}
	return nil
}

// opened reports whether each side has made its first action in g.
func opened(g *rules.Game) bool {
	return lastPlyBy(g, rules.White) >= 0 && lastPlyBy(g, rules.Black) >= 0
}

// tableSide is the one seat the holder of seats plays at a game between
// two players, to do what.
func (r *Record) tableSide(seats Seats, what string) (rules.Color, error) {
	if r.Mode != Invite {
		return 0, (&errs.Error{Code: errs.Invalid, Msg: "Offers are for games between two players: at this board, play both sides."}).WithDetail(errs.NotInvite)
	}
	switch {
	case seats.White && !seats.Black:
		return rules.White, nil
	case seats.Black && !seats.White:
		return rules.Black, nil
	}
	return 0, &notSeated{what: what, need: rules.White}
}

// mayOffer decides making offer o: accepting the opponent's, when they
// made it; nothing to do when the viewer made it already.
func (r *Record) mayOffer(seats Seats, o Offer) error {
	side, err := r.tableSide(seats, "make offers")
	if err != nil {
		return err
	}
	switch *o.pending(&r.Offers) {
	case side.Other():
		return r.mayAccept(o)
	case side:
		return nil
	}
	g := r.Game
	over := g.Outcome().Over()
	switch {
	case o == OfferRematch && !over:
		return errs.Errorf(errs.Conflict, "A rematch can be offered once the game is over.")
	case o != OfferRematch && over:
		return errs.Errorf(errs.GameOver, "The game is over: %s.", g.Outcome())
	case o == OfferTakeback && lastMoveBy(g, side) < 0:
		return errs.Errorf(errs.Conflict, "You have made no move yet, so there is nothing to take back.")
	case o == OfferDraw && !opened(g):
		return tooEarly("drawn")
	}
	return nil
}

// mayAnswer decides answering offer o, which the opponent must have made.
func (r *Record) mayAnswer(seats Seats, o Offer) error {
	side, err := r.tableSide(seats, "answer offers")
	if err != nil {
		return err
	}
	if *o.pending(&r.Offers) != side.Other() {
		return (&errs.Error{Code: errs.Conflict, Msg: errs.Sentence("there is no " + string(o) + " offer from your opponent to answer (it may have lapsed)")}).WithDetail(errs.NoOffer)
	}
	return nil
}

// mayAccept decides carrying out offer o, pending.
func (r *Record) mayAccept(o Offer) error {
	switch o {
	case OfferTakeback:
		if lastMoveBy(r.Game, r.Offers.Takeback) < 0 {
			return errs.Errorf(errs.Conflict, "There is nothing to take back.")
		}
	case OfferDraw:
		if err := notOver(r.Game); err != nil {
			return err
		}
		if !opened(r.Game) {
			return tooEarly("drawn")
		}
	}
	return nil
}

// mayJoin decides taking the free seat with code, by a viewer who holds
// none.
func (r *Record) mayJoin(seats Seats, code string) error {
	switch {
	case seats.Any():
		return r.alreadySeated(seats)
	case r.InviteCode == "" || !sameSecret(code, r.InviteCode):
		return (&errs.Error{Code: errs.Forbidden, Msg: "This invite link is not this game's: ask its player for the link again."}).WithDetail(errs.BadInvite)
	case r.White != "" && r.Black != "":
		return (&errs.Error{Code: errs.Conflict, Msg: "Both seats of this game are taken: you can watch it."}).WithDetail(errs.SeatTaken)
	}
	return nil
}

// alreadySeated refuses a join by the holder of seats, who holds one: the
// invite link is for their opponent.
func (r *Record) alreadySeated(seats Seats) *errs.Error {
	e := errs.Errorf(errs.Conflict, "You hold both seats of this game already.")
	if !seats.Both() {
		held, other := rules.White, r.Black
		if seats.Black {
			held, other = rules.Black, r.White
		}
		e = errs.Errorf(errs.Conflict, "You already hold %s in this game: both seats are taken.", held.Name())
		if other == "" {
			e = errs.Errorf(errs.Conflict, "You already hold %s in this game: send the invite link to your opponent, who takes %s with it.", held.Name(), held.Other().Name())
		}
	}
	return e.WithDetail(errs.AlreadySeated)
}

// mayHide decides removing the game from the viewer's list of games.
func (r *Record) mayHide(seats Seats) error {
	if !seats.Any() {
		return errs.Errorf(errs.Forbidden, "This game is not in your list of games.")
	}
	return nil
}

// mayAnalyse decides the engine's analysis and review of the game: a
// game between two players is locked until it ends, where its analysis
// would help one of them (hot-seat games, games against the computer and
// imported games are open to it).
func (r *Record) mayAnalyse() error {
	if r.Mode == Invite && !r.Game.Outcome().Over() {
		return analysisLocked()
	}
	return nil
}

// actorOf returns the side that played ply n of g, or no Color when g has
// not played ply n (0, a ply before its start, or one to come).
func actorOf(g *rules.Game, n int) rules.Color {
	if n < g.StartPly() || n >= g.Ply() {
		return 0
	}
	return g.Record().HistorySince(n - g.StartPly())[0].Actor
}

// lastPlyBy returns how many plies since the start come before side's last
// ply, or -1 when side played none. A side acts at least once in any three
// plies in a row, so its last ply is among the last four but at a game's
// start: only then is the whole history read.
func lastPlyBy(g *rules.Game, side rules.Color) int {
	return lastPly(g, func(p rules.PlyInfo) bool { return p.Actor == side })
}

// lastMoveBy is lastPlyBy for side's moves, bans left out: a side moves
// once in any four plies in a row.
func lastMoveBy(g *rules.Game, side rules.Color) int {
	return lastPly(g, func(p rules.PlyInfo) bool { return p.Actor == side && p.Action.Phase == rules.PhaseMove })
}

// lastPly returns how many plies since the start come before the last
// ply that is, or -1 when none is; it reads the last four plies, and the
// whole history only when none of them is.
func lastPly(g *rules.Game, is func(rules.PlyInfo) bool) int {
	from := max(0, g.Ply()-g.StartPly()-4)
	for {
		hist := g.Record().HistorySince(from)
		for i := len(hist) - 1; i >= 0; i-- {
			if is(hist[i]) {
				return from + i
			}
		}
		if from == 0 {
			return -1
		}
		from = 0
	}
}

// refuse words a may… rule's refusal for cred: a notSeated as
// Unauthorized when there is no credential, else Forbidden; any other as
// it is.
func refuse(cred players.Credential, err error) error {
	var ns *notSeated
	if !errors.As(err, &ns) {
		return err
	}
	switch {
	case ns.held.Any():
		return errs.Errorf(errs.Forbidden, "You hold %s's seat, not %s's, so you cannot %s.", ns.need.Other().Name(), ns.need.Name(), ns.what)
	case cred == "":
		return errs.Errorf(errs.Unauthorized, "Only this game's players can %s, and this request does not say who is asking.", ns.what)
	}
	// A credential the server did not issue is answered as one that holds
	// no seat here: the answer tells nothing of which credentials exist.
	return errs.Errorf(errs.Forbidden, "You are watching this game: only its players can %s.", ns.what)
}

// analysisLocked refuses the engine a game between two players that has
// not ended.
func analysisLocked() *errs.Error {
	return errs.Errorf(errs.Forbidden, "This game is between two players: its analysis opens when it ends.").WithDetail(errs.AnalysisLocked)
}
