// Package botclient is "banchess bot": a client of lichess's Bot and
// Board API, in the spirit of lichess-bot, that connects a UCI engine to
// a server speaking that API (banchess, or for Classic lichess itself).
// It reads the account's stream of events, accepts the challenges its
// settings allow (declining the others with lichess's reasons), and plays
// each game with an engine process of its own: it follows the game's
// stream, asks the engine for each of its plies (in Ban Chess, bans and
// moves alike, as our UCI mode takes them) and posts them. A dropped
// stream is opened again; the games under way are told again by the
// stream of events and their streams start with every ply so far.
package botclient

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// Config says where the bot plays and how.
type Config struct {
	// Server is the server's address (https://lichess.org, or ours).
	Server string
	// Token is the account's API token (bot:play for a bot account,
	// board:play and challenge:write for another).
	Token string
	// Engine starts an engine process for each game.
	Engine Starter
	// Options are UCI options set on each engine ("Threads" → "2").
	Options map[string]string
	// Variants are the lichess keys of the variants accepted
	// ("banchess", "standard"); none: banchess and standard.
	Variants []string
	// Rated and Casual say which challenges are accepted (both when
	// neither is set).
	Rated, Casual bool
	// MoveTime, when set, has the engine search each ply that long
	// rather than by the game's clock.
	MoveTime time.Duration
	// Seek, when set ("3+2"), has a bot that is not playing seek a game
	// at that clock in the server's lobby (POST /api/board/seek: a
	// board account's, not a bot account's), again after each game.
	Seek string
	// Client sends the requests; nil is http.DefaultClient.
	Client *http.Client
	// Log gets a line for each challenge, game and result; nil: none.
	Log *slog.Logger
}

// Client is a bot connected to a server.
type Client struct {
	c       Config
	me      account
	mu      sync.Mutex
	playing map[string]bool // the games played now, by id
	wg      sync.WaitGroup
}

// account is the token's account, as /api/account answers it.
type account struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	Title    string `json:"title"`
}

// New returns a client configured by c.
func New(c Config) *Client {
	if c.Client == nil {
		c.Client = http.DefaultClient
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if len(c.Variants) == 0 {
		c.Variants = []string{"banchess", "standard"}
	}
	if !c.Rated && !c.Casual {
		c.Rated, c.Casual = true, true
	}
	c.Server = strings.TrimRight(c.Server, "/")
	return &Client{c: c, playing: map[string]bool{}}
}

// api is the path under /api of the game routes the account plays
// through: "bot" for a bot account, else "board".
func (b *Client) api() string {
	if b.me.Title == "BOT" {
		return "bot"
	}
	return "board"
}

// Run plays until ctx ends: it reads the account, then the stream of
// events, opened again whenever it drops (after a pause growing to 30 s
// while the server does not answer), and waits for the games under way
// to end before it returns.
func (b *Client) Run(ctx context.Context) error {
	if err := b.call(ctx, http.MethodGet, "/api/account", nil, &b.me); err != nil {
		return fmt.Errorf("reading the account: %w", err)
	}
	b.c.Log.Info("connected", "server", b.c.Server, "account", b.me.Username, "api", b.api())
	if b.c.Seek != "" {
		b.wg.Go(func() { b.seeking(ctx) })
	}
	pause := time.Second
	for ctx.Err() == nil {
		start := time.Now()
		err := b.stream(ctx, "/api/stream/event", b.event)
		if ctx.Err() != nil {
			break
		}
		if time.Since(start) > time.Minute {
			pause = time.Second
		}
		b.c.Log.Warn("the stream of events dropped: opening it again", "err", err, "in", pause)
		select {
		case <-time.After(pause):
		case <-ctx.Done():
		}
		pause = min(2*pause, 30*time.Second)
	}
	b.wg.Wait()
	return nil
}

// event handles a line of the stream of events.
func (b *Client) event(ctx context.Context, line []byte) error {
	var ev struct {
		Type      string    `json:"type"`
		Game      gameEvent `json:"game"`
		Challenge challenge `json:"challenge"`
	}
	if err := json.Unmarshal(line, &ev); err != nil {
		return fmt.Errorf("an event that is not JSON: %w", err)
	}
	switch ev.Type {
	case "challenge":
		b.answer(ctx, ev.Challenge)
	case "gameStart":
		b.start(ctx, ev.Game)
	case "gameFinish": // the game's own stream has told its end
		b.c.Log.Debug("gameFinish", "game", ev.Game.GameID, "status", ev.Game.Status.Name, "winner", ev.Game.Winner)
	}
	return nil
}

// challenge is what the bot reads of a challenge.
type challenge struct {
	ID         string `json:"id"`
	Status     string `json:"status"`
	Rated      bool   `json:"rated"`
	Challenger struct {
		ID string `json:"id"`
	} `json:"challenger"`
	DestUser struct {
		ID string `json:"id"`
	} `json:"destUser"`
	Variant struct {
		Key string `json:"key"`
	} `json:"variant"`
}

// answer accepts a challenge to the bot that its settings allow, and
// declines the others with lichess's reason.
func (b *Client) answer(ctx context.Context, c challenge) {
	if c.DestUser.ID != b.me.ID || c.Status != "created" {
		return
	}
	reason := ""
	switch {
	case !slices.Contains(b.c.Variants, c.Variant.Key):
		reason = "variant"
	case c.Rated && !b.c.Rated:
		reason = "casual"
	case !c.Rated && !b.c.Casual:
		reason = "rated"
	}
	if reason != "" {
		b.c.Log.Info("declining a challenge", "challenge", c.ID, "from", c.Challenger.ID, "reason", reason)
		if err := b.call(ctx, http.MethodPost, "/api/challenge/"+c.ID+"/decline", url.Values{"reason": {reason}}, nil); err != nil {
			b.c.Log.Warn("declining a challenge", "challenge", c.ID, "err", err)
		}
		return
	}
	b.c.Log.Info("accepting a challenge", "challenge", c.ID, "from", c.Challenger.ID, "variant", c.Variant.Key, "rated", c.Rated)
	if err := b.call(ctx, http.MethodPost, "/api/challenge/"+c.ID+"/accept", nil, nil); err != nil {
		b.c.Log.Warn("accepting a challenge", "challenge", c.ID, "err", err)
	}
}

// start plays game g in a goroutine of its own, unless it is played
// already.
func (b *Client) start(ctx context.Context, g gameEvent) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.playing[g.GameID] {
		return
	}
	b.playing[g.GameID] = true
	b.wg.Go(func() {
		defer func() {
			b.mu.Lock()
			delete(b.playing, g.GameID)
			b.mu.Unlock()
		}()
		if err := b.play(ctx, g.GameID); err != nil && ctx.Err() == nil {
			b.c.Log.Error("playing a game", "game", g.GameID, "err", err)
		}
	})
}

// Playing counts the games played now.
func (b *Client) Playing() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.playing)
}

// apiError is a refusal in lichess's shape.
type apiError struct {
	Status int
	Msg    string `json:"error"`
}

func (e *apiError) Error() string { return fmt.Sprintf("%d: %s", e.Status, e.Msg) }

// call sends method path with form (nil: no body) and decodes the
// answer into out (nil: none).
func (b *Client) call(ctx context.Context, method, path string, form url.Values, out any) error {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, b.c.Server+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+b.c.Token)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	res, err := b.c.Client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		e := &apiError{Status: res.StatusCode}
		if json.Unmarshal(data, e) != nil || e.Msg == "" {
			e.Msg = strings.TrimSpace(string(data))
		}
		return e
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// stream reads the NDJSON stream at path, giving each line that is not
// empty to fn, until it ends (an error) or fn fails.
func (b *Client) stream(ctx context.Context, path string, fn func(context.Context, []byte) error) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.c.Server+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+b.c.Token)
	res, err := b.c.Client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
		e := &apiError{Status: res.StatusCode}
		if json.Unmarshal(data, e) != nil || e.Msg == "" {
			e.Msg = strings.TrimSpace(string(data))
		}
		return e
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		if err := fn(ctx, line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return errors.New("the stream ended")
}
