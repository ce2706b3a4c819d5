package handlers

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/puzzles"
)

// unzip reads the files of a zip.
func unzip(t *testing.T, body []byte) map[string]string {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	files := map[string]string{}
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name] = string(b)
	}
	return files
}

// TestExport: Ann downloads her data with her token and from the account
// page: a zip with her account, ratings, the game she played as PGN, the
// chat lines she wrote (not Bob's) and her puzzle history; without a
// credential it is refused.
func TestExport(t *testing.T) {
	svc := newService(nil)
	t.Cleanup(closer(svc))
	e := echo.New()
	New(svc, apiClock).Register(e)
	a := newAPIT(t, e)
	ann, bob := a.account("Ann"), a.account("Bob")
	id := a.chatGame(ann, bob)
	for _, l := range []struct{ token, text string }{{ann, "good luck"}, {bob, "have fun"}} {
		if r := a.doAs(l.token, http.MethodPost, "/api/games/"+id+"/chat", `{"text":"`+l.text+`","room":"player"}`); r.code != http.StatusCreated {
			t.Fatalf("chat %q: %d %s", l.text, r.code, r.body)
		}
	}
	for i, act := range []string{"b:e2e4", "m:d2d4"} {
		if r := a.doAs([]string{bob, ann}[i], http.MethodPost, "/api/games/"+id+"/actions", `{"action":"`+act+`"}`); r.code != http.StatusOK {
			t.Fatalf("%s: %d %s", act, r.code, r.body)
		}
	}
	if r := a.doAs(ann, http.MethodPost, "/api/games/"+id+"/resign", `{"color":"white"}`); r.code != http.StatusOK {
		t.Fatalf("resigning: %d %s", r.code, r.body)
	}

	r := a.doAs(ann, http.MethodGet, "/api/account/export", "")
	if r.code != http.StatusOK || r.hdr.Get("Content-Type") != "application/zip" || r.hdr.Get("Cache-Control") != "no-store" {
		t.Fatalf("the export: %d %v", r.code, r.hdr)
	}
	if len(r.body) < 22 || !bytes.Contains(r.body[len(r.body)-22:], []byte("PK\x05\x06")) {
		t.Fatalf("the export ends unfinished: %q", r.body[max(0, len(r.body)-200):])
	}
	files := unzip(t, r.body)
	for _, name := range []string{"README.txt", "account.json", "ratings.json", "games.pgn", "chat.json", "puzzles.json"} {
		if _, ok := files[name]; !ok {
			t.Errorf("no %s in %v", name, files)
		}
	}
	var account struct {
		Name, Created string
		Settings      struct{ ChatOff bool }
	}
	if err := json.Unmarshal([]byte(files["account.json"]), &account); err != nil || account.Name != "Ann" || account.Created == "" {
		t.Errorf("account.json: %s (%v)", files["account.json"], err)
	}
	if pgn := files["games.pgn"]; !strings.Contains(pgn, `[White "Ann"]`) || !strings.Contains(pgn, `[Black "Bob"]`) || !strings.Contains(pgn, "0-1") {
		t.Errorf("games.pgn: %s", pgn)
	}
	var lines []struct{ Game, Room, Text string }
	if err := json.Unmarshal([]byte(files["chat.json"]), &lines); err != nil || len(lines) != 1 || lines[0].Text != "good luck" || lines[0].Game != id {
		t.Errorf("chat.json: %s (%v)", files["chat.json"], err)
	}
	if files["puzzles.json"] != "[]\n" || files["ratings.json"] == "" {
		t.Errorf("puzzles.json %q, ratings.json %q", files["puzzles.json"], files["ratings.json"])
	}

	// From the account page, with the cookie.
	cy := newClientOn(t, e)
	cy.register("Cy")
	if d := cy.get("/account"); d.Find(`a#download-data[href="/account/export"]`).Length() != 1 {
		t.Error("the account page has no download link")
	}
	rec := cy.do(http.MethodGet, "/account/export", nil, false)
	if rec.Code != http.StatusOK || !strings.Contains(unzip(t, rec.Body.Bytes())["account.json"], `"Cy"`) {
		t.Errorf("the page's export: %d", rec.Code)
	}
	// No credential: refused, in JSON on the API.
	if r := a.doAs("", http.MethodGet, "/api/account/export", ""); r.code != http.StatusUnauthorized || !strings.Contains(r.hdr.Get("Content-Type"), "json") {
		t.Errorf("the export without a token: %d %s", r.code, r.body)
	}
	if rec := newClientOn(t, e).do(http.MethodGet, "/account/export", nil, false); rec.Code != http.StatusUnauthorized {
		t.Errorf("the export without a cookie: %d", rec.Code)
	}
}

// TestExportPuzzles: a puzzle solved is in the download's puzzle history.
func TestExportPuzzles(t *testing.T) {
	a := newAPIT(t, newTrainingServer(t, nil))
	token := a.account("Pia")
	var p struct {
		ID       string
		FEN      string
		Solution []string
	}
	a.decode(a.doAs(token, http.MethodGet, "/api/puzzles/next", ""), http.StatusOK, &p)
	a.decode(a.do(http.MethodGet, "/api/puzzles/"+p.ID, ""), http.StatusOK, &p)
	actions, _ := json.Marshal(solverActions(t, puzzles.Puzzle{FEN: p.FEN, Solution: p.Solution}))
	if r := a.doAs(token, http.MethodPost, "/api/puzzles/"+p.ID+"/attempt", `{"actions":`+string(actions)+`}`); r.code != http.StatusOK {
		t.Fatalf("the attempt: %d %s", r.code, r.body)
	}
	r := a.doAs(token, http.MethodGet, "/api/account/export", "")
	var history []struct {
		Puzzle  string
		Solved  bool
		Actions []string
	}
	if err := json.Unmarshal([]byte(unzip(t, r.body)["puzzles.json"]), &history); err != nil || len(history) != 1 || history[0].Puzzle != p.ID || !history[0].Solved {
		t.Errorf("puzzles.json: %+v (%v)", history, err)
	}
}

// solverActions are the solver's actions of p's solution, without the
// replies: what an attempt gives.
func solverActions(t *testing.T, p puzzles.Puzzle) []string {
	t.Helper()
	g, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	line, err := p.Line()
	if err != nil {
		t.Fatal(err)
	}
	solver := g.Turn().Actor
	var mine []string
	for _, a := range line {
		if g.Turn().Actor == solver {
			mine = append(mine, a.String())
		}
		if err := g.Play(a); err != nil {
			t.Fatal(err)
		}
	}
	return mine
}
