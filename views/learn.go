package views

import (
	"strconv"

	"github.com/banchess/banchess/i18n"
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
	URL            string
	Title, Summary i18n.Message
	Done, Steps    int // steps done, steps in all
}

// progress says how far the viewer is: "2 of 4 steps", "Done".
func (l LessonLink) progress(lang *i18n.Language) string {
	if l.Done == l.Steps {
		return lang.T("lesson.progress.done")
	}
	return lang.N("lesson.progress", l.Steps, "Done", l.Done)
}

// LessonStep is one step of a lesson: its board, what it asks, and the
// feedback on the learner's answer.
type LessonStep struct {
	Board   Game
	Lesson  i18n.Message // the lesson's title
	Summary i18n.Message
	Index   int // the step, from 0
	Prompt  i18n.Message
	// Steps are the lesson's steps, for the list beside the board.
	Steps []StepLink
	// Feedback is the judgement of the answer just given; nil before one.
	Feedback *Feedback
	// Next leads on after a right answer: the next step, or the lessons
	// when this was the last (Last); Retry shows the step again.
	Next, Retry string
	Last        bool
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
	Played i18n.Message // "Ra8+", "the ban of e2–e4"
	Text   i18n.Message
}

// title is the tab's title: "Checkmate by a ban · step 2 of 4 · Learn
// Ban Chess".
func (s LessonStep) title(l *i18n.Language) string {
	return l.N("lesson.step.title", len(s.Steps), "Lesson", l.Say(s.Lesson), "N", s.Index+1)
}

// heading is the step's heading: "Step 2 of 4".
func (s LessonStep) heading(l *i18n.Language) string {
	return l.N("lesson.step.heading", len(s.Steps), "N", s.Index+1)
}

// stepLabel names step i in the list: "Step 2", "Step 2, done".
func stepLabel(l *i18n.Language, i int, st StepLink) string {
	if st.Done {
		return l.T("lesson.step.labelDone", "N", i+1)
	}
	return l.T("lesson.step.label", "N", i+1)
}
