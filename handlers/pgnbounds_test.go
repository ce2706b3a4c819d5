package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/store"
)

// countingStore counts the games created on it.
type countingStore struct {
	testsite.Store
	creates atomic.Int64
}

func (s *countingStore) Create(ctx context.Context, rec *games.Record) error {
	s.creates.Add(1)
	return s.Store.Create(ctx, rec)
}

// tagPGN is a PGN of n tags whose names are name bytes long and values
// value bytes long, and a move.
func tagPGN(n, name, value int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[T%0*d \"%s\"]\n", name-1, i+1, strings.Repeat("v", value))
	}
	b.WriteString("\n1. e4 *\n")
	return b.String()
}

// paddedPGN is a good PGN of n bytes: a long escape line (dropped) and
// its moves.
func paddedPGN(n int) string {
	const moves = "1. e4 e5 *"
	return "%" + strings.Repeat("c", n-len(moves)-2) + "\n" + moves // an escape line, dropped
}

func pgnJSON(pgn string) string {
	b, _ := json.Marshal(map[string]string{"pgn": pgn})
	return string(b)
}

// TestPGNBounds: a PGN's tags are bounded wherever it comes from, and a
// link carries at most 16 KiB of PGN: the 1 MB, 10,000-tag link is refused
// with 400 before it is read, and creates no game.
func TestPGNBounds(t *testing.T) {
	flood := tagPGN(10_000, 8, 90) // 1 MB
	if len(flood) < 1e6 {
		t.Fatalf("the flood is %d bytes", len(flood))
	}
	tags40, tags2000 := tagPGN(40, 8, 8), tagPGN(2000, 8, 8) // 1 KB, 40 KB
	tests := []struct {
		name       string
		h          hit
		code, want string
	}{
		{"1 MB link", hit{method: http.MethodGet, target: "/?pgn=" + url.QueryEscape(flood)}, "", "at most 16 KiB"},
		{"1 MB link htmx", hit{method: http.MethodGet, target: "/?pgn=" + url.QueryEscape(flood), hx: true}, "", "at most 16 KiB"},
		{"16 KiB + 1 link", hit{method: http.MethodGet, target: "/?pgn=" + url.QueryEscape(paddedPGN(16<<10+1))}, "", "at most 16 KiB"},
		{"link of 40 tags", hit{method: http.MethodGet, target: "/?pgn=" + url.QueryEscape(tags40)}, "", "more than 32 tags"},
		{"api 2,000 tags", hit{method: http.MethodPost, target: "/api/games", json: pgnJSON(tags2000)}, "too_many_tags", "more than 32 tags"},
		{"api long value", hit{method: http.MethodPost, target: "/api/games", json: pgnJSON(tagPGN(1, 8, 257))}, "tag_too_long", "longer than 256 bytes"},
		{"api long name", hit{method: http.MethodPost, target: "/api/games", json: pgnJSON(tagPGN(1, 65, 1))}, "tag_too_long", "longer than 64 bytes"},
		{"import 2,000 tags", hit{method: http.MethodPost, target: "/import", form: vals("text", tags2000)}, "", "more than 32 tags"},
		{"import 2,000 tags htmx", hit{method: http.MethodPost, target: "/import", form: vals("text", tags2000), hx: true}, "", "more than 32 tags"},
		{"api long comments", hit{method: http.MethodPost, target: "/api/games", json: pgnJSON("{" + strings.Repeat("c", 17<<10) + "} 1. e4 *")}, "comments_too_long", "keeps at most 16384"},
		{"import long value", hit{method: http.MethodPost, target: "/import", form: vals("text", tagPGN(1, 8, 257))}, "", "longer than 256 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &countingStore{Store: store.NewMemory()}
			e := echo.New()
			New(newService(st), newTestClock().now).Register(e)
			var created int64
			rec := refusedInput(t, e, tt.h, tt.code, tt.want, func() { created = st.creates.Load() })
			if tt.h.target != "/import" && rec.Body.Len() > 64<<10 { // an import echoes its text in the box
				t.Errorf("the refusal is %d bytes", rec.Body.Len())
			}
			if n := st.creates.Load() - created; n != 0 {
				t.Errorf("a refused request created %d games", n)
			}
		})
	}

	// At the bounds all is read, and what is stored stays within them.
	e := limited(newTestClock())
	h := hit{method: http.MethodPost, target: "/api/games", json: pgnJSON(tagPGN(32, 64, 256))}
	rec := h.serve(t, e)
	var created struct{ ID, PGN string }
	if err := json.Unmarshal(rec.Body.Bytes(), &created); rec.Code != http.StatusCreated || err != nil {
		t.Fatalf("32 tags at the bounds: %d %.200s", rec.Code, rec.Body)
	}
	rec = hit{method: http.MethodGet, target: "/api/games/" + created.ID + "/pgn"}.serve(t, e)
	if n := strings.Count(rec.Body.String(), "\n[T"); n != 32 || rec.Body.Len() > 12<<10 {
		t.Errorf("the stored game's PGN: %d imported tags, %d bytes", n, rec.Body.Len())
	}
	for _, h := range []hit{
		{method: http.MethodGet, target: "/?pgn=" + url.QueryEscape(paddedPGN(16<<10))},
		// Longer than a link may carry: posted, it is read.
		{method: http.MethodPost, target: "/import", form: vals("text", paddedPGN(64<<10))},
		{method: http.MethodPost, target: "/api/games", json: pgnJSON(paddedPGN(64 << 10))},
	} {
		rec := h.serve(t, e)
		if rec.Code != http.StatusSeeOther && rec.Code != http.StatusCreated {
			t.Errorf("%s %.40s: %d %.200s", h.method, h.target, rec.Code, rec.Body)
		}
		if h.target == "/api/games" && rec.Body.Len() > 16<<10 {
			t.Errorf("a posted PGN's escape line is kept: %d bytes", rec.Body.Len())
		}
	}
}

// TestEchoesClipped: a refusal quotes at most 40 characters of anything a
// request sent, cut between characters, on pages and in the API.
func TestEchoesClipped(t *testing.T) {
	long := strings.Repeat("é", 3555)
	e := limited(newTestClock())
	ck, id := startSession(t, e, "")
	q := url.QueryEscape(long)
	for _, h := range []hit{
		{method: http.MethodGet, target: "/?a=&v=" + q},
		{method: http.MethodGet, target: "/?a=" + q},
		{method: http.MethodGet, target: "/?a=&end=" + q},
		{method: http.MethodGet, target: "/?pgn=" + q},
		{method: http.MethodGet, target: "/g/" + id + "?sel=" + q},
		{method: http.MethodGet, target: "/g/" + id + "/history/" + q},
		{method: http.MethodGet, target: "/nowhere/" + q},
		{method: http.MethodPost, target: "/new", form: vals("variant", long)},
		{method: http.MethodPost, target: "/import", form: vals("text", "1. "+long)},
		{method: http.MethodPost, target: "/g/" + id + "/ply", form: vals("from", long)},
		{method: http.MethodPost, target: "/g/" + id + "/ply", form: vals("from", "e2", "to", "e4", "promotion", long)},
		{method: http.MethodPost, target: "/g/" + id + "/ply", form: vals("ply", long, "text", "e4")},
		{method: http.MethodPost, target: "/g/" + id + "/resign", form: vals("side", long)},
		{method: http.MethodPost, target: "/api/games", json: `{"variant":"` + long + `"}`},
		{method: http.MethodPost, target: "/api/games", json: `{"fen":"8/8/8/8/8/8/8/8 ` + long + `"}`},
		{method: http.MethodPost, target: "/api/games", json: `{"` + long + `":"x"}`},
		{method: http.MethodPost, target: "/api/games/" + id + "/resign", json: `{"color":"` + long + `"}`},
		{method: http.MethodPost, target: "/api/games", json: `{}`, header: map[string]string{"Content-Type": "text/" + long}},
	} {
		h.cookie = ck
		rec := h.serve(t, e)
		body := rec.Body.String()
		if h.target == "/import" { // the box keeps the text as pasted
			body = errorText(parse(t, rec))
		}
		if rec.Code < 400 || strings.Contains(body, strings.Repeat("é", 41)) || !utf8.ValidString(body) {
			t.Errorf("%s %.60s: %d, echoes more than 40 characters: %.300s", h.method, h.target, rec.Code, body)
		}
	}
}
