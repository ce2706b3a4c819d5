package boardimage

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
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

// Renderer draws scenes, keeping the images it drew last in a cache of
// bounded size. It is safe for concurrent use.
type Renderer struct {
	pieces   map[rules.Piece]pieceArt
	encoders encoderPool
	slots    chan struct{} // one per image being drawn: at most a core each

	spriteMu sync.Mutex
	sprites  map[int]sprites // by square size

	mu       sync.Mutex
	maxBytes int
	bytes    int
	order    *list.List               // most recently used first, of *entry
	entries  map[string]*list.Element // by key
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
	return &Renderer{
		pieces:   art,
		slots:    make(chan struct{}, runtime.GOMAXPROCS(0)),
		sprites:  map[int]sprites{},
		maxBytes: cacheBytes,
		order:    list.New(),
		entries:  map[string]*list.Element{},
	}, nil
}

// Draw returns s drawn size pixels square (MinSize to MaxSize) as f, from
// the cache when it was drawn lately. No more images are drawn at once
// than there are cores: the others wait their turn.
func (r *Renderer) Draw(s Scene, f Format, size int) (Image, error) {
	if size < MinSize || size > MaxSize {
		return Image{}, fmt.Errorf("an image is %d to %d pixels wide, not %d", MinSize, MaxSize, size)
	}
	key := s.key(string(f), size)
	if img, ok := r.cached(key); ok {
		return img, nil
	}
	r.slots <- struct{}{}
	defer func() { <-r.slots }()
	var body []byte
	switch f {
	case SVG:
		body = r.svg(s, size)
	case PNG:
		var err error
		if body, err = r.png(s, size); err != nil {
			return Image{}, err
		}
	default:
		return Image{}, fmt.Errorf("%q is not an image format: use svg or png", f)
	}
	sum := sha256.Sum256(body)
	img := Image{Body: body, ETag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	r.keep(key, img)
	return img, nil
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
