package analysis

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/review"
	"github.com/banchess/banchess/rules"
)

// ReviewStatus says where a game's review stands.
type ReviewStatus string

// The statuses of a review.
const (
	ReviewQueued  ReviewStatus = "queued"  // waiting for the server's reviewer
	ReviewRunning ReviewStatus = "running" // its positions are being searched
	ReviewDone    ReviewStatus = "done"
)

// StoredReview is a game's review as a ReviewStore keeps it: which state
// of the game it reviews, who runs it, and the positions evaluated so far
// (package review builds the plies from them).
type StoredReview struct {
	GameID string
	// Key names the game reviewed: its variant, start and plies (see
	// reviewKey). A game played on since has another key, and the review
	// stored is not its review.
	Key    string
	Status ReviewStatus
	// Owner is the server that queued or runs the review, and Lease the
	// time until which it holds it: it renews the lease while it works,
	// and once the lease has run out another server may take the review
	// over and resume it from Positions.
	Owner string
	Lease time.Time
	// Place is a queued review's place in its server's queue (1 starts
	// next).
	Place int
	// Total is the positions to evaluate: the game's plies and one.
	Total     int
	Positions []review.Position
}

// ReviewStore keeps reviews beside the games. A Store that implements it
// (all of package store's do) lets the service review games.
type ReviewStore interface {
	// LoadReview returns game id's review; ok is false when none is stored.
	LoadReview(ctx context.Context, id string) (rev StoredReview, ok bool, err error)
	// ClaimReview stores rev, held by rev.Owner, unless the review stored
	// for its game is of the same Key and either done or held by another
	// owner whose lease runs past now (a lease up to now has run out); it
	// reports whether it stored rev.
	ClaimReview(ctx context.Context, rev StoredReview, now time.Time) (bool, error)
	// SaveReview rewrites rev's status, lease, place and positions if the
	// review stored for its game is still rev.Owner's and of rev.Key; it
	// reports whether it did.
	SaveReview(ctx context.Context, rev StoredReview) (bool, error)
}

// Defaults of ReviewSettings.
const (
	DefaultReviewQueue = 8
	DefaultReviewLease = 30 * time.Second
)

// Bounds on what one requester holds and what one review costs.
const (
	// MaxReviewsPerRequester is how many reviews one player, and one
	// client address, may have queued or running on a server at once:
	// with the queue's eight places, a client can no longer take them all.
	MaxReviewsPerRequester = 2
	// DefaultReviewPlies is how many plies of a game a review evaluates
	// unless ReviewSettings say: the first 400 (401 searches of
	// review.DefaultLimits' 100,000 nodes at most); a longer game's review
	// ends there. Few games go that long, and a review's time grows with
	// its plies.
	DefaultReviewPlies = 400
)

// Requester is who asks for a review: the player asking ("" for none)
// and their client's address (as the front end keys clients; "" for
// none). Each is held to MaxReviewsPerRequester, and the queue takes
// turns among requesters (by address, else by player).
type Requester struct{ Player, Addr string }

// turnKey is the requester whose turn the queue keeps.
func (q Requester) turnKey() string {
	if q.Addr != "" {
		return "addr:" + q.Addr
	}
	return "player:" + q.Player
}

// ReviewSettings tune the reviews a server runs.
type ReviewSettings struct {
	// Queue is how many reviews may wait on this server besides the one
	// running (DefaultReviewQueue when 0); beyond, a request is refused.
	Queue int
	// Limits bound each position's search (review.DefaultLimits when
	// zero).
	Limits engine.Limits
	// Plies is how many of a game's plies a review evaluates, the first
	// ones (DefaultReviewPlies when 0).
	Plies int
	// Lease is how long a server holds a review without renewing it
	// (DefaultReviewLease when 0): a review whose server died is resumed
	// by the next request to any server once it has run out.
	Lease time.Duration
}

// ReviewState is a review as the service answers it: where it stands,
// and what it has found so far.
type ReviewState struct {
	Status ReviewStatus
	// Place, while queued, is the review's place in its server's queue:
	// 1 starts next.
	Place int
	// Progress is the share of positions evaluated, from 0 to 1.
	Progress float64
	// Review holds the plies reviewed so far, and each side's summary.
	review.Review
}

// RequestReview starts a review of game id as it stands now, in the
// background, or answers the review of it that is stored or under way.
// A game between two players is locked until it ends (as its analysis
// is); a game with no ply has nothing to review. A review holds the
// engine one position at a time, behind the computer's plies; this
// server runs one review at a time, and queues up to ReviewSettings.Queue
// more, at most MaxReviewsPerRequester of them by's (TooMany,
// "too_many_reviews"), taking turns among requesters. A review evaluates
// the game's first ReviewSettings.Plies plies at most (400 by default).
func (s *Service) RequestReview(ctx context.Context, id string, by Requester) (ReviewState, error) {
	return s.reviewOf(ctx, id, &by)
}

// Review answers game id's review, as RequestReview does, without
// starting one: NotFound ("no_review") when the game as it stands has
// none. A review whose server stopped holding it is resumed here.
func (s *Service) Review(ctx context.Context, id string) (ReviewState, error) {
	return s.reviewOf(ctx, id, nil)
}

// errReviewLost stops a review whose stored record another server (or a
// newer review of the game) has taken over.
var errReviewLost = errors.New("analysis: the review is held by another server now")

// reviewOf answers game id's review, starting it for by when not nil.
func (s *Service) reviewOf(ctx context.Context, id string, by *Requester) (ReviewState, error) {
	start := by != nil
	rs, ok := s.store, s.store != nil
	if !ok || s.analyser == nil {
		return ReviewState{}, errs.Internalf(errors.New("no review store or no engine"), "reviewing game %s", id)
	}
	job, err := s.reviewJobOf(ctx, id)
	if err != nil {
		return ReviewState{}, err
	}
	if by != nil {
		job.by = *by
	}
	r := &s.reviews
	if st, ok := r.local(job); ok {
		return st, nil
	}
	stored, found, err := rs.LoadReview(ctx, id)
	if err != nil {
		return ReviewState{}, errs.Internalf(err, "loading the review of game %s", id)
	}
	now := s.now()
	resume := found && stored.Key == job.key
	switch {
	case resume && (stored.Status == ReviewDone || stored.Lease.After(now)):
		return stateOf(stored, job.game), nil
	case resume:
		job.done = stored.Positions[:min(len(stored.Positions), job.total)] // its server stopped: go on from what it saved
	case !start:
		return ReviewState{}, errs.Errorf(errs.NotFound, "This game, as it stands, has no review yet: ask for one.").WithDetail(errs.NoReview)
	}
	st, err := s.enqueueReview(ctx, rs, job)
	if errors.Is(err, errReviewLost) { // another server claimed it meanwhile
		if stored, found, err = rs.LoadReview(ctx, id); err == nil && found && stored.Key == job.key {
			return stateOf(stored, job.game), nil
		}
		return ReviewState{}, errs.Errorf(errs.Conflict, "Another server has just started a review of this game; ask again.")
	}
	if err != nil && resume && !start && errs.Of(err).Code == errs.TooMany {
		return stateOf(stored, job.game), nil // stalled, until a server has room for it
	}
	return st, err
}

// FinishedReview returns game id's stored review when it is done; ok is
// false when none is (or the store keeps no reviews). Its Of gives the
// review of the game as it stands, for its PGN.
func (s *Service) FinishedReview(ctx context.Context, id string) (rev StoredReview, ok bool, err error) {
	rs, keeps := s.store, s.store != nil
	if !keeps {
		return StoredReview{}, false, nil
	}
	rev, ok, err = rs.LoadReview(ctx, id)
	if err != nil {
		return StoredReview{}, false, errs.Internalf(err, "loading the review of game %s", id)
	}
	return rev, ok && rev.Status == ReviewDone, nil
}

// Of reviews g from rev's positions; ok is false unless rev is done and
// of g as it stands.
func (rev StoredReview) Of(g *rules.Game) (review.Review, bool) {
	if rev.Status != ReviewDone || rev.Key != reviewKey(g) {
		return review.Review{}, false
	}
	return review.Build(g, rev.Positions), true
}

// Notes are the PGN notes of rev's review of g — each ply's class's NAG
// ($6, $2, $4) and evaluation ([%eval …]) — when rev is done and of g as
// it stands; else none.
func (rev StoredReview) Notes(g *rules.Game) rules.PGNNotes {
	r, ok := rev.Of(g)
	if !ok {
		return rules.PGNNotes{}
	}
	return rules.PGNNotes{NAGs: r.NAGs, Comment: r.EvalNote}
}

// reviewJobOf copies game id under its lock for a review.
func (s *Service) reviewJobOf(ctx context.Context, id string) (*reviewJob, error) {
	var job *reviewJob
	var err error
	verr := s.games.View(ctx, id, "", func(rec *games.Record, _ games.Seats) {
		g := rec.Game
		if err = rec.MayAnalyse(); err != nil {
			return
		}
		if len(g.Actions()) == 0 {
			err = errs.Errorf(errs.Conflict, "This game has no ply yet: there is nothing to review.").WithDetail(errs.NothingToReview)
			return
		}
		if !engine.Supports(g.Variant()) {
			err = games.UnsupportedVariant("The engine reviews %s games only", g.Variant(), s.positions.Variants())
			return
		}
		cp, rerr := rules.Replay(g.Variant(), g.StartFEN(), g.BCN())
		if rerr != nil {
			err = errs.Internalf(rerr, "copying game %s", id)
			return
		}
		reviewed := cp
		if bcn := cp.BCN(); len(bcn) > s.reviewPlies() {
			if reviewed, rerr = rules.Replay(g.Variant(), g.StartFEN(), bcn[:s.reviewPlies()]); rerr != nil {
				err = errs.Internalf(rerr, "copying game %s", id)
				return
			}
		}
		job = &reviewJob{id: id, key: reviewKey(cp), game: reviewed, total: len(reviewed.Actions()) + 1}
	})
	if verr != nil {
		return nil, verr
	}
	return job, err
}

// reviewPlies is how many plies a review evaluates at most.
func (s *Service) reviewPlies() int {
	if n := s.reviews.settings.Plies; n > 0 {
		return n
	}
	return DefaultReviewPlies
}

// reviewKey names the state of g a review is of: a hash of its variant,
// start and plies.
func reviewKey(g *rules.Game) string {
	sum := sha256.Sum256([]byte(g.Variant().ID() + "\n" + g.StartFEN() + "\n" + strings.Join(g.BCN(), " ")))
	return hex.EncodeToString(sum[:])
}

// stateOf answers a stored review of game g.
func stateOf(rev StoredReview, g *rules.Game) ReviewState {
	st := ReviewState{Status: rev.Status, Place: rev.Place, Review: review.Build(g, rev.Positions)}
	if rev.Status != ReviewQueued {
		st.Place = 0
	}
	if rev.Total > 0 {
		st.Progress = min(1, float64(len(rev.Positions))/float64(rev.Total))
	}
	return st
}

// reviewJob is a review this server holds: queued or running.
type reviewJob struct {
	id, key string
	game    *rules.Game // the copy reviewed (its first plies: see ReviewSettings.Plies), not changed
	total   int
	by      Requester // who asked; none for a review resumed
	// Under reviewer.mu:
	status ReviewStatus
	place  int
	done   []review.Position
	cancel context.CancelFunc // while it runs
}

// reviewer runs a server's reviews, one at a time, from a bounded queue.
type reviewer struct {
	settings ReviewSettings

	mu      sync.Mutex
	owner   string       // this server, as stored reviews name it
	queue   []*reviewJob // in the order they will run (see arrange)
	current *reviewJob
	pending []*reviewJob // requests claiming a place in the store
	// served is when each requester holding a review was last served (a
	// count of the reviews started): the queue serves first the requester
	// served longest ago.
	served  map[string]uint64
	turns   uint64
	working bool // the worker runs
	closed  bool
	ctx     context.Context // the worker's; cancelled by stop
	cancel  context.CancelFunc
	wg      sync.WaitGroup

	saving sync.Mutex // one save at a time, each of what it holds when it starts
}

// local answers a review this server holds of the same game; one of a
// game played on since is dropped.
func (r *reviewer) local(job *reviewJob) (ReviewState, bool) {
	r.mu.Lock()
	held := r.find(job.id)
	if held != nil && held.key != job.key {
		r.dropLocked(held)
		held = nil
	}
	if held == nil {
		r.mu.Unlock()
		return ReviewState{}, false
	}
	st := ReviewState{Status: held.status, Place: held.place, Progress: float64(len(held.done)) / float64(held.total)}
	done, g := held.done, held.game
	r.mu.Unlock()
	st.Review = review.Build(g, done)
	return st, true
}

// find returns the job of game id this server holds, or nil; r.mu is held.
func (r *reviewer) find(id string) *reviewJob {
	if r.current != nil && r.current.id == id {
		return r.current
	}
	for _, j := range r.queue {
		if j.id == id {
			return j
		}
	}
	return nil
}

// dropLocked stops holding job: out of the queue, or cancelled if it
// runs; r.mu is held.
func (r *reviewer) dropLocked(job *reviewJob) {
	if job == r.current {
		job.cancel()
		return
	}
	if i := slices.Index(r.queue, job); i >= 0 {
		r.queue = slices.Delete(r.queue, i, i+1)
		r.arrange()
	}
}

// arrange orders the queue as the worker will take it, and numbers the
// places: in turns among requesters, each time the review of the
// requester served longest ago (one never served first), a requester's
// own in the order they came. It forgets requesters holding no review;
// r.mu is held.
func (r *reviewer) arrange() {
	holding := map[string]bool{}
	for _, j := range r.queue {
		holding[j.by.turnKey()] = true
	}
	if r.current != nil {
		holding[r.current.by.turnKey()] = true
	}
	for k := range r.served {
		if !holding[k] {
			delete(r.served, k)
		}
	}
	served := maps.Clone(r.served)
	if served == nil {
		served = map[string]uint64{}
	}
	turn := r.turns
	rest := slices.Clone(r.queue)
	r.queue = r.queue[:0]
	for len(rest) > 0 {
		next := 0
		for i, j := range rest {
			if served[j.by.turnKey()] < served[rest[next].by.turnKey()] {
				next = i
			}
		}
		turn++
		served[rest[next].by.turnKey()] = turn
		r.queue = append(r.queue, rest[next])
		rest = slices.Delete(rest, next, next+1)
	}
	for i, j := range r.queue {
		j.place = i + 1
	}
}

// heldBy counts the reviews this server holds or is claiming that were
// asked for by by's player or from by's address; r.mu is held.
func (r *reviewer) heldBy(by Requester) (player, addr int) {
	jobs := append(slices.Clone(r.queue), r.pending...)
	if r.current != nil {
		jobs = append(jobs, r.current)
	}
	for _, j := range jobs {
		if by.Player != "" && j.by.Player == by.Player {
			player++
		}
		if by.Addr != "" && j.by.Addr == by.Addr {
			addr++
		}
	}
	return player, addr
}

// held returns the jobs this server holds.
func (r *reviewer) held() []*reviewJob {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := slices.Clone(r.queue)
	if r.current != nil {
		out = append(out, r.current)
	}
	return out
}

// enqueueReview claims job in the store and queues it, starting the
// worker if it is idle. A full queue is refused (TooMany); a claim lost to
// another server is errReviewLost.
func (s *Service) enqueueReview(ctx context.Context, rs ReviewStore, job *reviewJob) (ReviewState, error) {
	r := &s.reviews
	r.mu.Lock()
	if r.owner == "" {
		r.owner = "server:" + string(players.NewCredential())[:16]
	}
	queue := r.settings.Queue
	if queue <= 0 {
		queue = DefaultReviewQueue
	}
	if r.closed {
		r.mu.Unlock()
		return ReviewState{}, errs.Internalf(errors.New("the service is closed"), "queueing a review")
	}
	if p, a := r.heldBy(job.by); max(p, a) >= MaxReviewsPerRequester {
		r.mu.Unlock()
		whose := "This player has"
		if a >= MaxReviewsPerRequester {
			whose = "Your address has"
		}
		e := errs.Errorf(errs.TooMany, "%s %d reviews queued or running already; ask again once one is done.", whose, MaxReviewsPerRequester).WithDetail(errs.TooManyReviews)
		e.RetryAfter = time.Minute
		return ReviewState{}, e
	}
	if len(r.queue)+len(r.pending) >= queue {
		r.mu.Unlock()
		e := errs.Errorf(errs.TooMany, "The server is busy with %d reviews already; ask again in a minute.", queue).WithDetail(errs.ReviewQueueFull)
		e.RetryAfter = time.Minute
		return ReviewState{}, e
	}
	r.pending = append(r.pending, job)
	job.status, job.place = ReviewQueued, len(r.queue)+len(r.pending)
	r.mu.Unlock()

	now := s.now()
	claimed, err := rs.ClaimReview(ctx, s.storedReview(job, now.Add(s.reviewLease())), now)

	r.mu.Lock()
	if i := slices.Index(r.pending, job); i >= 0 {
		r.pending = slices.Delete(r.pending, i, i+1)
	}
	switch {
	case err != nil:
		r.mu.Unlock()
		return ReviewState{}, errs.Internalf(err, "storing the review of game %s", job.id)
	case !claimed:
		r.mu.Unlock()
		return ReviewState{}, errReviewLost
	}
	if held := r.find(job.id); held != nil && held.key == job.key { // a request just before this one
		job = held
	} else {
		r.queue = append(r.queue, job)
		r.arrange()
		if !r.working && !r.closed {
			r.working = true
			if r.ctx == nil {
				r.ctx, r.cancel = context.WithCancel(context.Background())
			}
			r.wg.Add(2)
			go s.reviewWorker(rs)
		}
	}
	st := ReviewState{Status: job.status, Place: job.place, Progress: float64(len(job.done)) / float64(job.total)}
	done := job.done
	r.mu.Unlock()
	st.Review = review.Build(job.game, done)
	return st, nil
}

// reviewLease is how long a save holds a review.
func (s *Service) reviewLease() time.Duration {
	if l := s.reviews.settings.Lease; l > 0 {
		return l
	}
	return DefaultReviewLease
}

// storedReview is job as the store keeps it, held until lease.
func (s *Service) storedReview(job *reviewJob, lease time.Time) StoredReview {
	r := &s.reviews
	r.mu.Lock()
	defer r.mu.Unlock()
	return StoredReview{GameID: job.id, Key: job.key, Status: job.status, Owner: r.owner, Lease: lease,
		Place: job.place, Total: job.total, Positions: job.done}
}

// saveReview writes job as it stands, held for another lease (or, with
// release, for none: any server may resume it at once). It reports
// errReviewLost when the store's review is no longer job's.
func (s *Service) saveReview(rs ReviewStore, job *reviewJob, release bool) error {
	r := &s.reviews
	r.saving.Lock()
	defer r.saving.Unlock()
	lease := s.now()
	if !release {
		lease = lease.Add(s.reviewLease())
	}
	// Once begun, a save runs to its end whatever becomes of the review.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ok, err := rs.SaveReview(ctx, s.storedReview(job, lease))
	switch {
	case err != nil:
		return err
	case !ok:
		return errReviewLost
	}
	return nil
}

// reviewWorker runs the queued reviews one after the other, renewing the
// leases of all it holds meanwhile, until the queue is empty.
func (s *Service) reviewWorker(rs ReviewStore) {
	r := &s.reviews
	defer r.wg.Done()
	stop := make(chan struct{})
	defer close(stop)
	go s.renewReviews(rs, stop) // counted in r.wg by enqueueReview too
	for {
		r.mu.Lock()
		r.current = nil
		if len(r.queue) == 0 || r.closed {
			r.working = false
			r.mu.Unlock()
			return
		}
		job := r.queue[0] // the queue is in turns (see arrange)
		r.queue = r.queue[1:]
		if r.served == nil {
			r.served = map[string]uint64{}
		}
		r.turns++
		r.served[job.by.turnKey()] = r.turns
		var ctx context.Context
		ctx, job.cancel = context.WithCancel(r.ctx)
		job.status, job.place = ReviewRunning, 0
		r.current = job
		r.arrange()
		r.mu.Unlock()
		s.runReview(ctx, rs, job)
		job.cancel()
	}
}

// renewReviews renews the leases of the reviews this server holds, a
// third of a lease apart, until stop is closed; a review another server
// has taken over is dropped.
func (s *Service) renewReviews(rs ReviewStore, stop <-chan struct{}) {
	defer s.reviews.wg.Done()
	t := time.NewTicker(s.reviewLease() / 3)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		for _, job := range s.reviews.held() {
			if errors.Is(s.saveReview(rs, job, false), errReviewLost) {
				s.reviews.mu.Lock()
				s.reviews.dropLocked(job)
				s.reviews.mu.Unlock()
			}
		}
	}
}

// runReview evaluates job's positions, saving each, and saves it done.
// Stopped (the service closes) or failed, it lets go of the review, which
// any server may then resume from what was saved.
func (s *Service) runReview(ctx context.Context, rs ReviewStore, job *reviewJob) {
	r := &s.reviews
	if errors.Is(s.saveReview(rs, job, false), errReviewLost) {
		return
	}
	lim := r.settings.Limits
	if lim == (engine.Limits{}) {
		lim = review.DefaultLimits
	}
	search := func(ctx context.Context, g *rules.Game) (engine.Result, error) {
		for {
			res, err := s.analyser.Analyse(ctx, g, lim)
			if !errors.Is(err, engine.ErrBusy) {
				return res, err
			}
			select { // the analyses' queue is full: wait for room
			case <-ctx.Done():
				return engine.Result{}, ctx.Err()
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	saved := len(job.done)
	positions, err := review.Run(ctx, job.game, search, job.done, func(ps []review.Position) error {
		r.mu.Lock()
		job.done = ps
		r.mu.Unlock()
		// Each save writes all the positions: saving when they have grown
		// by a tenth keeps a long game's writes in proportion to its
		// length (a short game's are saved one by one).
		if len(ps)-saved < max(1, saved/10) {
			return nil
		}
		if err := s.saveReview(rs, job, false); errors.Is(err, errReviewLost) {
			return err
		} else if err == nil {
			saved = len(ps)
		}
		return nil // a failed save is made good by the next
	})
	if err != nil {
		if !errors.Is(err, errReviewLost) {
			_ = s.saveReview(rs, job, true)
		}
		return
	}
	r.mu.Lock()
	job.status, job.done = ReviewDone, positions
	r.mu.Unlock()
	_ = s.saveReview(rs, job, false) // failed, the lease runs out and a request resumes it
}

// stop cancels the running review, waits for the worker to end and lets
// go of every review this server held, so that another may resume them
// at once.
func (s *Service) stopReviews() {
	r := &s.reviews
	r.mu.Lock()
	r.closed = true
	if r.cancel != nil {
		r.cancel()
	}
	r.mu.Unlock()
	r.wg.Wait()
	rs, ok := s.store, s.store != nil
	if !ok {
		return
	}
	for _, job := range r.held() {
		_ = s.saveReview(rs, job, true)
	}
}
