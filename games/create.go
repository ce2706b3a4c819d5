package games

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/banchess/banchess/rules"
)

// Variant reads a variant's id or name, in any case; "" is Ban Chess.
func Variant(id string) (rules.Variant, error) {
	v, err := rules.VariantByID(id)
	if err != nil {
		var ids []string
		for _, v := range rules.Variants() {
			ids = append(ids, fmt.Sprintf("%q", v.ID()))
		}
		list := strings.Join(ids[:len(ids)-1], ", ") + " or " + ids[len(ids)-1]
		return nil, Errorf(Invalid, "%q is not a variant: use %s.", rules.Clip(id), list).withDetail(BadVariant)
	}
	return v, nil
}

// NewGame returns a game of the variant named by id at its start.
func (s *Service) NewGame(variant string) (*rules.Game, error) {
	v, err := Variant(variant)
	if err != nil {
		return nil, err
	}
	return rules.New(v), nil
}

// FromFEN returns a game of the variant named by variant from an extended
// FEN.
func (s *Service) FromFEN(fen, variant string) (*rules.Game, error) {
	if strings.TrimSpace(fen) == "" {
		return nil, Errorf(Invalid, "The FEN is empty: paste a position such as %s.", rules.New(rules.BanChess{}).StartFEN()).withDetail(BadFEN)
	}
	if err := s.checkFEN(fen); err != nil {
		return nil, err
	}
	v, err := Variant(variant)
	if err != nil {
		return nil, err
	}
	g, err := rules.FromFEN(fen, v)
	if err != nil {
		return nil, ErrorOf(err).withDetail(BadFEN)
	}
	return g, nil
}

// FromPGN returns the first game a PGN records (see FromPGNGame).
func (s *Service) FromPGN(pgn, variant string) (*rules.Game, error) {
	return s.FromPGNGame(pgn, variant, 0)
}

// FromPGNGame returns game n (from 0) of a PGN, with its tags and comments.
// variant "" lets the PGN decide: with ban comments it is Ban Chess,
// without it is a Classic game of all its moves.
func (s *Service) FromPGNGame(pgn, variant string, n int) (*rules.Game, error) {
	if strings.TrimSpace(pgn) == "" {
		return nil, Errorf(Invalid, "The PGN is empty.").withDetail(BadPGN)
	}
	var v rules.Variant
	if variant != "" {
		var err error
		if v, err = Variant(variant); err != nil {
			return nil, err
		}
	}
	opts := s.pgnOptions()
	opts.Variant, opts.Game, opts.ChessAsClassic = v, n, true
	g, err := rules.FromPGN(pgn, opts)
	if err != nil {
		e := ErrorOf(err)
		if e.Detail == "" || e.Code == Illegal {
			e = &Error{Code: Invalid, Detail: BadPGN, Msg: e.Msg, Err: err}
		}
		return nil, e
	}
	return g, nil
}

// pgnOptions are the reader's bounds: the service's limits.
func (s *Service) pgnOptions() rules.PGNOptions {
	return rules.PGNOptions{
		MaxPlies:        s.limits.MaxPlies,
		MaxTags:         s.limits.MaxTags,
		MaxTagBytes:     s.limits.MaxTagBytes,
		MaxTagNameBytes: s.limits.MaxTagNameBytes,
		MaxCommentBytes: s.limits.MaxCommentBytes,
	}
}

// PGNGames lists the games of a PGN (their tags), for choosing one.
func (s *Service) PGNGames(pgn string) ([]rules.PGNHeader, error) {
	list, err := rules.ListPGN(pgn, s.pgnOptions())
	if err != nil {
		return nil, ErrorOf(err)
	}
	return list, nil
}

// FromText reads text pasted by a person: a FEN (of the variant named by
// variant) or a PGN, told apart by their shape.
func (s *Service) FromText(text, variant string) (*rules.Game, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, Errorf(Invalid, "Paste a FEN or a PGN first.")
	}
	if rules.LooksLikeFEN(text) {
		return s.FromFEN(text, variant)
	}
	return s.FromPGN(text, "")
}

// FromLink returns the game a link's query describes: pgn=… (of at most
// Limits.MaxLinkPGNBytes), fen=…, or a share link (see Link).
func (s *Service) FromLink(q url.Values) (*rules.Game, error) {
	if q.Has("pgn") {
		pgn := q.Get("pgn")
		if max := s.limits.MaxLinkPGNBytes; max > 0 && len(pgn) > max {
			return nil, Errorf(Invalid, "The link's PGN is %d bytes long; a link may carry a PGN of at most %d KiB. Paste a longer one into the import box instead.", len(pgn), max>>10).withDetail(PGNTooLong)
		}
		return s.FromPGN(pgn, "")
	}
	v, err := Variant(q.Get("v"))
	if err != nil {
		return nil, err
	}
	var acts []string
	if a := q.Get("a"); a != "" {
		acts = strings.Split(a, ",")
	}
	if s.limits.MaxPlies > 0 && len(acts) > s.limits.MaxPlies {
		return nil, Errorf(Invalid, "The link holds %d actions, more than the %d plies this server replays.", len(acts), s.limits.MaxPlies).withDetail(TooManyPlies)
	}
	fen := q.Get("fen")
	if q.Has("fen") && strings.TrimSpace(fen) == "" {
		return nil, Errorf(Invalid, "The fen parameter is empty.").withDetail(BadFEN)
	}
	if err := s.checkFEN(fen); err != nil {
		return nil, err
	}
	g, err := rules.Replay(v, fen, acts)
	if err != nil {
		return nil, ErrorOf(err).withDetail(BadLink)
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
		return nil, (&Error{Code: Invalid, Msg: Sentence(err.Error()), Err: err}).withDetail(BadLink)
	}
	return g, nil
}

// IsLink reports whether a query describes a game to open (see
// Service.FromLink).
func IsLink(q url.Values) bool { return q.Has("fen") || q.Has("pgn") || q.Has("a") }

// Link is the query of a share link that rebuilds g from nothing but
// itself: the variant (unless Ban Chess), the start position (unless the
// variant's initial one), every action, and a resignation or agreed draw.
// FromLink reads it back.
func (s *Service) Link(g *rules.Game) string {
	q := url.Values{}
	if id := g.Variant().ID(); id != (rules.BanChess{}).ID() {
		q.Set("v", id)
	}
	if start := g.StartFEN(); start != s.initial[g.Variant().ID()] {
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
func (s *Service) checkFEN(fen string) error {
	if s.limits.MaxFENBytes > 0 && len(fen) > s.limits.MaxFENBytes {
		return Errorf(Invalid, "The FEN is %d bytes long; this server reads FENs of at most %d bytes.", len(fen), s.limits.MaxFENBytes).withDetail(FENTooLong)
	}
	return nil
}

// FromPly returns a new game of variant ("" for Ban Chess) from the
// position after the first n plies of g (0: its start), as a game of its
// own at its first ply: for Ban Chess the ban before the side to move
// moves (ply 1 with White to move, 3 with Black). g is unchanged.
func (s *Service) FromPly(g *rules.Game, n int, variant string) (*rules.Game, error) {
	v, err := Variant(variant)
	if err != nil {
		return nil, err
	}
	played := g.Ply() - g.StartPly()
	if n < 0 || n > played {
		return nil, Errorf(Invalid, "There is no ply %d to play from: the game has %d.", n, played).withDetail(BadPly)
	}
	fen := g.StartFEN()
	if n > 0 {
		fen = g.History()[n-1].FEN()
	}
	fields := strings.Fields(fen)
	pos := strings.Join(fields[:6], " ")
	if v.ID() == (rules.BanChess{}).ID() {
		first := " 1"
		if fields[1] == "b" {
			first = " 3"
		}
		pos += first
	}
	ng, err := rules.FromFEN(pos, v)
	if err != nil {
		return nil, ErrorOf(err).withDetail(BadFEN)
	}
	return ng, nil
}
