package tune

import (
	"bufio"
	"fmt"
	"go/format"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/banchess/banchess/engine"
)

// sample is a position's terms, phase and game result for White.
type sample struct {
	terms  [engine.NumEvalTerms]int16
	phase  float64 // 0 (no pieces) … 1 (all)
	result float64
}

// Data are the positions Fit learns from.
type Data struct{ samples []sample }

// Len returns the number of positions.
func (d *Data) Len() int { return len(d.samples) }

// Read reads "FEN;result" lines (Generate's) and adds them to d.
func (d *Data) Read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		fen, res, ok := strings.Cut(sc.Text(), ";")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(res), 64)
		if err != nil {
			return fmt.Errorf("tune: line %d: result %q: %w", n, res, err)
		}
		pos, err := engine.ParseFEN(fen)
		if err != nil {
			return fmt.Errorf("tune: line %d: %w", n, err)
		}
		t, phase := pos.EvalTerms()
		var s sample
		for i, x := range t {
			s.terms[i] = int16(x)
		}
		s.phase, s.result = float64(phase)/24, v
		d.samples = append(d.samples, s)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("tune: reading positions: %w", err)
	}
	return nil
}

// Weights are the evaluation's weights being fitted, middlegame then
// endgame.
type Weights struct{ MG, EG [engine.NumEvalTerms]float64 }

// Current returns the engine's weights.
func Current() Weights { return weightsOf(engine.EvalWeights()) }

// weightsOf returns the whole-centipawn weights mg and eg as Weights.
func weightsOf(mg, eg [engine.NumEvalTerms]int) Weights {
	var w Weights
	for i := range mg {
		w.MG[i], w.EG[i] = float64(mg[i]), float64(eg[i])
	}
	return w
}

// at is weight j of w: the middlegame's for j < NumEvalTerms, then the
// endgame's.
func (w *Weights) at(j int) *float64 {
	if j < engine.NumEvalTerms {
		return &w.MG[j]
	}
	return &w.EG[j-engine.NumEvalTerms]
}

// eval is the evaluation for White of s under w.
func (w *Weights) eval(s *sample) float64 {
	mg, eg := 0.0, 0.0
	for i, t := range s.terms {
		if t != 0 {
			mg += w.MG[i] * float64(t)
			eg += w.EG[i] * float64(t)
		}
	}
	return mg*s.phase + eg*(1-s.phase)
}

// sigmoid is the expected score of an evaluation in centipawns at scale k.
func sigmoid(v, k float64) float64 { return 1 / (1 + math.Exp(-k*v/400)) }

// Loss is the mean squared error of the results' prediction by w at
// scale k, over the samples fitted (all of them when all is true).
func (d *Data) Loss(w Weights, k float64, all bool) float64 {
	return d.loss(w, k, func(i int) bool { return all || !d.held(i) })
}

// heldOutLoss is the loss over the held-out samples only.
func (d *Data) heldOutLoss(w Weights, k float64) float64 { return d.loss(w, k, d.held) }

// loss is the mean squared error of the results' prediction by w at
// scale k, over the samples i for which in(i).
func (d *Data) loss(w Weights, k float64, in func(i int) bool) float64 {
	sum, n := 0.0, 0
	for i := range d.samples {
		if !in(i) {
			continue
		}
		s := &d.samples[i]
		e := s.result - sigmoid(w.eval(s), k)
		sum += e * e
		n++
	}
	return sum / float64(max(n, 1))
}

// heldOut is every which block of blockLen samples is kept out of the
// fit to check it: blocks, as a game's positions follow one another and
// resemble each other.
const heldOut, blockLen = 10, 256

// held reports whether sample i is held out (none are from fewer than
// heldOut blocks).
func (d *Data) held(i int) bool {
	return len(d.samples) >= heldOut*blockLen && (i/blockLen)%heldOut == 0
}

// FitK returns the scale k at which w predicts the results best.
func (d *Data) FitK(w Weights) float64 {
	lo, hi := 0.1, 5.0
	for range 40 { // golden-section search
		a, b := lo+(hi-lo)*0.382, lo+(hi-lo)*0.618
		if d.Loss(w, a, true) < d.Loss(w, b, true) {
			hi = b
		} else {
			lo = a
		}
	}
	return (lo + hi) / 2
}

// FitConfig is how Fit descends.
type FitConfig struct {
	Iterations int
	Rate       float64 // Adam's step, in centipawns
	// L2 weighs the penalty L2 · Σ (w − w₀)², w₀ the starting weights, in
	// loss per centipawn²: it keeps weights the data say little about
	// near where they were.
	L2  float64
	Log io.Writer
}

// Fit minimises the loss at scale k from w by full-batch Adam over the
// samples not held out (every heldOut-th is), and returns the weights.
func (d *Data) Fit(w Weights, k float64, cfg FitConfig) Weights {
	const n = engine.NumEvalTerms
	var m, v [2 * n]float64
	const b1, b2, eps = 0.9, 0.999, 1e-8
	w0 := w
	for it := 1; it <= cfg.Iterations; it++ {
		var grad [2 * n]float64
		count := 0
		for i := range d.samples {
			if d.held(i) {
				continue
			}
			s := &d.samples[i]
			p := sigmoid(w.eval(s), k)
			// d/dw of (r − p)² = −2 (r − p) p (1 − p) k/400 · term
			g := -2 * (s.result - p) * p * (1 - p) * k / 400
			for j, t := range s.terms {
				if t != 0 {
					grad[j] += g * float64(t) * s.phase
					grad[n+j] += g * float64(t) * (1 - s.phase)
				}
			}
			count++
		}
		for j := range grad {
			g := grad[j]/float64(max(count, 1)) + 2*cfg.L2*(*w.at(j)-*w0.at(j))
			m[j] = b1*m[j] + (1-b1)*g
			v[j] = b2*v[j] + (1-b2)*g*g
			*w.at(j) -= cfg.Rate * (m[j] / (1 - math.Pow(b1, float64(it)))) / (math.Sqrt(v[j]/(1-math.Pow(b2, float64(it)))) + eps)
		}
		if cfg.Log != nil && (it%50 == 0 || it == cfg.Iterations) {
			fmt.Fprintf(cfg.Log, "iteration %d: loss %.6f, held out %.6f\n", it,
				d.Loss(w, k, false), d.heldOutLoss(w, k))
		}
	}
	return w
}

// WriteGo writes w, rounded, as engine/eval_weights.go, saying how it was
// made (cmd).
func WriteGo(out io.Writer, w Weights, cmd string) error {
	var b strings.Builder
	b.WriteString("// Code generated by banchess tune; DO NOT EDIT.\n")
	b.WriteString("// To regenerate: " + cmd + "\n\n")
	b.WriteString("package engine\n\n")
	b.WriteString("// The evaluation's weights by term (eval.go), fitted by engine/tune.\n\n")
	for _, part := range []struct {
		name string
		w    [engine.NumEvalTerms]float64
	}{{"evalMG", w.MG}, {"evalEG", w.EG}} {
		fmt.Fprintf(&b, "var %s = [NumEvalTerms]int{\n", part.name)
		for i, x := range part.w {
			fmt.Fprintf(&b, "\t%d, // %s\n", int(math.Round(x)), engine.EvalTermName(i))
		}
		b.WriteString("}\n\n")
	}
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		return fmt.Errorf("tune: formatting weights: %w", err)
	}
	if _, err := out.Write(src); err != nil {
		return fmt.Errorf("tune: writing weights: %w", err)
	}
	return nil
}
