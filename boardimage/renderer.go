package boardimage

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"sync"

	"github.com/banchess/banchess/rules"
)

// Format is an image format: SVG or PNG.
type Format string

// The formats a Renderer draws.
const (
	SVG Format = "svg"
	PNG Format = "png"
)

// ContentType is the format's media type.
func (f Format) ContentType() string {
	if f == PNG {
		return "image/png"
	}
	return "image/svg+xml"
}

// Image is a drawn image: its bytes and an ETag naming them.
type Image struct {
	Body []byte
	ETag string // quoted, ready for the header
}

// DefaultCacheBytes is the cache a Renderer keeps unless told otherwise:
// some hundreds of boards at the common sizes.
const DefaultCacheBytes = 16 << 20

// ErrBusy is Draw's answer when as many images wait to be drawn as the
// Renderer lets wait: the caller should try again shortly.
var ErrBusy = errors.New("boardimage: busy: too many images are waiting to be drawn")

// Renderer draws scenes, keeping the images it drew last in a cache of
// bounded size. It is safe for concurrent use.
type Renderer struct {
	pieces   map[rules.Piece]pieceArt
	encoders encoderPool
	slots    chan struct{} // one per image being drawn: at most a core each
	room     int           // images that may wait for a slot

	spriteMu sync.Mutex
	sprites  map[int]sprites // by square size

	mu       sync.Mutex
	maxBytes int
	bytes    int
	order    *list.List               // most recently used first, of *entry
	entries  map[string]*list.Element // by key
	drawing  map[string]*drawing      // images being drawn or waiting to be, by key
	waiting  int                      // images waiting for a slot
}

// drawing is an image on its way: every request for it waits for the one
// draw.
type drawing struct {
	done chan struct{} // closed when img and err are set
	img  Image
	err  error
}

type entry struct {
	key string
	img Image
}

// NewRenderer returns a Renderer drawing the pieces found in fsys
// (pieces/wK.svg, …: the playground's static files) whose cache holds at
// most cacheBytes of images (0: DefaultCacheBytes).
func NewRenderer(fsys fs.FS, cacheBytes int) (*Renderer, error) {
	art, err := readPieces(fsys)
	if err != nil {
		return nil, err
	}
	if cacheBytes <= 0 {
		cacheBytes = DefaultCacheBytes
	}
	cores := runtime.GOMAXPROCS(0)
	return &Renderer{
		pieces:   art,
		slots:    make(chan struct{}, cores),
		room:     WaitingPerCore * cores,
		sprites:  map[int]sprites{},
		maxBytes: cacheBytes,
		order:    list.New(),
		entries:  map[string]*list.Element{},
		drawing:  map[string]*drawing{},
	}, nil
}

// WaitingPerCore bounds the images that wait to be drawn, per core: with
// the largest taking some 12 ms, a wait of about 50 ms.
const WaitingPerCore = 4

// Draw returns s drawn size pixels square (MinSize to MaxSize) as f, from
// the cache when it was drawn lately. No more images are drawn at once
// than there are cores: the others wait their turn, as long as ctx lasts
// (an image no one waits for any more is not drawn), and no more than
// WaitingPerCore a core wait — past them Draw answers ErrBusy. Requests
// for an image being drawn wait for that one draw.
func (r *Renderer) Draw(ctx context.Context, s Scene, f Format, size int) (Image, error) {
	switch {
	case size < MinSize || size > MaxSize:
		return Image{}, fmt.Errorf("an image is %d to %d pixels wide, not %d", MinSize, MaxSize, size)
	case f != SVG && f != PNG:
		return Image{}, fmt.Errorf("%q is not an image format: use svg or png", f)
	}
	key := s.key(string(f), size)
	for {
		if img, ok := r.cached(key); ok {
			return img, nil
		}
		r.mu.Lock()
		d := r.drawing[key]
		if d == nil {
			if r.waiting >= r.room {
				r.mu.Unlock()
				return Image{}, ErrBusy
			}
			d = &drawing{done: make(chan struct{})}
			r.drawing[key] = d
			r.waiting++
			r.mu.Unlock()
			return r.draw(ctx, d, key, s, f, size)
		}
		r.mu.Unlock()
		select {
		case <-d.done:
		case <-ctx.Done():
			return Image{}, ctx.Err()
		}
		if d.err == nil || !isContextErr(d.err) {
			return d.img, d.err
		}
		// The request drawing it gave up before its turn: try again.
	}
}

// draw waits for a slot and draws d, the image under key, telling those
// waiting for it.
func (r *Renderer) draw(ctx context.Context, d *drawing, key string, s Scene, f Format, size int) (Image, error) {
	defer func() {
		r.mu.Lock()
		delete(r.drawing, key)
		r.mu.Unlock()
		close(d.done)
	}()
	select {
	case r.slots <- struct{}{}:
	case <-ctx.Done():
		r.mu.Lock()
		r.waiting--
		r.mu.Unlock()
		d.err = ctx.Err()
		return Image{}, d.err
	}
	r.mu.Lock()
	r.waiting--
	r.mu.Unlock()
	defer func() { <-r.slots }()
	var body []byte
	if f == SVG {
		body = r.svg(s, size)
	} else if body, d.err = r.png(s, size); d.err != nil {
		return Image{}, d.err
	}
	sum := sha256.Sum256(body)
	d.img = Image{Body: body, ETag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	r.keep(key, d.img)
	return d.img, nil
}

// isContextErr reports whether err is a context's end.
func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

func (r *Renderer) cached(key string) (Image, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	el, ok := r.entries[key]
	if !ok {
		return Image{}, false
	}
	r.order.MoveToFront(el)
	return el.Value.(*entry).img, true
}

// keep caches img under key, dropping the least recently used images past
// the cache's size. An image larger than the whole cache is not kept.
func (r *Renderer) keep(key string, img Image) {
	n := len(img.Body) + len(key)
	if n > r.maxBytes {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.entries[key]; ok { // drawn meanwhile by another request
		return
	}
	r.entries[key] = r.order.PushFront(&entry{key: key, img: img})
	r.bytes += n
	for r.bytes > r.maxBytes {
		old := r.order.Remove(r.order.Back()).(*entry)
		delete(r.entries, old.key)
		r.bytes -= len(old.img.Body) + len(old.key)
	}
}
