package loadtest

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// kind is what a session drives.
type kind int

const (
	htmlKind    kind = iota // the playground's htmx endpoints
	apiKind                 // the JSON API
	trivialKind             // GET /_trivial, the floor
	healthKind              // GET /healthz, which pings the store
)

func (k kind) String() string { return [...]string{"html", "api", "trivial", "healthz"}[k] }

// plays reports whether k's sessions play games (rather than ask one
// route again and again).
func (k kind) plays() bool { return k == htmlKind || k == apiKind }

// session is one client playing one game at a time: a browser with its
// cookie (html) or a program holding a game id (api). It keeps a mirror of
// its game to choose random legal actions without asking the server.
type session struct {
	kind     kind
	base     string
	client   *http.Client
	rng      *rand.Rand
	maxPlies int // end a game after this many plies; 0: play it to its end

	cookie string      // html: the browser's credential, "banchess_player=…"
	token  string      // api: the bearer token that holds the game's seats
	id     string      // the game's id
	fen    string      // api: the FEN of the last answer
	fields string      // api: the ?fields= of its plies ("": the whole game object)
	game   *rules.Game // the mirror; nil before the first game
	buf    bytes.Buffer
	header http.Header // more headers each request sends (a browser's Accept-Encoding, say)
}

// newSessions returns n sessions of kind against srv, seeded by seed. With
// maxPlies, each session's first game is already some way into its course
// (0 to maxPlies-1 random plies, stored directly in srv's store), so that
// from the first ply the sessions' games are spread over every stage, as
// they are later.
func newSessions(srv *server, k kind, n, maxPlies int, seed uint64) ([]*session, error) {
	client := &http.Client{Transport: srv.transport, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	ss := make([]*session, n)
	for i := range ss {
		s := &session{kind: k, base: srv.url, client: client, maxPlies: maxPlies,
			rng: rand.New(rand.NewPCG(seed, uint64(i)))}
		if maxPlies > 0 && k.plays() && srv.games.Games != nil { // apart, the server's store is out of reach
			g, _ := randomGame(s.rng, s.rng.IntN(maxPlies))
			if !g.Outcome().Over() {
				mirror, err := rules.Restore(g.Snapshot())
				if err != nil {
					return nil, err
				}
				cred, _, err := srv.games.Players.NewPlayer(context.Background(), players.Cookie)
				if err != nil {
					return nil, err
				}
				id, err := srv.games.Games.Create(context.Background(), cred, g)
				if err != nil {
					return nil, err
				}
				s.id, s.game = id, mirror
				if k == htmlKind {
					s.cookie = "banchess_player=" + string(cred)
				} else {
					s.token = string(cred)
				}
			}
		}
		ss[i] = s
	}
	return ss, nil
}

// result is what a run of sessions measured.
type result struct {
	ops     int             // plies (requests, for trivial) answered as expected
	errors  int             // plies (requests) that failed
	games   int             // games started
	elapsed time.Duration   // wall time of the run
	cpu     time.Duration   // CPU time the process (client and server) used in it
	lat     []time.Duration // per ply (request), sorted
	first   error           // the first failure
}

// perSecond is the rate of successful plies (requests).
func (r result) perSecond() float64 { return float64(r.ops) / r.elapsed.Seconds() }

// quantile returns the latency below which a fraction q of plies fell.
func (r result) quantile(q float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	return r.lat[min(len(r.lat)-1, int(q*float64(len(r.lat))))]
}

// run has the sessions take n plies (requests) between them and measures
// them. With rate 0 each session sends its next ply as soon as the last is
// answered (a closed loop: the server's throughput); otherwise each sends
// one every len(ss)/rate seconds, so that they offer rate plies a second in
// all, and a ply's latency counts from when it was due, so that a server
// falling behind shows in it. start, when not nil, is called when every
// session is ready, just before the clock starts.
func run(ss []*session, n int, rate float64, start func()) result {
	var (
		left  atomic.Int64
		wg    sync.WaitGroup
		mu    sync.Mutex
		total result
	)
	left.Store(int64(n))
	var period time.Duration
	if rate > 0 {
		period = time.Duration(float64(len(ss)) / rate * float64(time.Second))
	}
	gate := make(chan struct{})
	var t0 time.Time
	for i, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat := make([]time.Duration, 0, n/len(ss)+1)
			var r result
			<-gate
			due := time.Time{}
			if period > 0 { // spread the sessions' first plies over a period
				due = t0.Add(period * time.Duration(i) / time.Duration(len(ss)))
			}
			for left.Add(-1) >= 0 {
				d, err := s.step(&r, due)
				if period > 0 {
					due = due.Add(period)
				}
				if err != nil {
					r.errors++
					if r.first == nil {
						r.first = err
					}
					s.game = nil // start afresh
					continue
				}
				lat = append(lat, d)
				r.ops++
			}
			mu.Lock()
			defer mu.Unlock()
			total.ops += r.ops
			total.errors += r.errors
			total.games += r.games
			total.lat = append(total.lat, lat...)
			if total.first == nil {
				total.first = r.first
			}
		}()
	}
	if start != nil {
		start()
	}
	cpu0 := cpuTime()
	t0 = time.Now()
	close(gate)
	wg.Wait()
	total.elapsed = time.Since(t0)
	total.cpu = cpuTime() - cpu0
	slices.Sort(total.lat)
	return total
}

// step takes one ply (one request, for trivial) and returns its latency. A
// session without a game, or whose game has ended, starts a new one first:
// that request counts in the run's time, not in the ply's latency. A ply
// with a due time waits for it, and its latency counts from it.
func (s *session) step(r *result, due time.Time) (time.Duration, error) {
	if s.kind.plays() && (s.game == nil || s.game.Outcome().Over() || s.maxPlies > 0 && s.game.Ply() > s.maxPlies) {
		if err := s.newGame(); err != nil {
			return 0, err
		}
		r.games++
	}
	var a rules.Action
	if s.kind.plays() {
		legal := s.game.Legal()
		a = legal[s.rng.IntN(len(legal))]
	}
	t0 := time.Now()
	if !due.IsZero() {
		time.Sleep(due.Sub(t0)) // returns at once when the ply is late
		t0 = due
	}
	var err error
	switch s.kind {
	case trivialKind:
		err := s.ask(trivialPath, "ok")
		return time.Since(t0), err
	case healthKind:
		err := s.ask("/healthz", "")
		return time.Since(t0), err
	case htmlKind:
		err = s.htmlPly(a)
	default:
		err = s.apiPly(a)
	}
	d := time.Since(t0)
	if err != nil {
		return d, err
	}
	if err := s.game.Play(a); err != nil {
		return d, fmt.Errorf("the mirror refused %s, which the server took: %w", a, err)
	}
	if s.kind == apiKind {
		// The FEN the API answered, checked against the mirror's.
		if want := s.game.FEN(); s.fen != want {
			return d, fmt.Errorf("after %s the API's FEN is %q, want %q", a, s.fen, want)
		}
	}
	return d, nil
}

// do sends a request and reads the answer into s.buf; it fails unless the
// status is want.
func (s *session) do(req *http.Request, want int) (*http.Response, error) {
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	s.buf.Reset()
	body := io.Reader(resp.Body)
	if resp.Header.Get("Content-Encoding") == "gzip" { // asked for by s.header: the transport left it
		if body, err = gzip.NewReader(resp.Body); err != nil {
			return nil, fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, err)
		}
	}
	if _, err := s.buf.ReadFrom(body); err != nil {
		return nil, fmt.Errorf("%s %s: reading the answer: %w", req.Method, req.URL.Path, err)
	}
	if resp.StatusCode != want {
		return nil, fmt.Errorf("%s %s: status %d, want %d: %.200s", req.Method, req.URL.Path, resp.StatusCode, want, s.buf.Bytes())
	}
	return resp, nil
}

// post sends body (of content type ct) to path, as htmx does when hx.
func (s *session) post(path, ct, body string, hx bool, want int) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, s.base+path, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", ct)
	for name, vs := range s.header {
		req.Header[name] = vs
	}
	if hx {
		req.Header.Set("HX-Request", "true")
	}
	if s.cookie != "" {
		req.Header.Set("Cookie", s.cookie)
	}
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	return s.do(req, want)
}

const formType = "application/x-www-form-urlencoded"

// newGame starts a Ban Chess game: the New game button, or POST /api/games.
func (s *session) newGame() error {
	s.game = nil
	switch s.kind {
	case htmlKind:
		resp, err := s.post("/new", formType, "variant=ban", true, http.StatusOK)
		if err != nil {
			return err
		}
		for _, c := range resp.Cookies() {
			if c.Name == "banchess_player" {
				s.cookie = c.Name + "=" + c.Value
			}
		}
		id, ok := strings.CutPrefix(resp.Header.Get("HX-Push-Url"), "/g/")
		if s.cookie == "" || !ok || id == "" {
			return fmt.Errorf("POST /new gave no player cookie or no game address (HX-Push-Url %q)", resp.Header.Get("HX-Push-Url"))
		}
		s.id = id
	case apiKind:
		if _, err := s.post("/api/games", "application/json", "{}", false, http.StatusCreated); err != nil {
			return err
		}
		id, err := jsonString(s.buf.Bytes(), "id")
		if err != nil {
			return fmt.Errorf("POST /api/games: %w", err)
		}
		if s.token, err = jsonString(s.buf.Bytes(), "token"); err != nil {
			return fmt.Errorf("POST /api/games: %w", err)
		}
		s.id = id
	}
	s.game = rules.New(rules.BanChess{})
	return nil
}

// htmlPly posts a as a click on its destination square sends it (the piece
// picked in the page, without a request), with the promotion piece a
// promotion picker would add, and checks the fragment is at the next ply.
func (s *session) htmlPly(a rules.Action) error {
	body := "from=" + a.From.String() + "&to=" + a.To.String() + "&ply=" + strconv.Itoa(s.game.Ply())
	if a.Promotion != 0 {
		body += "&promotion=" + string(a.Promotion.Letter()|0x20)
	}
	if _, err := s.post("/g/"+s.id+"/ply", formType, body, true, http.StatusOK); err != nil {
		return err
	}
	want := `data-ply="` + strconv.Itoa(s.game.Ply()+1) + `"`
	if !bytes.Contains(s.buf.Bytes(), []byte(want)) {
		return fmt.Errorf("POST /g/%s/ply %s: the fragment has no %s", s.id, body, want)
	}
	return nil
}

// apiPly posts a to the API and keeps the FEN it answers in s.fen.
func (s *session) apiPly(a rules.Action) error {
	path := "/api/games/" + s.id + "/actions"
	if s.fields != "" {
		path += "?fields=" + s.fields
	}
	if _, err := s.post(path, "application/json", `{"action":"`+a.String()+`"}`, false, http.StatusOK); err != nil {
		return err
	}
	fen, err := jsonString(s.buf.Bytes(), "fen")
	s.fen = fen
	return err
}

// ask gets path, which must answer 200 (and want, unless want is "").
func (s *session) ask(path, want string) error {
	req, err := http.NewRequest(http.MethodGet, s.base+path, nil)
	if err != nil {
		return err
	}
	if _, err := s.do(req, http.StatusOK); err != nil {
		return err
	}
	if want != "" && s.buf.String() != want {
		return fmt.Errorf("GET %s: %q", path, s.buf.Bytes())
	}
	return nil
}

// jsonString finds the first string member name in a JSON object without
// decoding the rest: enough for ids and FENs, which need no escapes.
func jsonString(body []byte, name string) (string, error) {
	key := []byte(`"` + name + `":"`)
	i := bytes.Index(body, key)
	if i < 0 {
		return "", fmt.Errorf("no %q in %.200s", name, body)
	}
	rest := body[i+len(key):]
	j := bytes.IndexAny(rest, `"\`)
	if j < 0 || rest[j] != '"' {
		return "", fmt.Errorf("%q is not a plain string in %.200s", name, body)
	}
	return string(rest[:j]), nil
}
