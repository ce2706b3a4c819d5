package tune

import (
	"bytes"
	"context"
	"go/format"
	"strings"
	"testing"
)

// TestGenerateAndFit: two self-play games give quiet positions with
// results; fitting them lowers the loss; the weights written are valid Go.
func TestGenerateAndFit(t *testing.T) {
	var buf bytes.Buffer
	n, err := Generate(context.Background(), &buf, GenConfig{Games: 2, Nodes: 500, OpeningPlies: 6, Seed: 7, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if n == 0 || len(lines) != n {
		t.Fatalf("%d positions, %d lines", n, len(lines))
	}
	for _, l := range lines {
		if _, res, ok := strings.Cut(l, ";"); !ok || (res != "1" && res != "0" && res != "0.5") {
			t.Fatalf("line %q", l)
		}
	}
	var d Data
	if err := d.Read(strings.NewReader(buf.String())); err != nil {
		t.Fatal(err)
	}
	w := Current()
	k := d.FitK(w)
	before := d.Loss(w, k, false)
	after := d.Loss(d.Fit(w, k, FitConfig{Iterations: 50, Rate: 2}), k, false)
	if after >= before {
		t.Errorf("loss %.5f before the fit, %.5f after", before, after)
	}
	var out bytes.Buffer
	if err := WriteGo(&out, w, "banchess tune fit"); err != nil {
		t.Fatal(err)
	}
	if _, err := format.Source(out.Bytes()); err != nil {
		t.Errorf("weights file: %v\n%s", err, out.String())
	}
}
