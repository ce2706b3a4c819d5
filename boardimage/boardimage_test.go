package boardimage

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"flag"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/static"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// afterE4Ban: 1. e4, then Black's move with d7d5 banned; the king is not in
// check. A ban, a last move and pieces of both sides.
const afterE4Ban = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 4:d7d5"

func newRenderer(t testing.TB, cacheBytes int) *Renderer {
	t.Helper()
	r, err := NewRenderer(static.FS, cacheBytes)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func scene(t testing.TB, fen string) Scene {
	t.Helper()
	s, err := FromFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	return img
}

func TestPNGDecodesAtItsSize(t *testing.T) {
	r := newRenderer(t, 0)
	for _, size := range []int{MinSize, 300, 512, 601, MaxSize} {
		img, err := r.Draw(context.Background(), scene(t, afterE4Ban), PNG, size)
		if err != nil {
			t.Fatal(err)
		}
		b := decodePNG(t, img.Body).Bounds()
		if b.Dx() != size || b.Dy() != size {
			t.Errorf("size %d: the PNG is %v", size, b)
		}
	}
}

func TestSVGDecodesAtItsSize(t *testing.T) {
	r := newRenderer(t, 0)
	img, err := r.Draw(context.Background(), scene(t, afterE4Ban), SVG, 300)
	if err != nil {
		t.Fatal(err)
	}
	var root struct {
		XMLName xml.Name
		Width   string `xml:"width,attr"`
	}
	dec := xml.NewDecoder(bytes.NewReader(img.Body))
	if err := dec.Decode(&root); err != nil {
		t.Fatalf("the SVG does not parse: %v", err)
	}
	for { // the whole document is well formed
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the SVG does not parse: %v", err)
		}
	}
	if root.XMLName.Local != "svg" || root.Width != "300" {
		t.Errorf("root %s width %q, want svg 300", root.XMLName.Local, root.Width)
	}
	for _, want := range []string{`href="#wK"`, `href="#bQ"`, `fill="url(#hatch)"`, `stroke="#c62d2d"`} {
		if !bytes.Contains(img.Body, []byte(want)) {
			t.Errorf("the SVG has no %s", want)
		}
	}
}

func TestImagesDifferBetweenPositions(t *testing.T) {
	r := newRenderer(t, 0)
	start := scene(t, rules.StartFEN)
	flipped := start
	flipped.Flip = true
	withLast := start
	withLast.Last = rules.Pair{From: 12, To: 28}
	for _, f := range []Format{SVG, PNG} {
		seen := map[string]string{}
		for name, s := range map[string]Scene{"start": start, "after e4, a ban": scene(t, afterE4Ban), "flipped": flipped, "last move": withLast} {
			img, err := r.Draw(context.Background(), s, f, 256)
			if err != nil {
				t.Fatal(err)
			}
			if other, ok := seen[img.ETag]; ok {
				t.Errorf("%s: %s and %s draw the same image", f, name, other)
			}
			seen[img.ETag] = name
		}
	}
}

func TestGoldenPNG(t *testing.T) {
	r := newRenderer(t, 0)
	s := scene(t, afterE4Ban)
	s.Last = rules.Pair{From: 12, To: 28}
	img, err := r.Draw(context.Background(), s, PNG, 256)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "after-e4-ban-256.png")
	if *update {
		if err := os.WriteFile(path, img.Body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./boardimage -update writes it)", err)
	}
	// Compare pixels, not bytes: the encoder may change, the picture not.
	got, golden := decodePNG(t, img.Body), decodePNG(t, want)
	if got.Bounds() != golden.Bounds() {
		t.Fatalf("bounds %v, golden %v", got.Bounds(), golden.Bounds())
	}
	diff := 0
	for y := range 256 {
		for x := range 256 {
			r1, g1, b1, _ := got.At(x, y).RGBA()
			r2, g2, b2, _ := golden.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 {
				diff++
			}
		}
	}
	if diff > 0 {
		t.Errorf("%d pixels differ from %s", diff, path)
	}
}

func TestCacheIsBounded(t *testing.T) {
	r := newRenderer(t, 64<<10)
	s := scene(t, rules.StartFEN)
	for size := MinSize; size < MinSize+40; size++ {
		if _, err := r.Draw(context.Background(), s, SVG, size); err != nil {
			t.Fatal(err)
		}
	}
	if r.bytes > r.maxBytes || len(r.entries) != r.order.Len() {
		t.Errorf("cache holds %d bytes in %d entries (list %d), bound %d", r.bytes, len(r.entries), r.order.Len(), r.maxBytes)
	}
	if len(r.entries) >= 40 {
		t.Errorf("cache kept all %d images", len(r.entries))
	}
	first, _ := r.Draw(context.Background(), s, SVG, MinSize+39) // the latest is still there
	if _, ok := r.cached(s.key(string(SVG), MinSize+39)); !ok || first.Body == nil {
		t.Error("the latest image left the cache")
	}
}

func TestRefusals(t *testing.T) {
	r := newRenderer(t, 0)
	s := scene(t, rules.StartFEN)
	for _, size := range []int{0, MinSize - 1, MaxSize + 1} {
		if _, err := r.Draw(context.Background(), s, PNG, size); err == nil {
			t.Errorf("size %d drawn", size)
		}
	}
	if _, err := r.Draw(context.Background(), s, Format("gif"), 256); err == nil {
		t.Error("gif drawn")
	}
	for _, fen := range []string{"", "nonsense", "8/8/8/8/8/8/8/8 w - - 0 1", rules.StartFEN + " 1:e2e5"} {
		if _, err := FromFEN(fen); err == nil {
			t.Errorf("FromFEN(%q) accepted", fen)
		}
	}
	if _, err := FromFEN(strings.ReplaceAll(rules.StartFEN, " ", "_")); err != nil {
		t.Errorf("a FEN with underscores: %v", err)
	}
}

// TestBoardOnlyFEN: the placement alone draws the board as it stands,
// whichever side would be to move (Black in check: Black to move).
func TestBoardOnlyFEN(t *testing.T) {
	for fen, side := range map[string]string{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR": "w", "4k3/8/8/8/8/8/8/4KR2": "w", "4k3/4R3/8/8/8/8/8/4K3": "b"} {
		s, err := FromFEN(fen)
		if err != nil {
			t.Errorf("FromFEN(%q): %v", fen, err)
			continue
		}
		if want := scene(t, fen+" "+side+" - - 0 1"); s != want {
			t.Errorf("FromFEN(%q) = %+v, want %+v", fen, s, want)
		}
	}
	if _, err := FromFEN("4k3/8/8"); err == nil {
		t.Error("a placement of three ranks was drawn")
	}
}

// BenchmarkPNG draws a new 512-pixel board each time (the cache is
// bypassed by a new last move each round), and a cached one.
func BenchmarkPNG(b *testing.B) {
	r := newRenderer(b, 0)
	s := scene(b, afterE4Ban)
	if _, err := r.Draw(context.Background(), s, PNG, 512); err != nil { // sprites drawn once, as in a running server
		b.Fatal(err)
	}
	b.Run("draw512", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := r.png(s, 512); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached512", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := r.Draw(context.Background(), s, PNG, 512); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sprites64", func(b *testing.B) {
		for b.Loop() {
			r.spriteMu.Lock()
			clear(r.sprites)
			r.spriteMu.Unlock()
			if _, err := r.spritesAt(64); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestENChess: an EN-Chess position draws its 8×8 board (its x squares,
// where the Aurors start, are not drawn).
func TestENChess(t *testing.T) {
	r := newRenderer(t, 0)
	s := scene(t, rules.ENStartFEN)
	for _, f := range []Format{SVG, PNG} {
		img, err := r.Draw(context.Background(), s, f, 256)
		if err != nil || len(img.Body) == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if len(newRenderer(t, 0).pieces) != 14 {
		t.Error("not every piece's art was read")
	}
}

// occupy takes every drawing slot of r until the returned func frees them.
func occupy(r *Renderer) (free func()) {
	for range cap(r.slots) {
		r.slots <- struct{}{}
	}
	return func() {
		for range cap(r.slots) {
			<-r.slots
		}
	}
}

// waitingNow counts the images waiting for a slot, and those on their way.
func (r *Renderer) waitingNow() (waiting, drawing int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.waiting, len(r.drawing)
}

// TestDrawGivesUp: an image whose request ends while it waits for a slot
// is not drawn, and leaves its place.
func TestDrawGivesUp(t *testing.T) {
	r := newRenderer(t, 0)
	free := occupy(r)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := r.Draw(ctx, scene(t, afterE4Ban), PNG, 256); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a draw whose request ended waiting: %v", err)
	}
	free()
	if w, d := r.waitingNow(); w != 0 || d != 0 || r.order.Len() != 0 {
		t.Errorf("after it gave up: %d waiting, %d on their way, %d drawn", w, d, r.order.Len())
	}
}

// TestDrawQueueBounded: past WaitingPerCore images a core waiting, Draw
// answers ErrBusy at once; requests for an image on its way wait for that
// one draw, and take no place.
func TestDrawQueueBounded(t *testing.T) {
	r := newRenderer(t, 0)
	free := occupy(r)
	ctx := context.Background()
	results := make(chan Image, r.room+8)
	errs := make(chan error, r.room+8)
	draw := func(size int) {
		img, err := r.Draw(ctx, scene(t, afterE4Ban), PNG, size)
		results <- img
		errs <- err
	}
	for i := range r.room {
		go draw(MinSize + i)
	}
	for range 8 { // the same image as the first, eight times
		go draw(MinSize)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		if w, d := r.waitingNow(); w == r.room && d == r.room {
			break
		}
		if time.Now().After(deadline) {
			w, d := r.waitingNow()
			t.Fatalf("%d waiting, %d on their way; want %d", w, d, r.room)
		}
	}
	if _, err := r.Draw(ctx, scene(t, afterE4Ban), PNG, MaxSize); !errors.Is(err, ErrBusy) {
		t.Fatalf("one more image past %d waiting: %v, want ErrBusy", r.room, err)
	}
	free()
	for range r.room + 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		<-results
	}
	if r.order.Len() != r.room {
		t.Errorf("%d images drawn, want %d", r.order.Len(), r.room)
	}
}
