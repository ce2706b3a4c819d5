package api

import (
	"strings"
	"testing"
)

// requestBodies are the API bodies the request benchmarks read: an
// action, a game against the computer, and a long PGN to import.
func requestBodies() map[string]string {
	var pgn strings.Builder
	for i := 1; i <= 300; i++ {
		pgn.WriteString("{banning: e2e4} Nf3 {banning: e7e5} Nf6 {banning: c2c4} Ng1 {banning: d7d5} Ng8 ")
	}
	return map[string]string{
		"action": `{"action":"b:e2e4","ply":1}`,
		"bot":    `{"variant":"ban","bot":{"color":"black","level":3}}`,
		"pgn":    `{"pgn":"` + pgn.String() + `*"}`,
	}
}

// BenchmarkDecodeRequest reads request bodies as the API does.
func BenchmarkDecodeRequest(b *testing.B) {
	newRequest := map[string]func() any{
		"action": func() any { return &actionRequest{} },
		"bot":    func() any { return &createRequest{} },
		"pgn":    func() any { return &createRequest{} },
	}
	for name, body := range requestBodies() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := decodeObject([]byte(body), newRequest[name](), ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
