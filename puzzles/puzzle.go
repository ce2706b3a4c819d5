// Package puzzles holds Ban Chess puzzles: positions where the side to act
// has one clearly winning action, with the line that proves it. It defines
// the puzzle, its file format (JSON lines), the shipped set (embedded in the
// binary, made by "banchess puzzles generate"), the checks every shipped
// puzzle passes (Describe, Verify), a prover of forced mates over explicit
// bans (Prover), the judge of a solver's attempt (Puzzle.Judge) and the
// selections a trainer needs (Set). docs/puzzles.md explains them.
package puzzles

//go:generate sh make_puzzles.sh

import (
	"bufio"
	"crypto/sha256"
	"encoding/base32"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/banchess/banchess/rules"
)

// Variant is the variant puzzles are of: Ban Chess.
func Variant() rules.Variant { return rules.BanChess{} }

// Theme is what a puzzle is about. Every puzzle has one kind (MateIn1,
// MateIn2, MateIn3, Material or Defence) and any of the others its
// solution shows.
type Theme string

// The themes. Each is assigned by a check of the solution (Describe).
const (
	// MateIn1, MateIn2 and MateIn3: the solver mates with its first,
	// second or third action (bans and moves both count), within five
	// plies.
	MateIn1 Theme = "mateIn1"
	MateIn2 Theme = "mateIn2"
	MateIn3 Theme = "mateIn3"
	// MateIn4: the solver mates with its fourth action, within eight
	// plies (six from a move ply, eight from a ban ply).
	MateIn4 Theme = "mateIn4"
	// Material: the solver wins at least three pawns of material (pawn 1,
	// knight and bishop 3, rook 5, queen 9).
	Material Theme = "material"
	// Defence: every other first action lets the opponent force mate;
	// the solution does not.
	Defence Theme = "defence"
	// MateByBan: the mate comes by a ban — the solver bans the last way
	// out of check.
	MateByBan Theme = "mateByBan"
	// Promotion: the solver promotes a pawn.
	Promotion Theme = "promotion"
	// UnderPromotion: the solver promotes a pawn to a knight, bishop or rook.
	UnderPromotion Theme = "underPromotion"
	// StalemateTrap: another first action stalemates, at once or by the
	// ban the solver must then make.
	StalemateTrap Theme = "stalemateTrap"
	// Ban: the solution starts with a ban.
	Ban Theme = "ban"
	// Long: the solver acts LongActions times or more in the solution
	// (a mate or a material line).
	Long Theme = "long"
)

// LongActions is the least number of solver actions of a Long puzzle.
const LongActions = 4

// themeOrder is every theme, kinds first, in the order a puzzle lists
// them; read only.
var themeOrder = []Theme{MateIn1, MateIn2, MateIn3, MateIn4, Material, Defence, MateByBan, Promotion, UnderPromotion, StalemateTrap, Ban, Long}

// AllThemes returns every theme, kinds first.
func AllThemes() []Theme { return append([]Theme(nil), themeOrder...) }

// Name is the theme as people read it: "Mate in 1", "Checkmate by ban",
// "Stalemate trap" (the theme itself when unknown). It is the one table
// of the themes' names: the pages, the lists of themes and the API's
// names all read it.
func (t Theme) Name() string {
	switch t {
	case MateIn1:
		return "Mate in 1"
	case MateIn2:
		return "Mate in 2"
	case MateIn3:
		return "Mate in 3"
	case MateIn4:
		return "Mate in 4"
	case Material:
		return "Winning material"
	case Defence:
		return "Defence"
	case MateByBan:
		return "Checkmate by ban"
	case Promotion:
		return "Promotion"
	case UnderPromotion:
		return "Underpromotion"
	case StalemateTrap:
		return "Stalemate trap"
	case Ban:
		return "The ban first"
	case Long:
		return "Long puzzle"
	}
	return string(t)
}

// IsKind reports whether t is a kind of puzzle rather than a trait.
func (t Theme) IsKind() bool {
	switch t {
	case MateIn1, MateIn2, MateIn3, MateIn4, Material, Defence:
		return true
	}
	return false
}

// Known reports whether t is one of the themes.
func (t Theme) Known() bool {
	for _, k := range themeOrder {
		if t == k {
			return true
		}
	}
	return false
}

// MateTheme returns the theme of a mate with the solver's nth action.
func MateTheme(n int) (Theme, bool) {
	switch n {
	case 1:
		return MateIn1, true
	case 2:
		return MateIn2, true
	case 3:
		return MateIn3, true
	case 4:
		return MateIn4, true
	}
	return "", false
}

// Puzzle is one puzzle, as the file stores it.
type Puzzle struct {
	// ID names the puzzle: IDOf its position.
	ID string `json:"id"`
	// FEN is the position, in the extended FEN of docs/rules.md: its seventh
	// field says whether the next ply bans and which ban is in force.
	FEN string `json:"fen"`
	// Solution is the line in BCN: the solver's actions and the
	// opponent's replies (bans and moves) in the order they are played,
	// the solver's first.
	Solution []string `json:"solution"`
	// Themes are the puzzle's kind, then its other themes.
	Themes []Theme `json:"themes"`
	// Rating is the starting rating, from the difficulty (see
	// docs/puzzles.md); a trainer updates its own copy.
	Rating int `json:"rating"`
}

// Kind returns the puzzle's kind: its first theme.
func (p Puzzle) Kind() Theme {
	if len(p.Themes) == 0 {
		return ""
	}
	return p.Themes[0]
}

// Has reports whether the puzzle has theme t.
func (p Puzzle) Has(t Theme) bool {
	for _, x := range p.Themes {
		if x == t {
			return true
		}
	}
	return false
}

// Start returns a game at the puzzle's position.
func (p Puzzle) Start() (*rules.Game, error) {
	g, err := rules.FromFEN(p.FEN, Variant())
	if err != nil {
		return nil, fmt.Errorf("puzzle %s: %w", p.ID, err)
	}
	return g, nil
}

// Solver returns the side that solves the puzzle: the side to act at its
// position.
func (p Puzzle) Solver() (rules.Color, error) {
	g, err := p.Start()
	if err != nil {
		return 0, err
	}
	return g.Turn().Actor, nil
}

// Line returns the solution as actions.
func (p Puzzle) Line() ([]rules.Action, error) {
	out := make([]rules.Action, len(p.Solution))
	for i, s := range p.Solution {
		a, err := rules.ParseAction(s)
		if err != nil {
			return nil, fmt.Errorf("puzzle %s: solution action %d: %w", p.ID, i+1, err)
		}
		out[i] = a
	}
	return out, nil
}

// Key returns what makes two moments the same puzzle position: the
// placement, the side to move, castling and en passant, whether the next
// ply bans, and the ban in force. Move counters do not count.
func Key(g *rules.Game) string {
	f := strings.Fields(g.FEN())
	key := strings.Join(f[:4], " ")
	if g.Turn().Phase == rules.PhaseBan {
		return key + " ban"
	}
	ban, _ := g.Ban()
	return key + " move " + ban.String()
}

// IDOf returns the id of the puzzle with this key: eight characters of
// its SHA-256 in lower-case base32.
func IDOf(key string) string {
	sum := sha256.Sum256([]byte(key))
	return strings.ToLower(base32.StdEncoding.EncodeToString(sum[:5]))
}

// Write writes puzzles as JSON lines, one puzzle a line.
func Write(w io.Writer, puzzles []Puzzle) error {
	bw := bufio.NewWriter(w)
	for _, p := range puzzles {
		b, err := json.Marshal(p)
		if err != nil {
			return fmt.Errorf("puzzle %s: %w", p.ID, err)
		}
		bw.Write(b)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// Read reads puzzles written by Write. It checks that each line is a
// puzzle; Verify checks what a puzzle claims.
func Read(r io.Reader) ([]Puzzle, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var out []Puzzle
	for n := 1; sc.Scan(); n++ {
		var p Puzzle
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("puzzles, line %d: %w", n, err)
		}
		if p.ID == "" || p.FEN == "" || len(p.Solution) == 0 || !p.Kind().IsKind() {
			return nil, fmt.Errorf("puzzles, line %d: a puzzle needs an id, a FEN, a solution and a kind first among its themes", n)
		}
		for _, t := range p.Themes {
			if !t.Known() {
				return nil, fmt.Errorf("puzzles, line %d: unknown theme %q", n, t)
			}
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("puzzles: %w", err)
	}
	return out, nil
}

// ThemeKeys are themes as their keys ("mateIn2"), as files, addresses
// and the API name them; Theme.Name is the name for people.
func ThemeKeys(ts []Theme) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t)
	}
	return out
}
