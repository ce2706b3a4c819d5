package analysis_test

import (
	"testing"
	"time"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/rules"
)

// TestAnalysisShares: a client's second analysis while its first runs is
// refused (429 analysis_running); the computer's ply cuts a long analysis
// short, which answers what it found so far; another client's analysis
// waits its turn and is answered.
func TestAnalysisShares(t *testing.T) {
	e := newEnv(t, testsite.Config{Engine: engine.NewPool(1, 4, 1, engine.WithYieldAfter(30*time.Millisecond))})
	defer e.svc.Close()
	a := engine.WithClient(e.ctx, "192.0.2.1")
	type answer struct {
		res engine.Result
		err error
	}
	long := make(chan answer, 1)
	analyseLong := func() {
		res, err := e.svc.Analysis.AnalysePosition(a, rules.StartFEN, "", analysis.Request{Budget: analysis.MaxAnalysisBudget})
		long <- answer{res, err}
	}
	go analyseLong()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		_, err := e.svc.Analysis.AnalysePosition(a, rules.StartFEN, "", analysis.Request{Budget: 10 * time.Millisecond})
		if e := errs.Of(err); err != nil && e.Code == errs.TooMany && e.Detail == errs.AnalysisRunning && e.RetryAfter >= time.Second {
			break
		}
		select {
		case got := <-long: // the short one came first, and refused it: again
			if e := errs.Of(got.err); got.err == nil || e.Detail != errs.AnalysisRunning {
				t.Fatalf("the long analysis: %v, %v", got.res, got.err)
			}
			go analyseLong()
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("a second analysis while the first runs: %v, want analysis_running", err)
		}
	}
	other := make(chan answer, 1)
	go func() {
		res, err := e.svc.Analysis.AnalysePosition(engine.WithClient(e.ctx, "192.0.2.2"), rules.StartFEN, "", analysis.Request{Budget: 100 * time.Millisecond})
		other <- answer{res, err}
	}()
	// Level 6: a search of the workers' (levels 1 to 5 have a searcher of
	// their own).
	e.botGame(engine.WithClient(e.ctx, "192.0.2.3"), rules.New(rules.BanChess{}), rules.White, 6).waitPly(2)
	got := <-long
	if got.err != nil || got.res.Best == (rules.Action{}) || got.res.Time >= analysis.MaxAnalysisBudget/2 {
		t.Errorf("the analysis cut short for the computer: %+v, %v; want its result so far", got.res, got.err)
	}
	if got := <-other; got.err != nil || got.res.Best == (rules.Action{}) {
		t.Errorf("the other client's analysis: %+v, %v", got.res, got.err)
	}
}
