package botclient_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/botclient"
	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/handlers"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/uci"
)

// server is the real handlers on the services, on a loopback port.
type server struct {
	t    *testing.T
	url  string
	site testsite.Site
}

func newServer(t *testing.T) *server {
	t.Helper()
	site := testsite.New(nil, testsite.Config{LobbyAsMain: true})
	t.Cleanup(site.Close)
	h := handlers.New(handlers.Services{Games: site.Games, Players: site.Players, Lobby: site.Lobby, Analysis: site.Analysis,
		Chat: site.Chat, Challenges: site.Challenges}, nil)
	e := echo.New()
	h.Register(e)
	srv := httptest.NewServer(e)
	t.Cleanup(func() { h.CloseStreams(); srv.Close() })
	return &server{t: t, url: srv.URL, site: site}
}

// do sends method path as token with a form body, and answers the
// status and body.
func (s *server) do(token, method, path, form, ct string) (int, []byte) {
	s.t.Helper()
	req, _ := http.NewRequest(method, s.url+path, strings.NewReader(form))
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, data
}

// account names a new player and answers their token.
func (s *server) account(name string) string {
	s.t.Helper()
	code, data := s.do("", http.MethodPost, "/api/account", `{"name":"`+name+`","password":"a long secret"}`, "application/json")
	var tok struct{ Token string }
	if err := json.Unmarshal(data, &tok); code != http.StatusCreated || err != nil {
		s.t.Fatalf("account %s: %d %s", name, code, data)
	}
	return tok.Token
}

// inProcess starts our engine in this process for each game, counting
// those running.
func inProcess(running *sync.WaitGroup) botclient.Starter {
	return func(ctx context.Context) (botclient.Process, error) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		ctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		running.Add(1)
		go func() {
			defer running.Done()
			defer close(done)
			uci.Run(ctx, inR, outW)
			outW.Close()
		}()
		return botclient.Process{In: inW, Out: outR, Stop: func() error {
			inW.Close()
			cancel()
			<-done
			return nil
		}}, nil
	}
}

// smallHash is the engine's options for the tests: a small hash table,
// which ucinewgame clears (32 MiB by default: seconds under the race
// detector).
func smallHash() map[string]string { return map[string]string{"Hash": "1"} }

// syncBuffer is a log kept for the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// dropping cuts the first game stream the bot reads after a few lines,
// as a network would: the bot must open it again.
type dropping struct {
	once sync.Once
	cut  chan struct{} // closed once a stream was cut
}

func (d *dropping) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(req)
	if err == nil && strings.Contains(req.URL.Path, "/game/stream/") {
		d.once.Do(func() { res.Body = &cutBody{ReadCloser: res.Body, lines: 4, cut: d.cut} })
	}
	return res, err
}

// cutBody ends its stream (EOF) after lines lines.
type cutBody struct {
	io.ReadCloser
	lines int
	cut   chan struct{}
}

func (b *cutBody) Read(p []byte) (int, error) {
	if b.lines <= 0 {
		return 0, io.EOF
	}
	n, err := b.ReadCloser.Read(p)
	for i := range n {
		if p[i] == '\n' {
			if b.lines--; b.lines == 0 {
				close(b.cut)
				return i + 1, nil
			}
		}
	}
	return n, err
}

// TestBotPlaysAChallenge: "banchess bot" with our engine, on a bot
// account, declines a challenge of a variant it was not told to accept,
// accepts a Ban Chess challenge, plays its bans and moves as the game
// asks while its opponent plays through the Board API, its game's stream
// cut midway and opened again, until the game ends (by the bot's mate,
// or the opponent resigns once the bot has played a dozen plies); it
// logs the result and stops the game's engine.
func TestBotPlaysAChallenge(t *testing.T) {
	s := newServer(t)
	robo, ann := s.account("Robo"), s.account("Ann")
	if code, data := s.do(robo, http.MethodPost, "/api/bot/account/upgrade", "", ""); code != 200 {
		t.Fatalf("upgrade: %d %s", code, data)
	}
	var engines sync.WaitGroup
	logs := &syncBuffer{}
	drop := &dropping{cut: make(chan struct{})}
	bot := botclient.New(botclient.Config{Server: s.url, Token: robo, Engine: inProcess(&engines), MoveTime: 20 * time.Millisecond, Options: smallHash(),
		Variants: []string{"banchess"}, Log: slog.New(slog.NewTextHandler(logs, nil)), Client: &http.Client{Transport: drop}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- bot.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})

	// A Classic challenge is declined: variant.
	form := "application/x-www-form-urlencoded"
	challenge := func(body string) string {
		t.Helper()
		code, data := s.do(ann, http.MethodPost, "/api/challenge/Robo", body, form)
		var c struct{ ID string }
		if err := json.Unmarshal(data, &c); code != 200 || err != nil {
			t.Fatalf("challenging: %d %s", code, data)
		}
		return c.ID
	}
	await := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no %s in time; the bot's log:\n%s", what, logs)
			}
		}
	}
	ctxb := context.Background()
	id := challenge("variant=standard")
	await("the decline", func() bool {
		c, _ := s.site.Challenges.Challenge(ctxb, id)
		return c.Status == challenges.Declined && c.Reason == "variant"
	})

	id = challenge("variant=banchess&color=white&clock.limit=300&clock.increment=3")
	var game string
	await("the acceptance", func() bool {
		c, _ := s.site.Challenges.Challenge(ctxb, id)
		game = c.Game
		return c.Status == challenges.Accepted
	})

	// Ann plays White through the Board API: the first legal action
	// whenever the game waits for her, resigning once the bot has played
	// 12 plies.
	req, _ := http.NewRequest(http.MethodGet, s.url+"/api/board/game/stream/"+game, nil)
	req.Header.Set("Authorization", "Bearer "+ann)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) != "" {
				lines <- sc.Text()
			}
		}
	}()
	botPlies, status := 0, ""
	for status == "" {
		var line string
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("Ann's stream ended; the bot's log:\n%s", logs)
			}
			line = l
		case <-time.After(20 * time.Second):
			t.Fatalf("no line in time; the bot's log:\n%s", logs)
		}
		var st struct {
			Type   string
			Moves  string
			Status string
			State  *struct {
				Moves  string
				Status string
			}
		}
		json.Unmarshal([]byte(line), &st)
		if st.Type != "gameFull" && st.Type != "gameState" {
			continue // chatLine, opponentGone
		}
		if st.State != nil {
			st.Moves, st.Status = st.State.Moves, st.State.Status
		}
		if st.Status != "started" {
			status = st.Status
			break
		}
		g := rules.New(rules.BanChess{})
		plies := strings.Fields(st.Moves)
		botPlies = 0
		for _, p := range plies {
			if g.Turn().Actor == rules.Black {
				botPlies++
			}
			prefix := "m:"
			if g.Turn().Phase == rules.PhaseBan {
				prefix = "b:"
			}
			a, err := rules.ParseAction(prefix + p)
			if err == nil {
				err = g.Play(a)
			}
			if err != nil {
				t.Fatalf("the stream's ply %s: %v", p, err)
			}
		}
		if g.Outcome().Over() || g.Turn().Actor != rules.White {
			continue
		}
		path := "/api/board/game/" + game + "/move/" + g.Legal()[0].String()[2:]
		if botPlies >= 12 {
			path = "/api/board/game/" + game + "/resign"
		}
		if code, data := s.do(ann, http.MethodPost, path, "", ""); code != 200 {
			t.Fatalf("POST %s: %d %s", path, code, data)
		}
	}
	t.Logf("the game ended: %s after %d of the bot's plies", status, botPlies)
	await("the result logged", func() bool { return strings.Contains(logs.String(), "game over") && bot.Playing() == 0 })
	engines.Wait() // the game's engine stopped
	select {
	case <-drop.cut:
	default:
		t.Fatal("the game's stream was never cut")
	}
	if !strings.Contains(logs.String(), "the game's stream dropped") {
		t.Errorf("the cut stream is not in the log:\n%s", logs)
	}
	if !strings.Contains(logs.String(), "status="+status) {
		t.Errorf("the result is not logged as %s:\n%s", status, logs)
	}
}

// TestBotSeeks: with a clock to seek, a bot on an account that is not a
// bot account seeks a game in the lobby when it plays none; accepted,
// it plays the game (here aborted by its opponent at once), logs the
// end, and seeks again.
func TestBotSeeks(t *testing.T) {
	s := newServer(t)
	sam, ann := s.account("Sam"), s.account("Ann")
	var engines sync.WaitGroup
	logs := &syncBuffer{}
	bot := botclient.New(botclient.Config{Server: s.url, Token: sam, Engine: inProcess(&engines), MoveTime: 20 * time.Millisecond, Options: smallHash(),
		Seek: "5+3", Log: slog.New(slog.NewTextHandler(logs, nil))})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- bot.Run(ctx) }()
	defer func() {
		cancel()
		<-done
		engines.Wait()
	}()
	seek := func() string {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			_, data := s.do(ann, http.MethodGet, "/api/seeks", "", "")
			var page struct {
				Seeks []struct{ ID, Clock, Variant string }
			}
			json.Unmarshal(data, &page)
			if len(page.Seeks) == 1 && page.Seeks[0].Clock == "5+3" && page.Seeks[0].Variant == "ban" {
				return page.Seeks[0].ID
			}
		}
		t.Fatalf("the bot's seek is not in the lobby; its log:\n%s", logs)
		return ""
	}
	code, data := s.do(ann, http.MethodPost, "/api/seeks/"+seek()+"/accept", "", "")
	var paired struct{ Game string }
	if err := json.Unmarshal(data, &paired); code != 200 || err != nil {
		t.Fatalf("accepting the bot's seek: %d %s", code, data)
	}
	for deadline := time.Now().Add(20 * time.Second); bot.Playing() == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the bot does not play the game; its log:\n%s", logs)
		}
	}
	if code, data := s.do(ann, http.MethodPost, "/api/board/game/"+paired.Game+"/abort", "", ""); code != 200 {
		t.Fatalf("abort: %d %s", code, data)
	}
	seek() // again, once the game is over
	if !strings.Contains(logs.String(), "status=aborted") {
		t.Errorf("the aborted game is not in the log:\n%s", logs)
	}
}
