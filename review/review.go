// Package review reviews a whole game as lichess's computer analysis does,
// for Ban Chess: every ply (bans included) evaluated by the engine at a
// fixed budget, each action classed by the winning chances it lost, the
// mates by ban a move missed or an action allowed (proved by playing the
// moves through the rules, not read from scores), and an accuracy per
// side. It computes only: running it in the background, storing and
// serving the result is package games' job.
package review

import (
	"slices"

	"github.com/banchess/banchess/rules"
)

// Class is what an action cost its side, by the winning chances (on
// lichess's curve, from −1 to 1) it lost against the evaluation before it.
type Class string

// The classes, with lichess's thresholds.
const (
	Best       Class = "best"       // lost less than 0.1
	Inaccuracy Class = "inaccuracy" // lost 0.1 or more
	Mistake    Class = "mistake"    // lost 0.2 or more
	Blunder    Class = "blunder"    // lost 0.3 or more
)

// classOf classes a loss of winning chances.
func classOf(loss float64) Class {
	switch {
	case loss >= 0.3:
		return Blunder
	case loss >= 0.2:
		return Mistake
	case loss >= 0.1:
		return Inaccuracy
	}
	return Best
}

// NAG returns the PGN annotation glyph of the class: $6 (?!), $2 (?) or
// $4 (??); "" for Best.
func (c Class) NAG() string {
	switch c {
	case Inaccuracy:
		return "$6"
	case Mistake:
		return "$2"
	case Blunder:
		return "$4"
	}
	return ""
}

// Label marks a mate an action missed or allowed.
type Label string

// The labels. Those by ban are proved by playing the moves through the
// rules; MissedMate and AllowedMate rest on the engine's search and are
// given only where no label by ban says it already.
const (
	// MissedMateByBan marks a move played when another would have left
	// the opponent in check with a single legal pair, so that the mover's
	// own next ban mated. (A mate by ban is never missed at the ban: with
	// one pair left, banning it is the only legal ban.)
	MissedMateByBan Label = "missedMateByBan"
	// AllowedMateByBan marks an action after which the opponent has such
	// a move: a ban that did not ban it (when one ban could stop it), or
	// a move after which no single ban can (two pairs or more do it).
	AllowedMateByBan Label = "allowedMateByBan"
	// MissedMate marks an action after which its side no longer has the
	// forced mate the engine found before it.
	MissedMate Label = "missedMate"
	// AllowedMate marks an action after which the opponent has a forced
	// mate it did not have before.
	AllowedMate Label = "allowedMate"
)

// Ply is the review of one action.
type Ply struct {
	Ply    int    `json:"ply"`    // as the game counts them: the first ply of a new game is 1
	Color  string `json:"color"`  // the side that acted: "white" or "black"
	Action string `json:"action"` // BCN
	Before Eval   `json:"before"` // the evaluation before the action, White's side
	Eval   Eval   `json:"eval"`   // and after it
	// Best is the engine's best action where this one was played, and Line
	// the line it expected, Best first (BCN).
	Best   string   `json:"best"`
	Line   []string `json:"line,omitempty"`
	Class  Class    `json:"class"`
	Labels []Label  `json:"labels"`
}

// Side sums up one side's actions.
type Side struct {
	// Accuracy is lichess's game accuracy, from 0 to 100; nil when the
	// side has no action reviewed.
	Accuracy *float64 `json:"accuracy"`
	Actions  int      `json:"actions"`
	// The actions of each class.
	Best         int `json:"best"`
	Inaccuracies int `json:"inaccuracies"`
	Mistakes     int `json:"mistakes"`
	Blunders     int `json:"blunders"`
	// The actions of each label.
	MissedMatesByBan  int `json:"missedMatesByBan"`
	AllowedMatesByBan int `json:"allowedMatesByBan"`
	MissedMates       int `json:"missedMates"`
	AllowedMates      int `json:"allowedMates"`
}

// Review is a game's review: its plies, and each side's summary.
type Review struct {
	Plies []Ply `json:"plies"`
	White Side  `json:"white"`
	Black Side  `json:"black"`
}

// Build reviews the plies of g that positions cover: positions[i] is the
// position before g's ply i (counted from its start) and positions[i+1]
// the one after, as Run returns them. With fewer positions than g has
// plies plus one, it reviews the plies evaluated so far.
func Build(g *rules.Game, positions []Position) Review {
	hist := g.Record().History()
	n := max(0, min(len(hist), len(positions)-1))
	r := Review{Plies: make([]Ply, 0, n)}
	actors := make([]rules.Color, n)
	for i, h := range hist[:n] {
		before, after := positions[i], positions[i+1]
		p := Ply{
			Ply: h.Ply, Color: h.Actor.String(), Action: h.Action.String(),
			Before: before.Eval, Eval: after.Eval, Best: before.Best, Line: before.Line,
			Class:  classOf(before.Eval.For(h.Actor) - after.Eval.For(h.Actor)),
			Labels: labels(h, before, after),
		}
		r.Plies = append(r.Plies, p)
		actors[i] = h.Actor
		r.side(h.Actor).count(p)
	}
	white, black := accuracy(positions[:n+min(1, len(positions))], actors)
	r.White.Accuracy, r.Black.Accuracy = white, black
	return r
}

// EvalNote is the PGN comment command that gives the evaluation after
// the first n plies of the game (counted from its start): "[%eval 0.35]",
// "[%eval #-3]" (plies to mate); "" where there is none, as after a
// mate. It fits rules.PGNNotes' Comment.
func (r Review) EvalNote(n int) string {
	if n < 1 || n > len(r.Plies) || r.Plies[n-1].Eval.Result != "" {
		return ""
	}
	return "[%eval " + r.Plies[n-1].Eval.String() + "]"
}

// NAGs returns the NAG of ply n's class (counted from the game's start):
// $6, $2 or $4; none for a best action. It fits rules.PGNNotes' NAGs.
func (r Review) NAGs(n int) []rules.NAG {
	if n < 1 || n > len(r.Plies) {
		return nil
	}
	nag, err := rules.ParseNAG(r.Plies[n-1].Class.NAG())
	if err != nil { // Best has none
		return nil
	}
	return []rules.NAG{nag}
}

// side returns the summary of c.
func (r *Review) side(c rules.Color) *Side {
	if c == rules.White {
		return &r.White
	}
	return &r.Black
}

// count adds p to the summary.
func (s *Side) count(p Ply) {
	s.Actions++
	switch p.Class {
	case Best:
		s.Best++
	case Inaccuracy:
		s.Inaccuracies++
	case Mistake:
		s.Mistakes++
	case Blunder:
		s.Blunders++
	}
	for _, l := range p.Labels {
		switch l {
		case MissedMateByBan:
			s.MissedMatesByBan++
		case AllowedMateByBan:
			s.AllowedMatesByBan++
		case MissedMate:
			s.MissedMates++
		case AllowedMate:
			s.AllowedMates++
		}
	}
}

// labels finds the labels of ply h, played between before and after.
func labels(h rules.PlyInfo, before, after Position) []Label {
	out := []Label{}
	played := h.Action.String()
	var missedByBan, allowedByBan bool
	if h.Action.Phase == rules.PhaseMove {
		// Another move would have mated by the mover's next ban.
		missedByBan = len(before.BanMates) > 0 && !slices.Contains(before.BanMates, played) && !slices.Contains(before.Mates, played)
		// Now at the mover's own ban: no single ban stops the opponent's.
		allowedByBan = pairs(after.BanMates) >= 2
	} else {
		// One ban would have stopped it, and the opponent still has it.
		allowedByBan = pairs(before.BanMates) == 1 && len(after.BanMates) > 0
	}
	opp := h.Actor.Other()
	switch {
	case missedByBan:
		out = append(out, MissedMateByBan)
	case before.Eval.mates(h.Actor) && !after.Eval.mates(h.Actor):
		out = append(out, MissedMate)
	}
	switch {
	case allowedByBan:
		out = append(out, AllowedMateByBan)
	case after.Eval.mates(opp) && !before.Eval.mates(opp):
		out = append(out, AllowedMate)
	}
	return out
}
