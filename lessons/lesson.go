// Package lessons holds the interactive lessons of /learn: short series of
// positions in which the learner finds a ban or a move on the board, each
// with a sentence before it and feedback after. Every step's answer is
// judged by the rules (a Goal), never by a list alone, and a test replays
// every step: the answers it names reach its goal, the mistakes it names
// do not and get their own feedback.
package lessons

import (
	"fmt"
	"strings"

	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// Lesson is one lesson: a title, what it teaches, and its steps in order.
type Lesson struct {
	// ID names the lesson in addresses (/learn/{ID}) and in the progress
	// a learner keeps.
	ID      string
	Title   i18n.Message
	Summary i18n.Message // one sentence: what the lesson teaches
	Steps   []Step
}

// Step is one position of a lesson and the task in it.
type Step struct {
	// FEN is the position (extended FEN: the ply says whether the learner
	// bans or moves, and which ban is in force).
	FEN string
	// Before are actions (BCN) played from FEN before the learner acts,
	// shown as what happened (a repetition needs them); usually none.
	Before []string
	// Prompt is the explanation and the task, shown before.
	Prompt i18n.Message
	// Goal decides what is right.
	Goal Goal
	// Answers are the actions (BCN) that reach the goal: all of them,
	// unless Many says they are examples among more.
	Answers []string
	Many    bool
	// Right explains, after a right answer, why it is right.
	Right i18n.Message
	// Mistakes are wrong actions with their own feedback: why not.
	Mistakes []Mistake
}

// Mistake is a wrong action and why it is wrong.
type Mistake struct {
	Action string // BCN
	Why    i18n.Message
}

// Start returns a game at the step's position: FEN, then Before played.
func (s Step) Start() (*rules.Game, error) {
	g, err := rules.FromFEN(s.FEN, rules.BanChess{})
	if err != nil {
		return nil, err
	}
	for i, a := range s.Before {
		if err := g.PlayText(a); err != nil {
			return nil, fmt.Errorf("action %d before the step, %s: %w", i+1, a, err)
		}
	}
	return g, nil
}

// Verdict is the judgement of one action at a step.
type Verdict struct {
	Right bool
	// Played names the action as a player reads it: "Ra8+", "the ban of
	// g8–h7".
	Played i18n.Message
	// Text is the feedback: why it is right, or why not.
	Text i18n.Message
	// After is the game after the action (nil when it was refused by the
	// rules).
	After *rules.Game
}

// Judge judges action a, played by the learner at the step.
func (s Step) Judge(a rules.Action) (Verdict, error) {
	g, err := s.Start()
	if err != nil {
		return Verdict{}, err
	}
	v := Verdict{Played: Name(g, a)}
	if err := g.Play(a); err != nil {
		return v, err
	}
	g.Undo()
	ok, why := s.Goal.Check(g, a)
	for _, m := range s.Mistakes {
		if m.Action == a.String() {
			ok, why = false, m.Why
		}
	}
	if ok {
		v.Right, v.Text = true, s.Right
	} else {
		v.Text = why
	}
	g.Play(a)
	v.After = g
	return v, nil
}

// Name names action a at g as a player reads it: a move in SAN ("Nf3"),
// a ban by its squares ("the ban of e2–e4").
func Name(g *rules.Game, a rules.Action) i18n.Message {
	if a.Phase == rules.PhaseBan {
		return BanOf(a.Pair())
	}
	if san, err := g.Notation().MoveSAN(a); err == nil {
		return i18n.Move(san)
	}
	return i18n.Verbatim(a.Coords())
}

// BanOf names the ban of pair p: "the ban of e2–e4".
func BanOf(p rules.Pair) i18n.Message { return i18n.Msg("lesson.banOf", "Pair", Pair(p)) }

// Pair writes a pair of squares as the pages do: "e2–e4".
func Pair(p rules.Pair) string { return p.From.String() + "–" + p.To.String() }

// list joins names: "a", "a and b", "a, b and c".
func list(names []string) i18n.Message {
	switch len(names) {
	case 0:
		return i18n.Verbatim("")
	case 1:
		return i18n.Verbatim(names[0])
	}
	return i18n.Msg("lesson.list", "Names", strings.Join(names[:len(names)-1], ", "), "Last", names[len(names)-1])
}

// ByID returns the lesson with this id.
func ByID(id string) (Lesson, bool) {
	for _, l := range All() {
		if l.ID == id {
			return l, true
		}
	}
	return Lesson{}, false
}
