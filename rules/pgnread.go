package rules

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// PGNOptions choose how FromPGN reads a file.
type PGNOptions struct {
	// Game picks a game in a file of several, from 0 (the first).
	Game int
	// Variant forces a variant. Nil decides from the text: a PGN with ban
	// comments (or a Ban Chess Variant tag) is Ban Chess; one without is a
	// plain chess game whose final position starts a Ban Chess game.
	Variant Variant
	// MaxPlies, when positive, refuses a game of more plies than this (bans
	// and moves count one each; for a chess game without bans, its moves;
	// the plies of its variations count too) with an error wrapping
	// ErrTooManyPlies. The reader stops at the first ply past the bound,
	// so a long text costs no more than the bound.
	MaxPlies int
	// ChessAsClassic, with Variant nil, reads a PGN without bans as a
	// Classic game of all its moves (with its tags and comments) instead
	// of starting Ban Chess where they end.
	ChessAsClassic bool
	// MaxTags, when positive, refuses a game with more tags than this
	// (error wrapping ErrTooManyTags); MaxTagBytes and MaxTagNameBytes,
	// when positive, refuse a tag whose value or name is longer, in bytes
	// (ErrTagTooLong). The reader stops at the first tag past a bound, in
	// whichever game of the file it is.
	MaxTags, MaxTagBytes, MaxTagNameBytes int
	// MaxCommentBytes, when positive, refuses a game whose comments (other
	// than bans), which the game keeps, are longer in all than this, in
	// bytes (ErrCommentsTooLong); its variations' comments count too.
	MaxCommentBytes int
	// MaxVariations, when positive, refuses a game with more variations
	// than this, nested ones included, and MaxVariationDepth one whose
	// variations nest deeper than this (1: variations of the main line
	// only), with an error wrapping ErrTooManyVariations. The plies of the
	// variations count towards MaxPlies.
	MaxVariations, MaxVariationDepth int
}

// pgnGame is one game of a PGN file, tokenised: its tags and its moves,
// results, comments, NAGs and variations.
type pgnGame struct {
	tags   []Tag
	tokens []pgnToken
}

type pgnTokenKind uint8

const (
	tokMove pgnTokenKind = iota + 1
	tokComment
	tokResult
	tokNAG
	tokOpen  // "(": a variation begins
	tokClose // ")": it ends
)

type pgnToken struct {
	kind pgnTokenKind
	text string
	nag  NAG // of a tokNAG
}

var banComment = regexp.MustCompile(`(?i)^\s*banning:\s*([a-h][1-8][a-h][1-8])\s*[+#=]?\s*$`)

// FromPGN reads a game from PGN text (docs/rules.md §4.1). Errors in the
// movetext are *PGNError values naming the move number, the side and the
// token.
func FromPGN(text string, opts PGNOptions) (*Game, error) {
	games, err := splitPGN(text, opts)
	if err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, &PGNError{Err: errors.New("no game found: the text has no tags and no moves")}
	}
	if opts.Game < 0 || opts.Game >= len(games) {
		return nil, &PGNError{Err: fmt.Errorf("game %d asked for, but the text holds %d", opts.Game+1, len(games))}
	}
	pg := games[opts.Game]
	v := opts.Variant
	hasBans := pg.hasBans()
	if tv, err := VariantByID(pg.tag("Variant")); v == nil && err == nil && pg.tag("Variant") != "" && tv.ID() != (Classic{}).ID() {
		v = tv // a variant of its own, such as EN-Chess
	}
	asClassic := false
	if v == nil {
		v = BanChess{}
		if !hasBans && !strings.EqualFold(pg.tag("Variant"), BanChess{}.Name()) {
			if !opts.ChessAsClassic {
				return pg.chessGame(opts)
			}
			v, asClassic = Classic{}, true
		}
	}
	g, err := pg.play(v, opts)
	if err != nil {
		return nil, err
	}
	if max := opts.MaxCommentBytes; max > 0 {
		if n := g.Variations().Size().CommentBytes; n > max {
			return nil, &PGNError{Err: tagLimitError{ErrCommentsTooLong, fmt.Sprintf("the game's comments are %d bytes long in all; this reader keeps at most %d", n, max)}}
		}
	}
	g.fromChessGame = asClassic
	return g, nil
}

func (pg *pgnGame) tag(name string) string {
	for _, t := range pg.tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

func (pg *pgnGame) hasBans() bool {
	for _, t := range pg.tokens {
		if t.kind == tokComment && banComment.MatchString(t.text) {
			return true
		}
	}
	return false
}

// start returns the FEN a game of v starts from.
func (pg *pgnGame) start(v Variant) string {
	if fen := pg.tag("FEN"); fen != "" {
		return fen
	}
	return v.startFEN()
}

// chessGame plays a PGN without bans as standard chess and starts Ban Chess
// from the position it reaches: the game keeps its tags, not its
// annotations.
func (pg *pgnGame) chessGame(opts PGNOptions) (*Game, error) {
	classic, err := pg.play(Classic{}, opts)
	if err != nil {
		return nil, err
	}
	pos := classic.Position()
	g, err := FromFEN(pos.FEN(), BanChess{})
	if err != nil {
		return nil, &PGNError{Err: fmt.Errorf("the final position: %w", err)}
	}
	g.tags = classic.tags
	g.fromChessGame = true
	return g, nil
}

// play replays the tokens as a game of v, within opts' bounds on plies and
// variations.
func (pg *pgnGame) play(v Variant, opts PGNOptions) (*Game, error) {
	g, err := FromFEN(pg.start(v), v)
	if err != nil {
		return nil, &PGNError{Token: "[FEN]", Err: err}
	}
	for _, t := range pg.tags {
		if !derivedTags[t.Name] {
			g.tags = append(g.tags, t)
		}
	}
	r := &pgnReader{g: g, v: v, limits: VariationLimits{MaxPlies: opts.MaxPlies, MaxVariations: opts.MaxVariations, MaxDepth: opts.MaxVariationDepth}}
	var main notes
	if _, err := r.line(pg.tokens, 0, &main, nil, "", 0); err != nil {
		return nil, err
	}
	g.notes = main
	if !g.outcome.Over() {
		switch r.result {
		case "1-0":
			g.Resign(Black)
		case "0-1":
			g.Resign(White)
		case "1/2-1/2":
			g.AgreeDraw()
		}
	}
	return g, nil
}

// pgnReader plays a game's tokens on g: its main line, and each variation
// where it branches, played and then taken back.
type pgnReader struct {
	g      *Game
	v      Variant
	limits VariationLimits
	size   TreeSize // what was read so far
	result string   // the result token
}

// line reads a line's tokens from tokens[i:], playing them on r.g from
// where it stands, into ns and, for a variation, v's plies, up to the ")"
// that closes a variation or the end of the main line. It returns the
// index after the line. where names the ply a variation is an
// alternative to, for errors ("" for the main line), and depth how deep
// it is (0 for the main line).
func (r *pgnReader) line(tokens []pgnToken, i int, ns *notes, v *Variation, where string, depth int) (int, error) {
	g := r.g
	base := len(g.plies)
	for ; i < len(tokens); i++ {
		t := tokens[i]
		n := len(g.plies) - base
		at := func(err error) error {
			pos := g.Position()
			return &PGNError{MoveNumber: pos.Fullmove, Side: pos.ToMove, Token: Clip(t.text), Variation: where, Err: err}
		}
		var act Action
		switch t.kind {
		case tokClose:
			return i + 1, nil
		case tokOpen:
			next, err := r.variation(tokens, i, ns, n, where, depth)
			if err != nil {
				return 0, err
			}
			i = next - 1
			continue
		case tokNAG:
			ns.at(n).addNAG(t.nag)
			continue
		case tokResult:
			r.result = t.text
			continue
		case tokComment:
			m := banComment.FindStringSubmatch(t.text)
			if m == nil {
				ns.addComment(n, t.text)
				continue
			}
			if err := r.countPly(); err != nil {
				return 0, err
			}
			if !r.v.HasBans() {
				return 0, at(fmt.Errorf("%s games have no bans", r.v.Name()))
			}
			if g.Turn().Phase != PhaseBan {
				return 0, at(errors.New("a second ban before the move; each move has one ban"))
			}
			p, _ := ParsePair(strings.ToLower(m[1]))
			act = BanAction(p.From, p.To)
		case tokMove:
			if err := r.countPly(); err != nil {
				return 0, err
			}
			if g.Turn().Phase == PhaseBan && !g.outcome.Over() {
				return 0, at(fmt.Errorf("no ban comment before this move; in Ban Chess every move follows a ban like {banning: e2e4}"))
			}
			a, err := g.Notation().ParseMove(t.text)
			if err != nil {
				return 0, at(err)
			}
			act = a
		}
		if err := g.Play(act); err != nil {
			return 0, at(err)
		}
		if v != nil {
			v.plies = append(v.plies, g.Record().lastPly())
		}
	}
	return i, nil
}

// countPly counts a ply read, within the bound on plies.
func (r *pgnReader) countPly() error {
	r.size.Plies++
	if err := r.limits.check(r.size); err != nil {
		return &PGNError{Err: err}
	}
	return nil
}

// variation reads the variation that opens at tokens[i]: an alternative
// to the last ply of the line (where, at depth) it is in, its n-th, which
// it takes back to read the variation from there, into ns. It then takes
// the variation back too and plays the ply again, and returns the index
// after the variation.
func (r *pgnReader) variation(tokens []pgnToken, i int, ns *notes, n int, where string, depth int) (int, error) {
	g := r.g
	if n == 0 {
		return 0, &PGNError{Token: "(", Variation: where, Err: errors.New("a variation before any ply of its line: a variation follows the ply it is an alternative to")}
	}
	r.size.Variations++
	r.size.Depth = max(r.size.Depth, depth+1)
	if err := r.limits.check(r.size); err != nil {
		return 0, &PGNError{Token: "(", Err: err}
	}
	last := g.plies[len(g.plies)-1]
	if err := g.takeBack(len(g.plies) - 1); err != nil {
		return 0, err
	}
	where = plyName(g.Position(), last)
	sub := &Variation{}
	next, err := r.line(tokens, i+1, &sub.notes, sub, where, depth+1)
	if err != nil {
		return 0, err
	}
	if len(sub.plies) == 0 {
		return 0, &PGNError{Token: "(", Variation: where, Err: errors.New("a variation without a ply")}
	}
	if err := g.takeBack(len(g.plies) - len(sub.plies)); err != nil {
		return 0, err
	}
	if err := g.Play(last.action); err != nil {
		return 0, fmt.Errorf("PGN: playing %s again after its variation: %w", last.action, err)
	}
	nt := ns.at(n)
	nt.variations = append(nt.variations, sub)
	return next, nil
}

// plyName writes a ply played from pos as movetext does, for a message:
// "4... Bxf3", "2. {banning: g1f3}".
func plyName(pos Position, p plyRecord) string {
	num := strconv.Itoa(pos.Fullmove) + "."
	if pos.ToMove == Black {
		num += ".."
	}
	if p.action.Phase == PhaseBan {
		return num + " {banning: " + p.action.Coords() + "}"
	}
	return num + " " + p.san
}

// splitPGN tokenises PGN text into games, within opts' bounds on tags.
// Move numbers and escape lines are dropped; a variation's parentheses
// must match, within its game.
func splitPGN(text string, opts PGNOptions) ([]pgnGame, error) {
	var games []pgnGame
	cur := &pgnGame{}
	inMoves := false
	depth, opened := 0, 0 // variations open, and where the outermost opened
	flush := func() {
		if len(cur.tags) > 0 || len(cur.tokens) > 0 {
			games = append(games, *cur)
		}
		cur = &pgnGame{}
		inMoves = false
	}
	s := strings.TrimPrefix(text, "\uFEFF")
	unclosed := func(before string) error {
		return &PGNError{Token: Clip(s[opened:]), Err: errors.New("variation has no closing )" + before)}
	}
	lineStart := true
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n' || c == '\r':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\f' || c == '\v':
			i++
			continue
		case c == '%' && lineStart:
			i = skipLine(s, i)
			continue
		}
		lineStart = false
		switch c {
		case '[':
			if depth > 0 {
				return nil, unclosed(" before the next game's tags")
			}
			if inMoves {
				flush()
			}
			if opts.MaxTags > 0 && len(cur.tags) >= opts.MaxTags {
				return nil, &PGNError{Err: tagLimitError{ErrTooManyTags, fmt.Sprintf("the game has more than %d tags, the most this reader takes", opts.MaxTags)}}
			}
			tag, n, err := readTag(s[i:], opts)
			if err != nil {
				return nil, err
			}
			cur.tags = append(cur.tags, tag)
			i += n
		case '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return nil, &PGNError{Token: Clip(s[i:]), Err: errors.New("comment has no closing }")}
			}
			cur.tokens = append(cur.tokens, pgnToken{kind: tokComment, text: s[i+1 : i+end]})
			inMoves = true
			i += end + 1
		case ';':
			end := skipLine(s, i)
			cur.tokens = append(cur.tokens, pgnToken{kind: tokComment, text: s[i+1 : end]})
			i = end
		case '(':
			if depth == 0 {
				opened = i
			}
			depth++
			cur.tokens = append(cur.tokens, pgnToken{kind: tokOpen, text: "("})
			inMoves = true
			i++
		case ')':
			if depth == 0 {
				return nil, &PGNError{Token: ")", Err: errors.New("a variation closes that was never opened")}
			}
			depth--
			cur.tokens = append(cur.tokens, pgnToken{kind: tokClose, text: ")"})
			i++
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\r\n\f\v[]{}();", rune(s[j])) {
				j++
			}
			if j == i { // a stray byte such as ']'
				return nil, &PGNError{Token: string(c), Err: errors.New("unexpected character")}
			}
			word := s[i:j]
			i = j
			inMoves = true
			switch word {
			case "1-0", "0-1", "1/2-1/2", "*":
				if depth > 0 {
					return nil, unclosed(" before the result " + word)
				}
				cur.tokens = append(cur.tokens, pgnToken{kind: tokResult, text: word})
				flush()
				continue
			}
			move, glyph := splitGlyph(stripMoveNumber(word))
			if word[0] == '$' {
				move, glyph = "", word
			}
			if move != "" {
				cur.tokens = append(cur.tokens, pgnToken{kind: tokMove, text: move})
			}
			if glyph != "" {
				nag, err := ParseNAG(glyph)
				if err != nil {
					return nil, &PGNError{Token: Clip(word), Err: err}
				}
				cur.tokens = append(cur.tokens, pgnToken{kind: tokNAG, text: glyph, nag: nag})
			}
		}
	}
	if depth > 0 {
		return nil, unclosed("")
	}
	flush()
	return games, nil
}

// splitGlyph cuts the annotation glyph ("!", "?!", …) off the end of a
// word: "Nf3!?" → "Nf3", "!?".
func splitGlyph(w string) (move, glyph string) {
	move = strings.TrimRight(w, "!?")
	return move, w[len(move):]
}

// stripMoveNumber removes a move number such as "12." or "12..." from the
// front of a word ("1.e4" → "e4"), leaving castling written with zeros alone.
func stripMoveNumber(w string) string {
	if strings.HasPrefix(w, "0-0") || strings.HasPrefix(w, "O-O") {
		return w
	}
	i := 0
	for i < len(w) && w[i] >= '0' && w[i] <= '9' {
		i++
	}
	if i > 0 && i < len(w) && w[i] == '.' {
		return strings.TrimLeft(w[i:], ".")
	}
	if i == len(w) {
		return "" // a bare number
	}
	return strings.TrimLeft(w, ".")
}

func skipLine(s string, i int) int {
	for i < len(s) && s[i] != '\n' {
		i++
	}
	return i
}

// readTag reads [Name "Value"] at the start of s, within opts' bounds on a
// tag's name and value.
func readTag(s string, opts PGNOptions) (Tag, int, error) {
	i := 1
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	start := i
	for i < len(s) && (isAlnum(s[i]) || s[i] == '_') {
		i++
	}
	name := s[start:i]
	if opts.MaxTagNameBytes > 0 && len(name) > opts.MaxTagNameBytes {
		return Tag{}, 0, &PGNError{Token: Clip(s), Err: tagLimitError{ErrTagTooLong, fmt.Sprintf("the tag's name is longer than %d bytes, the longest this reader takes", opts.MaxTagNameBytes)}}
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if name == "" || i >= len(s) || s[i] != '"' {
		return Tag{}, 0, &PGNError{Token: Clip(s), Err: errors.New(`a tag must look like [Name "value"]`)}
	}
	var v strings.Builder
	for i++; i < len(s) && s[i] != '"'; i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		if s[i] == '\n' {
			return Tag{}, 0, &PGNError{Token: Clip(s), Err: errors.New("the tag's value has no closing quote")}
		}
		if opts.MaxTagBytes > 0 && v.Len() >= opts.MaxTagBytes {
			return Tag{}, 0, &PGNError{Token: Clip(s), Err: tagLimitError{ErrTagTooLong, fmt.Sprintf("the tag's value is longer than %d bytes, the longest this reader takes", opts.MaxTagBytes)}}
		}
		v.WriteByte(s[i])
	}
	if i >= len(s) {
		return Tag{}, 0, &PGNError{Token: Clip(s), Err: errors.New("the tag's value has no closing quote")}
	}
	i++
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i >= len(s) || s[i] != ']' {
		return Tag{}, 0, &PGNError{Token: Clip(s), Err: errors.New("the tag has no closing ]")}
	}
	return Tag{Name: name, Value: v.String()}, i + 1, nil
}

func isAlnum(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}
