package views

import (
	"slices"
	"strconv"
	"strings"

	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// Player is one side of a game as the strips by the board show it: who
// plays it, and their clock. Handlers fill it from the game's record (the
// seats, the computer, the table's clock and presence) and from the
// game's own tags (an imported game's names and ratings): PlayersOf.
type Player struct {
	Side rules.Color
	// Name is who plays the side: a player's name, "Anonymous", "Computer
	// · level 3", an imported game's tag, or, at one board, the side's
	// name ("White").
	Name string
	// Profile says Name is a player's with a profile page (/@/{name}).
	Profile bool
	// Title is a title or label shown before the name ("GM"); "" for none.
	Title string
	// Rating is the player's rating (0: none); Provisional marks one not
	// yet settled, written with a "?".
	Rating      int
	Provisional bool
	// RatingDiff is what a finished rated game changed the rating by
	// ("+12"); "" for none.
	RatingDiff string
	// You says the viewer plays this side (alone: not at one board).
	You bool
	// Presence says the strip shows whether the side's player is online
	// (a game between two players), with Seated and Connected.
	Presence, Seated, Connected bool
	// Clock is the side's clock; nil without one.
	Clock *ClockFace
}

// ClockFace is one side's clock as it stands when the page is written.
type ClockFace struct {
	MS      int64  // the time left, in milliseconds
	Text    string // "4:59"
	Running bool
	// FirstMS is, while the game waits for this side's first action, the
	// milliseconds left for it before the game is aborted; -1 otherwise.
	FirstMS int64
	// Days says the clock is a correspondence game's (NewDaysClockFace):
	// its times are in days and hours, and a page does not tick it.
	Days bool
}

// NewClockFace is a clock showing ms left, running or not.
func NewClockFace(ms int64, running bool) *ClockFace {
	return &ClockFace{MS: ms, Text: ClockText(ms), Running: running, FirstMS: -1}
}

// SideNames are the names a game's tags give its players (an imported
// game's White and Black, with their Elo and title), for PlayersOf.
type SideNames struct {
	Name, Title string
	Rating      int
}

// TagNames reads g's White and Black tags (and WhiteElo, WhiteTitle, …):
// the names of an imported game's players; "" where a tag is missing or
// "?".
func TagNames(g *rules.Game) (white, black SideNames) {
	for _, t := range g.Record().Tags() {
		v := strings.TrimSpace(t.Value)
		if v == "" || v == "?" || v == "-" {
			continue
		}
		side := &white
		name, ok := strings.CutPrefix(t.Name, "White")
		if !ok {
			side = &black
			if name, ok = strings.CutPrefix(t.Name, "Black"); !ok {
				continue
			}
		}
		switch name {
		case "":
			side.Name = v
		case "Title":
			side.Title = v
		case "Elo":
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				side.Rating = n
			}
		}
	}
	return white, black
}

// Display is the player's name with their rating, as a line of text:
// "Morphy (2690)", "Anonymous", "Alice (1500?)".
func (p Player) Display() string {
	s := p.Name
	if p.Title != "" {
		s = p.Title + " " + s
	}
	if r := p.RatingText(); r != "" {
		s += " (" + r + ")"
	}
	return s
}

// RatingText writes the rating, "1500" or "1500?" while provisional; ""
// for none.
func (p Player) RatingText() string {
	if p.Rating <= 0 {
		return ""
	}
	s := strconv.Itoa(p.Rating)
	if p.Provisional {
		s += "?"
	}
	return s
}

// Strip is one player's strip above or below the board: the player, and
// the material they are ahead by on the board shown.
type Strip struct {
	Player
	// Top says the strip is above the board (the side seen at the top).
	Top bool
	// Captured are the codes of the pieces this side is up by, the
	// opponent's colour, most valuable first ("bQ", "bP", "bP"); Ahead is
	// the material it is ahead by, in pawns (0: none or behind).
	Captured []string
	Ahead    int
}

// pieceValues are the pieces' values in pawns, for the material ahead;
// the king counts nothing, the Auror as a knight.
var pieceValues = [...]int{rules.Pawn: 1, rules.Knight: 3, rules.Bishop: 3, rules.Rook: 5, rules.Queen: 9, rules.King: 0, rules.Auror: 3}

// strips lays out the players' strips, White's then Black's, around a
// board whose bottom side is bottom, showing pos. Their order on the
// page stays the same whichever side is at the bottom (a delta swaps each
// by its id): the stylesheet places the top one above the board, and
// marks the side to act from #status.
func strips(l *i18n.Language, players [2]Player, pos *rules.Position, bottom rules.Color) [2]Strip {
	var count [2][len(pieceValues)]int
	for _, p := range pos.Board {
		if p != rules.NoPiece && int(p.Kind()) < len(pieceValues) {
			count[sideIndex(p.Color())][p.Kind()]++
		}
	}
	var out [2]Strip
	for i, side := range []rules.Color{rules.White, rules.Black} {
		s := Strip{Player: playerOf(l, players, side), Top: side != bottom}
		mine, theirs := count[sideIndex(side)], count[sideIndex(side.Other())]
		score := 0
		for _, k := range []rules.PieceKind{rules.Queen, rules.Rook, rules.Bishop, rules.Knight, rules.Auror, rules.Pawn} {
			for n := mine[k] - theirs[k]; n > 0; n-- {
				s.Captured = append(s.Captured, rules.NewPiece(side.Other(), k).Code())
			}
			score += pieceValues[k] * (mine[k] - theirs[k])
		}
		s.Ahead = max(score, 0)
		out[i] = s
	}
	return out
}

// playerOf is side's player among players (White's, then Black's), with
// its side set.
func playerOf(l *i18n.Language, players [2]Player, side rules.Color) Player {
	p := players[sideIndex(side)]
	p.Side = side
	if p.Name == "" {
		p.Name = l.T(bySide(side, "color.w", "color.b"))
	}
	return p
}

func sideIndex(c rules.Color) int {
	if c == rules.Black {
		return 1
	}
	return 0
}

// MaterialLabel says the strip's material in words, for screen readers:
// "up a knight and 2 pawns, +5"; "" when even.
func (s Strip) MaterialLabel(l *i18n.Language) string {
	if len(s.Captured) == 0 {
		return ""
	}
	var parts []string
	for i := 0; i < len(s.Captured); {
		j := i
		for j < len(s.Captured) && s.Captured[j] == s.Captured[i] {
			j++
		}
		parts = append(parts, l.N(materialNames[pieceKind(s.Captured[i])], j-i))
		i = j
	}
	if s.Ahead > 0 {
		parts = append(parts, "+"+strconv.Itoa(s.Ahead))
	}
	return l.T("material.up", "Pieces", strings.Join(parts, ", "))
}

// materialNames are the messages counting pieces of each kind.
var materialNames = map[rules.PieceKind]string{
	rules.Pawn: "material.pawns", rules.Knight: "material.knights", rules.Bishop: "material.bishops",
	rules.Rook: "material.rooks", rules.Queen: "material.queens", rules.King: "material.kings", rules.Auror: "material.aurors",
}

// pieceKind is the kind of a piece code: "bN" is a knight.
func pieceKind(code string) rules.PieceKind {
	for k := rules.Pawn; k <= rules.Auror; k++ {
		if rules.NewPiece(rules.White, k).Code()[1:] == code[1:] {
			return k
		}
	}
	return rules.Pawn
}

// sameStrip reports whether two strips of one game's players show the
// same: their place and material (a clock or presence is news anyway).
func sameStrip(a, b Strip) bool {
	return a.Top == b.Top && a.Ahead == b.Ahead && slices.Equal(a.Captured, b.Captured)
}

// stripID is the id of side's strip: a delta swaps it by id.
func stripID(side rules.Color) string { return "player-" + side.String() }

// presenceText says whether the side's player is here: "online",
// "offline", or "waiting for a player" while the seat is free.
func presenceText(l *i18n.Language, p Player) string {
	switch {
	case !p.Seated:
		return l.T("presence.waiting")
	case p.Connected:
		return l.T("presence.online")
	}
	return l.T("presence.offline")
}

// ratingTitle explains a rating: "Rating 1500, provisional".
func ratingTitle(l *i18n.Language, p Player) string {
	if p.Provisional {
		return l.T("strip.ratingProvisional", "Rating", p.Rating)
	}
	return l.T("strip.rating", "Rating", p.Rating)
}

// firstActionText says how long the side to act has for its first action
// (phase: "ban" or "move") before the game is aborted: "28 s to ban".
func firstActionText(l *i18n.Language, ms int64, phase string) string {
	seconds := strconv.FormatInt((ms+999)/1000, 10)
	if phase == "ban" {
		return l.T("strip.firstBan", "Seconds", seconds)
	}
	return l.T("strip.firstMove", "Seconds", seconds)
}

// firstActionTextOf is firstActionText, or at a correspondence game
// (c.Days) the time in days and hours: "3 days to ban".
func firstActionTextOf(l *i18n.Language, c *ClockFace, phase string) string {
	if c.Days {
		left := DaysTextIn(l, c.FirstMS)
		if phase == "ban" {
			return l.T("ago.toBan", "Left", left)
		}
		return l.T("ago.toMove", "Left", left)
	}
	return firstActionText(l, c.FirstMS, phase)
}
