package views

import (
	"fmt"
	"strconv"
)

// LearnPath is the address of step n (from 0) of lesson id, or of the
// lesson (n < 0): "/learn/pairs/2".
func LearnPath(id string, n int) string {
	if n < 0 {
		return "/learn/" + id
	}
	return "/learn/" + id + "/" + strconv.Itoa(n+1)
}

// LessonList is /learn: the lessons, each with the viewer's progress.
type LessonList struct {
	Site    Site
	Lessons []LessonLink
	// Rating is the viewer's puzzle rating ("1500?").
	Rating string
}

// LessonLink is one lesson as /learn lists it.
type LessonLink struct {
	URL, Title, Summary string
	Done, Steps         int // steps done, steps in all
}

// Progress says how far the viewer is: "2 of 4 steps", "Done".
func (l LessonLink) Progress() string {
	if l.Done == l.Steps {
		return "Done"
	}
	return fmt.Sprintf("%d of %d steps", l.Done, l.Steps)
}

// LessonStep is one step of a lesson: its board, what it asks, and the
// feedback on the learner's answer.
type LessonStep struct {
	Board   Game
	Lesson  string // the lesson's title
	Summary string
	Index   int // the step, from 0
	Prompt  string
	// Steps are the lesson's steps, for the list beside the board.
	Steps []StepLink
	// Feedback is the judgement of the answer just given; nil before one.
	Feedback *Feedback
	// Next leads on after a right answer: the next step, or the lessons
	// when this was the last; Retry shows the step again.
	Next, NextLabel, Retry string
}

// StepLink is one step in a lesson's list of steps.
type StepLink struct {
	URL     string
	Done    bool
	Current bool
}

// Feedback is what the learner is told of an answer.
type Feedback struct {
	Right  bool
	Played string // "Ra8+", "the ban of e2–e4"
	Text   string
}

// Title is the tab's title.
func (s LessonStep) Title() string {
	return fmt.Sprintf("%s · step %d of %d · Learn Ban Chess", s.Lesson, s.Index+1, len(s.Steps))
}

// Heading is the step's heading: "Step 2 of 4".
func (s LessonStep) Heading() string { return fmt.Sprintf("Step %d of %d", s.Index+1, len(s.Steps)) }

// stepLabel names step i of n in the list: "Step 2, done".
func stepLabel(i int, l StepLink) string {
	label := "Step " + strconv.Itoa(i+1)
	if l.Done {
		label += ", done"
	}
	return label
}
