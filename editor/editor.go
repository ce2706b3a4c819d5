// Package editor sets up a position square by square: the state of the
// board editor (/editor), read from and written to a URL's query so that
// every step of an edit is a plain link or form, and the extended FEN it
// stands for.
package editor

import (
	"net/url"
	"slices"
	"strings"

	"github.com/banchess/banchess/rules"
)

// Erase is the palette's eraser: a square picked with it is emptied.
const Erase = "x"

// State is a position being set up, and how the editor shows it.
type State struct {
	Board    rules.Board
	Turn     rules.Color   // the side to move
	Castling string        // some of "KQkq", in that order
	EP       string        // the en passant square, or ""
	Variant  rules.Variant // one the editor edits (Edits)
	Act      string        // with bans: "ban" (the side to move's opponent bans next) or "move"
	Ban      string        // with bans, Act "move": the ban in force, such as "e2e4", or ""
	Pick     string        // the palette's choice: a piece code ("wK") or Erase
	Flip     bool          // Black at the bottom
}

// Edits reports whether the editor sets up positions of v: those of
// chess's board, whose squares and men its palette has.
func Edits(v rules.Variant) bool { return v.Board() == rules.ChessBoard }

// Start is the editor's state for the initial position, of v (one it
// edits).
func Start(v rules.Variant) State {
	s, _ := FromFEN(rules.StartFEN, v)
	return s
}

// FromFEN returns the state of an extended FEN of v (one it edits), read
// leniently: the editor is where a wrong position gets fixed, so only
// text that names no board at all is refused (and the initial position's
// state returned with the error). Whether the move or its ban is next,
// and the ban in force, are read from a FEN that rules reads.
func FromFEN(fen string, v rules.Variant) (State, error) {
	s := State{Variant: v, Act: "ban", Pick: "wP"}
	f := strings.Fields(fen)
	if len(f) == 0 {
		return Start(v), readErrorf(ReadEmpty, 0, "", "the FEN is empty")
	}
	b, err := parsePlacement(f[0])
	if err != nil {
		return Start(v), err
	}
	s.Board = b
	if len(f) > 1 && f[1] == "b" {
		s.Turn = rules.Black
	} else {
		s.Turn = rules.White
	}
	if len(f) > 2 {
		s.Castling = castling(f[2])
	}
	if len(f) > 3 && f[3] != "-" {
		s.EP = f[3]
	}
	if g, err := rules.FromFEN(fen, v); err == nil && v.HasBans() && g.Turn().Phase == rules.PhaseMove {
		s.Act = "move"
		if ban, ok := g.Ban(); ok {
			s.Ban = ban.String()
		}
	}
	return s, nil
}

// FromQuery reads the state a URL's query carries (see Query; the
// palette's choice may come as cur, a pick button overriding it), or with
// fen=… the position of that FEN; what the query lacks is the initial
// position's. Its variant, v=…, is one of variants the editor edits, the
// first of them (the default) unless it names one. A ban in force that
// names no squares is an error.
func FromQuery(q url.Values, variants []rules.Variant) (State, error) {
	v := variantOf(q.Get("v"), variants)
	if fen := q.Get("fen"); fen != "" {
		s, err := FromFEN(fen, v)
		s.Flip = q.Get("flip") == "1"
		if p := q.Get("pick"); validPick(p) {
			s.Pick = p
		}
		return s, err
	}
	s := Start(v)
	if !q.Has("board") {
		return s, nil
	}
	b, err := parsePlacement(q.Get("board"))
	if err != nil {
		return s, err
	}
	s.Board = b
	if q.Get("turn") == "b" {
		s.Turn = rules.Black
	} else {
		s.Turn = rules.White
	}
	s.Castling = castling(strings.Join(q["castle"], ""))
	s.EP = strings.TrimSpace(q.Get("ep"))
	if s.EP == "-" {
		s.EP = ""
	}
	if q.Get("act") == "move" {
		s.Act = "move"
	} else {
		s.Act = "ban"
	}
	s.Ban = strings.ToLower(strings.TrimSpace(q.Get("ban")))
	for _, p := range []string{q.Get("pick"), q.Get("cur")} { // a palette button, else the choice made before
		if validPick(p) {
			s.Pick = p
			break
		}
	}
	s.Flip = q.Get("flip") == "1"
	if _, err := rules.ParsePair(s.Ban); s.Variant.HasBans() && s.Act == "move" && s.Ban != "" && err != nil {
		return s, readErrorf(ReadBan, 0, rules.Clip(s.Ban), "the ban in force: %v", err)
	}
	return s, nil
}

// Query is the state as a URL query, which FromQuery reads back.
func (s State) Query() url.Values {
	q := url.Values{}
	q.Set("board", s.Placement())
	q.Set("turn", s.turnLetter())
	for _, c := range s.Castling {
		q.Add("castle", string(c))
	}
	if s.EP != "" {
		q.Set("ep", s.EP)
	}
	q.Set("v", s.Variant.ID())
	if s.Variant.HasBans() {
		q.Set("act", s.Act)
		if s.Act == "move" && s.Ban != "" {
			q.Set("ban", s.Ban)
		}
	}
	q.Set("pick", s.Pick)
	if s.Flip {
		q.Set("flip", "1")
	}
	return q
}

// Place puts the picked piece on sq, or empties sq with the eraser.
func (s *State) Place(sq rules.Square) {
	if !sq.Valid() || sq.IsX() {
		return
	}
	if s.Pick == Erase {
		s.Board[sq] = rules.NoPiece
		return
	}
	if p, ok := PieceOf(s.Pick); ok {
		s.Board[sq] = p
	}
}

// Move moves the piece on from to to (what stood there is taken); an
// empty from changes nothing.
func (s *State) Move(from, to rules.Square) {
	if !from.Valid() || !to.Valid() || from.IsX() || to.IsX() || from == to || s.Board[from] == rules.NoPiece {
		return
	}
	s.Board[to], s.Board[from] = s.Board[from], rules.NoPiece
}

// Clear empties the board.
func (s *State) Clear() { s.Board, s.Castling, s.EP, s.Ban = rules.Board{}, "", "", "" }

// Reset sets the initial position, keeping the variant, palette and side.
func (s *State) Reset() {
	start := Start(s.Variant)
	start.Pick, start.Flip = s.Pick, s.Flip
	*s = start
}

// Placement is the board as FEN's first field.
func (s State) Placement() string {
	var b strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := range 8 {
			p := s.Board[rules.SquareAt(file, rank)]
			if p == rules.NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(p.FENLetter())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// FEN is the extended FEN the state stands for: for a variant with bans,
// at the first ban (ply 1 with White to move, 3 with Black in Ban Chess)
// or at the move after it, with the ban in force (rules.StartExtension).
func (s State) FEN() string {
	cast, ep := s.Castling, s.EP
	if cast == "" {
		cast = "-"
	}
	if ep == "" {
		ep = "-"
	}
	fen := s.Placement() + " " + s.turnLetter() + " " + cast + " " + ep + " 0 1"
	var ban *rules.Pair
	if p, err := rules.ParsePair(s.Ban); err == nil {
		ban = &p
	}
	if ext := rules.StartExtension(s.Variant, &rules.Position{Board: s.Board, ToMove: s.Turn}, s.Act == "move", ban); ext != "" {
		fen += " " + ext
	}
	return fen
}

// turnLetter is the side to move as FEN writes it.
func (s State) turnLetter() string {
	if s.Turn == rules.Black {
		return "b"
	}
	return "w"
}

// Palette lists the palette's choices: the white pieces, the black ones,
// then the eraser.
func Palette() []string {
	out := make([]string, 0, 13)
	for _, c := range []rules.Color{rules.White, rules.Black} {
		for _, k := range []rules.PieceKind{rules.King, rules.Queen, rules.Rook, rules.Bishop, rules.Knight, rules.Pawn} {
			out = append(out, rules.NewPiece(c, k).Code())
		}
	}
	return append(out, Erase)
}

func validPick(p string) bool { return slices.Contains(Palette(), p) }

// PieceOf returns the piece a code such as "wK" names.
func PieceOf(code string) (rules.Piece, bool) {
	return findPiece(func(p rules.Piece) bool { return p.Code() == code })
}

// findPiece returns the first of the twelve pieces that is, or NoPiece.
func findPiece(is func(rules.Piece) bool) (rules.Piece, bool) {
	for _, c := range []rules.Color{rules.White, rules.Black} {
		for k := rules.Pawn; k <= rules.King; k++ {
			if p := rules.NewPiece(c, k); is(p) {
				return p, true
			}
		}
	}
	return rules.NoPiece, false
}

// variantOf is the variant of variants an id names if the editor edits
// it, else the first of them it edits (the default).
func variantOf(id string, variants []rules.Variant) rules.Variant {
	if v, err := rules.LookupVariant(variants, id); err == nil && Edits(v) {
		return v
	}
	for _, v := range append(variants, rules.Variants()...) {
		if Edits(v) {
			return v
		}
	}
	return rules.Variants()[0]
}

// castling keeps the rights of "KQkq" that s names, in that order.
func castling(s string) string {
	var out []byte
	for _, c := range []byte("KQkq") {
		if strings.IndexByte(s, c) >= 0 {
			out = append(out, c)
		}
	}
	return string(out)
}

// parsePlacement reads FEN's first field into a board. Kings, pawns on the
// last ranks and such are left for the position's validation to explain.
func parsePlacement(field string) (rules.Board, error) {
	var b rules.Board
	ranks := strings.Split(field, "/")
	if len(ranks) != 8 {
		return b, readErrorf(ReadRanks, 0, "", "the placement %q has %d ranks; it needs 8 separated by /", rules.Clip(field), len(ranks))
	}
	for i, row := range ranks {
		rank, file := 7-i, 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				continue
			}
			if file > 7 {
				return b, readErrorf(ReadWide, rank+1, "", "rank %d (%q) covers more than 8 squares", rank+1, rules.Clip(row))
			}
			p, ok := pieceOfLetter(c)
			if !ok {
				return b, readErrorf(ReadLetter, rank+1, string(c), "%q on rank %d is not a piece letter (use PNBRQK, lower case for Black) or a count 1–8", string(c), rank+1)
			}
			b[rules.SquareAt(file, rank)] = p
			file++
		}
		if file > 8 {
			return b, readErrorf(ReadWide, rank+1, "", "rank %d (%q) covers more than 8 squares", rank+1, rules.Clip(row))
		}
	}
	return b, nil
}

func pieceOfLetter(c byte) (rules.Piece, bool) {
	return findPiece(func(p rules.Piece) bool { return p.FENLetter() == c })
}
