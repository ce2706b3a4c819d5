package handlers

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// BenchmarkAPIRequest serves whole API requests: creating a game, and an
// action (each op plays a ban and undoes it).
func BenchmarkAPIRequest(b *testing.B) {
	e := echo.New()
	New(newService(nil), apiClock).Register(e)
	post := func(path, token, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		return rec
	}
	b.Run("create", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if rec := post("/api/games?fields=id", "", `{"variant":"ban","mode":"hotseat"}`); rec.Code != http.StatusCreated {
				b.Fatal(rec.Code, rec.Body)
			}
		}
	})
	b.Run("action", func(b *testing.B) {
		rec := post("/api/games", "", `{}`)
		id := between(rec.Body.String(), `"id":"`, `"`)
		token := between(rec.Body.String(), `"token":"`, `"`)
		b.ReportAllocs()
		for b.Loop() {
			if rec := post("/api/games/"+id+"/actions?fields=ply", token, `{"action":"b:e2e4","ply":1}`); rec.Code != http.StatusOK {
				b.Fatal(rec.Code, rec.Body)
			}
			if rec := post("/api/games/"+id+"/undo?fields=ply", token, ``); rec.Code != http.StatusOK {
				b.Fatal(rec.Code, rec.Body)
			}
		}
	})
}

// between is the text of s after the first open up to the next close.
func between(s, open, close string) string {
	_, rest, _ := strings.Cut(s, open)
	v, _, _ := strings.Cut(rest, close)
	return v
}
