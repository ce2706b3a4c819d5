package lessons

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// unsaid matches what a text shows of a message no catalog has: its id,
// or a placeholder left unfilled.
var unsaid = regexp.MustCompile(`\b(?:lesson|banner)\.[a-zA-Z0-9.]+|\{\{`)

// sayable checks m says something in every language, every message and
// placeholder in it found.
func sayable(t *testing.T, m i18n.Message) {
	t.Helper()
	for _, l := range i18n.Builtin().Languages() {
		if s := l.Say(m); s == "" || unsaid.MatchString(s) {
			t.Errorf("%s in %s: %q", m.ID, l.Code, s)
		}
	}
}

// TestLessons replays every step of every lesson through the rules: the
// position loads and waits for the learner; the answers it names are
// legal and reach its goal — all of the actions that do, unless the step
// says its answers are examples; its mistakes are legal, miss the goal
// and get their own feedback; and every step can be got wrong.
func TestLessons(t *testing.T) {
	all := All()
	if len(all) < 8 {
		t.Errorf("%d lessons, want at least 8", len(all))
	}
	ids := map[string]bool{}
	for _, l := range all {
		if ids[l.ID] {
			t.Errorf("two lessons have the id %q", l.ID)
		}
		ids[l.ID] = true
		if l.Title.IsZero() || l.Summary.IsZero() || len(l.Steps) < 2 {
			t.Errorf("lesson %s: a title, a summary and at least two steps, please", l.ID)
		}
		for i, s := range l.Steps {
			t.Run(l.ID+"/"+string(rune('1'+i)), func(t *testing.T) { checkStep(t, s) })
		}
	}
}

func checkStep(t *testing.T, s Step) {
	g, err := s.Start()
	if err != nil {
		t.Fatal(err)
	}
	if o := g.Outcome(); o.Over() {
		t.Fatalf("the game is over before the step: %s", o)
	}
	if s.Prompt.IsZero() || s.Right.IsZero() {
		t.Error("a step needs a prompt and a reason it is right")
	}
	sayable(t, s.Prompt)
	sayable(t, s.Right)
	var reach []string
	wrong := 0
	for _, a := range g.Legal() {
		v, err := s.Judge(a)
		if err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		if v.Right {
			reach = append(reach, a.String())
		} else {
			wrong++
			if v.Text.IsZero() {
				t.Errorf("%s is wrong without a reason", a)
			}
			sayable(t, v.Text)
		}
	}
	slices.Sort(reach)
	answers := slices.Sorted(slices.Values(s.Answers))
	if len(answers) == 0 {
		t.Errorf("no answers; these reach the goal: %s", strings.Join(reach, " "))
	}
	for _, a := range answers {
		if !slices.Contains(reach, a) {
			t.Errorf("answer %s does not reach the goal (or is not legal); these do: %s", a, strings.Join(reach, " "))
		}
	}
	if !s.Many && !slices.Equal(reach, answers) {
		t.Errorf("the goal is reached by %s, the step names %s", strings.Join(reach, " "), strings.Join(answers, " "))
	}
	if wrong == 0 && len(g.Legal()) > 1 {
		t.Error("every action is right")
	}
	for _, m := range s.Mistakes {
		a, err := rules.ParseAction(m.Action)
		if err != nil {
			t.Fatalf("mistake %s: %v", m.Action, err)
		}
		v, err := s.Judge(a)
		switch {
		case err != nil:
			t.Errorf("mistake %s is not legal: %v", m.Action, err)
		case v.Right:
			t.Errorf("mistake %s is right", m.Action)
		case v.Text.ID != m.Why.ID:
			t.Errorf("mistake %s gets %q, not its own feedback", m.Action, v.Text.ID)
		}
		if ok, _ := s.Goal.Check(g, a); ok {
			t.Errorf("mistake %s reaches the goal", m.Action)
		}
	}
}
