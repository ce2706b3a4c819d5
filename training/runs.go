package training

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// The details of the refusals of runs (Puzzle Streak and Puzzle Storm).
const (
	NoRun      errs.Detail = "no_run"      // NotFound: no run of this player has this id
	RunOver    errs.Detail = "run_over"    // Conflict: the run has ended
	NoSkip     errs.Detail = "no_skip"     // Conflict: the streak's one skip is used
	BadResults errs.Detail = "bad_results" // Invalid: a run's results do not follow its puzzles, or their times cannot be
	MovedOn    errs.Detail = "moved_on"    // Conflict: an action made at a puzzle the run has left
)

// RunKind names a kind of run.
type RunKind string

// The kinds of runs.
const (
	StreakRun RunKind = "streak"
	StormRun  RunKind = "storm"
)

// Run is one run of Puzzle Streak or Puzzle Storm: its puzzles are a
// function of its Seed (StreakPuzzles, StormPuzzles), its progress is
// kept by the store.
type Run struct {
	ID, Player string
	Kind       RunKind
	Seed       int64
	// Started is when the server started the run: Storm's clock runs
	// from it.
	Started time.Time
	// Pos is the index of the puzzle at hand; Score the puzzles solved.
	Pos, Score int
	// Combo is Storm's right actions in a row; BonusMS the time its
	// combos added less the time its wrong actions took, in
	// milliseconds.
	Combo   int
	BonusMS int64
	// Skipped says the streak's one skip is used; Over that the run
	// has ended (its score kept).
	Skipped, Over bool
}

// Bests are a player's best scores of a kind of run: ever, and on the
// day asked for (UTC).
type Bests struct{ Best, Today int }

// RunStore keeps runs and the players' best scores. Package store
// implements it in memory, SQLite and PostgreSQL.
type RunStore interface {
	// SaveRun keeps r, replacing the run with its id.
	SaveRun(ctx context.Context, r Run) error
	// UpdateRun keeps r's progress (Pos, Score, Combo, BonusMS,
	// Skipped, Over) where the run kept still has was's; ok is false
	// when another request changed it first (nothing is changed).
	UpdateRun(ctx context.Context, r, was Run) (ok bool, err error)
	// Run returns the run with this id; ok is false for none.
	Run(ctx context.Context, id string) (r Run, ok bool, err error)
	// RecordScore keeps score as player's best of kind, ever and on day
	// (a date, 2006-01-02), where it beats the best kept.
	RecordScore(ctx context.Context, player string, kind RunKind, day string, score int) error
	// Bests returns player's best scores of kind, ever and on day
	// (0 for none).
	Bests(ctx context.Context, player string, kind RunKind, day string) (Bests, error)
}

// Runs is Puzzle Streak and Puzzle Storm over the service's puzzles.
type Runs struct{ s *Service }

// Runs returns the service's Streak and Storm.
func (s *Service) Runs() *Runs { return &Runs{s: s} }

// StreakLength bounds a streak: a run that solves every one is won.
const StreakLength = 60

// StormLength is the puzzles of a storm run: more than anyone solves in
// its time.
const StormLength = 150

// Puzzles returns the puzzles of run r, in the order they are played:
// the easiest first.
func (rs *Runs) Puzzles(r Run) []puzzles.Puzzle {
	if r.Kind == StormRun {
		return pick(rs.s.set, r.Seed, StormLength, 600, 10)
	}
	return pick(rs.s.set, r.Seed, StreakLength, 650, 25)
}

// pick draws n distinct puzzles of set from seed, the k-th near the
// rating from+k×step (±50 at random), in order of rating.
func pick(set *puzzles.Set, seed int64, n, from, step int) []puzzles.Puzzle {
	rng := mrand.New(mrand.NewPCG(uint64(seed), 0x5eed))
	used := map[string]bool{}
	out := make([]puzzles.Puzzle, 0, n)
	for k := range min(n, set.Len()) {
		target := from + k*step + rng.IntN(101) - 50
		p, ok := set.Near(target, "", func(p puzzles.Puzzle) bool { return used[p.ID] })
		if !ok {
			break
		}
		used[p.ID] = true
		out = append(out, p)
	}
	slices.SortStableFunc(out, func(a, b puzzles.Puzzle) int { return a.Rating - b.Rating })
	return out
}

// Start starts a run of kind for player ("" for nobody: a run whose
// scores are not kept), at the server's time.
func (rs *Runs) Start(ctx context.Context, player string, kind RunKind) (Run, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return Run{}, errs.Internalf(err, "a run's id")
	}
	seed := int64(b[0])<<56 | int64(b[1])<<48 | int64(b[2])<<40 | int64(b[3])<<32 | int64(b[4])<<24 | int64(b[5])<<16 | int64(b[6])<<8 | int64(b[7])
	r := Run{ID: hex.EncodeToString(b[8:]), Player: player, Kind: kind, Seed: seed, Started: rs.s.now()}
	if err := rs.s.store.SaveRun(ctx, r); err != nil {
		return Run{}, errs.Internalf(err, "keeping a run")
	}
	return r, nil
}

// Run returns player's run id of kind.
func (rs *Runs) Run(ctx context.Context, player string, kind RunKind, id string) (Run, error) {
	r, ok, err := rs.s.store.Run(ctx, id)
	if err != nil {
		return Run{}, errs.Internalf(err, "reading a run")
	}
	if !ok || r.Player != player || r.Kind != kind {
		return Run{}, refused(errs.NotFound, NoRun, "There is no such run: start a new one.")
	}
	return r, nil
}

// Bests returns player's best scores of kind, ever and today.
func (rs *Runs) Bests(ctx context.Context, player string, kind RunKind) (Bests, error) {
	if player == "" {
		return Bests{}, nil
	}
	b, err := rs.s.store.Bests(ctx, player, kind, day(rs.s.now()))
	if err != nil {
		return Bests{}, errs.Internalf(err, "reading best scores")
	}
	return b, nil
}

// day is the UTC date of t, as bests are kept by.
func day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// end ends run r, which was was when read, with its score, kept as
// player's best where it is.
func (rs *Runs) end(ctx context.Context, was Run, r *Run) error {
	r.Over = true
	if err := rs.save(ctx, was, *r); err != nil {
		return err
	}
	if r.Player == "" {
		return nil
	}
	if err := rs.s.store.RecordScore(ctx, r.Player, r.Kind, day(rs.s.now()), r.Score); err != nil {
		return errs.Internalf(err, "keeping a best score")
	}
	return nil
}

// save keeps r, which was was when read: refused (Conflict) when
// another request changed the run first, so that two actions sent at once
// are never both judged at the same moment of the run.
func (rs *Runs) save(ctx context.Context, was, r Run) error {
	ok, err := rs.s.store.UpdateRun(ctx, r, was)
	if err != nil {
		return errs.Internalf(err, "keeping a run")
	}
	if !ok {
		return refused(errs.Conflict, MovedOn, "The run changed meanwhile (an action sent twice?): here is where it stands.")
	}
	return nil
}

// Current returns run r's puzzle at hand; ok is false when none is left.
func (rs *Runs) Current(ctx context.Context, r Run) (p Puzzle, ok bool, err error) {
	ps := rs.Puzzles(r)
	if r.Pos >= len(ps) {
		return Puzzle{}, false, nil
	}
	p, err = rs.s.withStats(ctx, ps[r.Pos])
	return p, err == nil, err
}

// atHand refuses an action made at puzzle seen ("": not said) when
// the run's puzzle at hand is another: a form sent again, or from
// another tab, after the run moved on.
func atHand(ps []puzzles.Puzzle, r Run, seen string) error {
	if seen != "" && (r.Pos >= len(ps) || ps[r.Pos].ID != seen) {
		return refused(errs.Conflict, MovedOn, "The run has moved on from this puzzle: here is where it stands.")
	}
	return nil
}

// Judged is one action of a run played on its page.
type Judged struct {
	Verdict puzzles.Verdict
	// Next is the solver's next moment after a right action that does
	// not solve the puzzle; -1 otherwise.
	Next int
	// Moment is the moment just after a right action that does not
	// solve the puzzle, the replies not played yet.
	Moment *Moment
}

// judge judges in, the solver's action at the moment of the board it was
// made on, at puzzle id: as Service.Play, but neither explained, kept
// nor rated.
func (s *Service) judge(id string, in games.Input) (Judged, error) {
	p, sv, err := s.solving(id)
	if err != nil {
		return Judged{}, err
	}
	n := Where{Ply: in.Ply}.moment(sv.Game().StartPly())
	if _, err = follow(sv, n); err != nil {
		return Judged{}, err
	}
	g := sv.Game()
	a, err := in.Action(g)
	if err != nil {
		return Judged{}, err
	}
	if err := g.Play(a); err != nil {
		return Judged{}, errs.Of(err)
	}
	if err := g.Undo(); err != nil {
		return Judged{}, errs.Internalf(err, "puzzle %s", id)
	}
	if _, err := sv.Act(a); err != nil {
		return Judged{}, errs.Internalf(err, "judging puzzle %s", id)
	}
	out := Judged{Verdict: sv.Verdict(), Next: -1}
	if out.Verdict.Correct && !out.Verdict.Solved {
		out.Next = sv.At()
		if err := sv.To(n + 1); err != nil {
			return Judged{}, errs.Internalf(err, "puzzle %s", id)
		}
		m := moment(p, Learner{}, sv, nil)
		m.Ahead = out.Next
		out.Moment = &m
	}
	return out, nil
}

// judgeAll judges actions, the solver's actions at puzzle id in order,
// neither explained, kept nor rated; right counts the right ones.
func (s *Service) judgeAll(id string, actions []string) (v puzzles.Verdict, right int, err error) {
	_, sv, err := s.solving(id)
	if err != nil {
		return v, 0, err
	}
	if len(actions) == 0 || len(actions) > MaxActions {
		return v, 0, refused(errs.Invalid, BadActions, fmt.Sprintf("A puzzle's result gives 1 to %d of the solver's actions.", MaxActions))
	}
	for i, text := range actions {
		a, err := rules.ParseAction(text)
		if err != nil {
			return v, 0, refused(errs.Invalid, BadActions, fmt.Sprintf("Action %d of puzzle %s, %q, is not BCN.", i+1, id, rules.Clip(text)))
		}
		if _, err := sv.Act(a); err != nil {
			return v, 0, errs.Internalf(err, "judging puzzle %s", id)
		}
		if v = sv.Verdict(); !v.Correct {
			return v, i, nil
		}
		if v.Solved {
			return v, i + 1, nil
		}
	}
	return v, len(actions), nil
}

// RunResult is a program's answer to one puzzle of a run: the solver's
// actions in BCN, or a skip (Streak's one); At is the time it was
// answered, in milliseconds from the run's start (Storm's).
type RunResult struct {
	Puzzle  string
	Actions []string
	Skip    bool
	At      int64
}
