package games

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/rules"
)

// Loader makes games from what users give: a variant's start, an extended
// FEN, a PGN, typed text, a share link, or a ply of another game, within
// its Limits and of the variants it plays.
type Loader struct {
	limits   Limits
	variants []rules.Variant   // the variants it plays, the default first
	initial  map[string]string // each variant's initial FEN, by ID
}

// NewLoader returns a Loader of variants, the default first (none:
// rules.Variants), within limits.
func NewLoader(limits Limits, variants ...rules.Variant) *Loader {
	if len(variants) == 0 {
		variants = rules.Variants()
	}
	l := &Loader{limits: limits, variants: variants, initial: map[string]string{}}
	for _, v := range variants {
		l.initial[v.ID()] = rules.New(v).StartFEN()
	}
	return l
}

// Variants lists the variants the loader plays, the default first.
func (l *Loader) Variants() []rules.Variant { return slices.Clone(l.variants) }

// Variant reads the id or name of a variant the loader plays, in any
// case; "" is the default, Ban Chess.
func (l *Loader) Variant(id string) (rules.Variant, error) {
	v, err := rules.LookupVariant(l.variants, id)
	if err != nil {
		ids := make([]string, 0, len(l.variants))
		for _, v := range l.variants {
			ids = append(ids, fmt.Sprintf("%q", v.ID()))
		}
		list := strings.Join(ids[:len(ids)-1], ", ") + " or " + ids[len(ids)-1]
		return nil, errs.Errorf(errs.Invalid, "%q is not a variant: use %s.", rules.Clip(id), list).WithDetail(errs.BadVariant)
	}
	return v, nil
}

// NewGame returns a game of the variant named by id at its start.
func (l *Loader) NewGame(variant string) (*rules.Game, error) {
	v, err := l.Variant(variant)
	if err != nil {
		return nil, err
	}
	return rules.New(v), nil
}

// FromFEN returns a game of the variant named by variant from an extended
// FEN.
func (l *Loader) FromFEN(fen, variant string) (*rules.Game, error) {
	if strings.TrimSpace(fen) == "" {
		return nil, errs.Errorf(errs.Invalid, "The FEN is empty: paste a position such as %s.", l.initial[l.variants[0].ID()]).WithDetail(errs.BadFEN)
	}
	if err := l.checkFEN(fen); err != nil {
		return nil, err
	}
	v, err := l.Variant(variant)
	if err != nil {
		return nil, err
	}
	g, err := rules.FromFEN(fen, v)
	if err != nil {
		return nil, errs.Of(err).WithDetail(errs.BadFEN)
	}
	return g, nil
}

// FromPGN returns the first game a PGN records (see FromPGNGame).
func (l *Loader) FromPGN(pgn, variant string) (*rules.Game, error) {
	return l.FromPGNGame(pgn, variant, 0)
}

// FromPGNGame returns game n (from 0) of a PGN, with its tags and
// annotations: comments, NAGs and variations.
// variant "" lets the PGN decide: with ban comments it is Ban Chess,
// without it is a Classic game of all its moves.
func (l *Loader) FromPGNGame(pgn, variant string, n int) (*rules.Game, error) {
	if strings.TrimSpace(pgn) == "" {
		return nil, errs.Errorf(errs.Invalid, "The PGN is empty.").WithDetail(errs.BadPGN)
	}
	var v rules.Variant
	if variant != "" {
		var err error
		if v, err = l.Variant(variant); err != nil {
			return nil, err
		}
	}
	opts := l.pgnOptions()
	opts.Variant, opts.Game, opts.ChessAsClassic = v, n, true
	g, err := rules.FromPGN(pgn, opts)
	if err != nil {
		return nil, pgnError(err)
	}
	return g, nil
}

// pgnError is a refusal to read a PGN (or a FEN: bad_fen), all Invalid:
// an illegal move in it is bad input, not a refused ply.
func pgnError(err error) *errs.Error {
	e := errs.Of(err)
	if e.Detail == "" || e.Code == errs.Illegal {
		e = &errs.Error{Code: errs.Invalid, Detail: errs.BadPGN, Msg: e.Msg, Err: err}
	}
	return e
}

// pgnOptions are the reader's bounds: the service's limits.
func (l *Loader) pgnOptions() rules.PGNOptions {
	return rules.PGNOptions{
		MaxPlies:          l.limits.MaxPlies,
		MaxTags:           l.limits.MaxTags,
		MaxTagBytes:       l.limits.MaxTagBytes,
		MaxTagNameBytes:   l.limits.MaxTagNameBytes,
		MaxCommentBytes:   l.limits.MaxCommentBytes,
		MaxVariations:     l.limits.MaxVariations,
		MaxVariationDepth: l.limits.MaxVariationDepth,
	}
}

// PGNGames lists the games of a PGN (their tags), for choosing one.
func (l *Loader) PGNGames(pgn string) ([]rules.PGNHeader, error) {
	list, err := rules.ListPGN(pgn, l.pgnOptions())
	if err != nil {
		return nil, errs.Of(err)
	}
	return list, nil
}

// FromText reads text pasted by a person: a FEN of the variant named by
// variant, or a PGN, which decides its own variant (rules.Load tells them
// apart).
func (l *Loader) FromText(text, variant string) (*rules.Game, error) {
	return l.load(text, variant, false, 0)
}

// Import reads a FEN or a PGN, both of the variant named by variant (""
// lets a PGN decide, and makes a FEN Ban Chess), and of a PGN of several
// games the nth (from 0; see PGNGames).
func (l *Loader) Import(text, variant string, n int) (*rules.Game, error) {
	return l.load(text, variant, true, n)
}

// load reads a FEN or game n of a PGN with rules.Load: a FEN of variant,
// a PGN of variant too when forPGN, else of the variant the text says.
// Errors name the FEN or the PGN as FromFEN and FromPGN do.
func (l *Loader) load(text, variant string, forPGN bool, n int) (*rules.Game, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, errs.Errorf(errs.Invalid, "Paste a FEN or a PGN first.")
	}
	v, err := l.Variant(variant)
	if err != nil {
		return nil, err
	}
	if rules.LooksLikeFEN(text) { // read no FEN past the limit, as FromFEN
		if err := l.checkFEN(text); err != nil {
			return nil, err
		}
	}
	opts := l.pgnOptions()
	opts.Game, opts.ChessAsClassic = n, true
	if forPGN && variant != "" {
		opts.Variant = v
	}
	g, err := rules.Load(text, v, opts)
	if err != nil {
		return nil, pgnError(err)
	}
	return g, nil
}

// FromLink returns the game a link's query describes: pgn=… (of at most
// Limits.MaxLinkPGNBytes), fen=…, or a share link (see Link).
func (l *Loader) FromLink(q url.Values) (*rules.Game, error) {
	if q.Has("pgn") {
		pgn := q.Get("pgn")
		if max := l.limits.MaxLinkPGNBytes; max > 0 && len(pgn) > max {
			return nil, errs.Errorf(errs.Invalid, "The link's PGN is %d bytes long; a link may carry a PGN of at most %d KiB. Paste a longer one into the import box instead.", len(pgn), max>>10).WithDetail(errs.PGNTooLong)
		}
		return l.FromPGN(pgn, "")
	}
	v, err := l.Variant(q.Get("v"))
	if err != nil {
		return nil, err
	}
	var acts []string
	if a := q.Get("a"); a != "" {
		acts = strings.Split(a, ",")
	}
	if l.limits.MaxPlies > 0 && len(acts) > l.limits.MaxPlies {
		return nil, errs.Errorf(errs.Invalid, "The link holds %d actions, more than the %d plies this server replays.", len(acts), l.limits.MaxPlies).WithDetail(errs.TooManyPlies)
	}
	fen := q.Get("fen")
	if q.Has("fen") && strings.TrimSpace(fen) == "" {
		return nil, errs.Errorf(errs.Invalid, "The fen parameter is empty.").WithDetail(errs.BadFEN)
	}
	if err := l.checkFEN(fen); err != nil {
		return nil, err
	}
	g, err := rules.Replay(v, fen, acts)
	if err != nil {
		return nil, errs.Of(err).WithDetail(errs.BadLink)
	}
	switch end := q.Get("end"); end {
	case "":
	case "white-resigned":
		err = g.Resign(rules.White)
	case "black-resigned":
		err = g.Resign(rules.Black)
	case "draw":
		err = g.AgreeDraw()
	default:
		err = fmt.Errorf("%q is not an ending: use white-resigned, black-resigned or draw", rules.Clip(end))
	}
	if err != nil {
		return nil, (&errs.Error{Code: errs.Invalid, Msg: errs.Sentence(err.Error()), Err: err}).WithDetail(errs.BadLink)
	}
	return g, nil
}

// IsLink reports whether a query describes a game to open (see
// Service.FromLink).
func IsLink(q url.Values) bool { return q.Has("fen") || q.Has("pgn") || q.Has("a") }

// Link is the query of a share link that rebuilds g from nothing but
// itself: the variant (unless the default, Ban Chess), the start position (unless the
// variant's initial one), every action, and a resignation or agreed draw.
// FromLink reads it back.
func (l *Loader) Link(g *rules.Game) string {
	q := url.Values{}
	if id := g.Variant().ID(); id != l.variants[0].ID() {
		q.Set("v", id)
	}
	if start := g.StartFEN(); start != l.initial[g.Variant().ID()] {
		q.Set("fen", start)
	}
	var actions []byte
	for i, a := range g.Actions() {
		if i > 0 {
			actions = append(actions, ',')
		}
		actions, _ = a.AppendText(actions)
	}
	q.Set("a", string(actions))
	switch o := g.Outcome(); o.Reason {
	case rules.Resignation:
		q.Set("end", o.Winner.Other().String()+"-resigned")
	case rules.Agreement:
		q.Set("end", "draw")
	}
	return q.Encode()
}

// checkFEN refuses a FEN longer than the limit, without echoing it.
func (l *Loader) checkFEN(fen string) error {
	if l.limits.MaxFENBytes > 0 && len(fen) > l.limits.MaxFENBytes {
		return errs.Errorf(errs.Invalid, "The FEN is %d bytes long; this server reads FENs of at most %d bytes.", len(fen), l.limits.MaxFENBytes).WithDetail(errs.FENTooLong)
	}
	return nil
}

// FromPly returns a new game of variant ("" for Ban Chess) from the
// position after the first n plies of g (0: its start), as a game of its
// own at its first ply (rules.Game.Branch): for Ban Chess the ban before
// the side to move moves. The variant must be played on g's board
// (rules.CanBranch). g is unchanged.
func (l *Loader) FromPly(g *rules.Game, n int, variant string) (*rules.Game, error) {
	v, err := l.Variant(variant)
	if err != nil {
		return nil, err
	}
	played := g.Ply() - g.StartPly()
	switch {
	case n < 0 || n > played:
		return nil, errs.Errorf(errs.Invalid, "There is no ply %d to play from: the game has %d.", n, played).WithDetail(errs.BadPly)
	case !rules.CanBranch(g.Variant(), v):
		return nil, errs.Errorf(errs.Invalid, "A position of %s cannot be played as %s.", g.Variant().Name(), v.Name()).WithDetail(errs.BadVariant)
	}
	ng, err := g.Branch(n, v)
	if err != nil {
		return nil, errs.Of(err).WithDetail(errs.BadFEN)
	}
	return ng, nil
}
