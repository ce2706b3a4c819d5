package swiss

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Color is the side a player had in a round.
type Color int8

// The colours; NoColor is a round without a game played over the board.
const (
	NoColor Color = iota
	White
	Black
)

// Other is the opposite colour (NoColor for NoColor).
func (c Color) Other() Color {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return NoColor
}

// String is "white", "black" or "none".
func (c Color) String() string {
	switch c {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return "none"
}

// Kind is what a round was for a player.
type Kind int8

// The kinds of a round.
const (
	// Played: a game against Opponent with Color; Points is its result
	// (the two sides' Points add up to 2).
	Played Kind = iota
	// Bye: the pairing-allocated bye (see Round.Bye), Points 2.
	Bye
	// Absent: no game and no pairing: a round before the player joined, or
	// one they sat out; Points 0, or 1 for a half-point bye the player
	// asked for (it is not a pairing-allocated bye).
	Absent
	// Forfeit: paired with Opponent but the game was not played (one side
	// did not start); it counts as a meeting but no colour, and as an
	// unplayed round for tiebreaks.
	Forfeit
)

// Game is one round of a player's history.
type Game struct {
	Kind     Kind
	Opponent string // the opponent's ID for Played and Forfeit, else ""
	Color    Color  // for Played: the player's colour; else NoColor
	Points   int    // half-points scored: 0, 1 or 2
}

// Player is a participant as the pairing sees them.
type Player struct {
	ID     string
	Rating int
	// Games[i] is round i+1. Missing entries at the end (a player who
	// joined late, or rounds not recorded) count as Absent.
	Games     []Game
	Withdrawn bool // not paired any more; still in the standings
}

// Points is the player's score in half-points.
func (p Player) Points() int {
	total := 0
	for _, g := range p.Games {
		total += g.Points
	}
	return total
}

// Errors; they are wrapped with the particulars.
var (
	// ErrInvalid: the players or the round are not a consistent event.
	ErrInvalid = errors.New("swiss: invalid event")
	// ErrNoPairing: no pairing meets the absolute criteria (everyone met
	// everyone, colours exhausted, no one may take the bye).
	ErrNoPairing = errors.New("swiss: no legal pairing")
)

// validate checks the players' histories before round `round`.
func validate(players []Player, round int) error {
	if round < 1 {
		return fmt.Errorf("%w: round %d: rounds count from 1", ErrInvalid, round)
	}
	byID := make(map[string]*Player, len(players))
	for i := range players {
		p := &players[i]
		if strings.TrimSpace(p.ID) == "" {
			return fmt.Errorf("%w: player %d has no ID", ErrInvalid, i)
		}
		if byID[p.ID] != nil {
			return fmt.Errorf("%w: two players are %q", ErrInvalid, p.ID)
		}
		byID[p.ID] = p
		if len(p.Games) >= round {
			return fmt.Errorf("%w: %s has %d rounds recorded before round %d", ErrInvalid, p.ID, len(p.Games), round)
		}
	}
	for i := range players {
		p := &players[i]
		for r, g := range p.Games {
			if err := validGame(byID, p, r, g); err != nil {
				return err
			}
		}
	}
	return nil
}

// validGame checks round r (0-based) of p's history against the opponent's.
func validGame(byID map[string]*Player, p *Player, r int, g Game) error {
	where := fmt.Sprintf("%s's round %d", p.ID, r+1)
	if g.Points < 0 || g.Points > 2 {
		return fmt.Errorf("%w: %s scores %d half-points", ErrInvalid, where, g.Points)
	}
	switch g.Kind {
	case Bye, Absent:
		if g.Opponent != "" || g.Color != NoColor {
			return fmt.Errorf("%w: %s has no game but an opponent or a colour", ErrInvalid, where)
		}
		return nil
	case Played, Forfeit:
	default:
		return fmt.Errorf("%w: %s is of kind %d", ErrInvalid, where, g.Kind)
	}
	o := byID[g.Opponent]
	if o == nil || o == p {
		return fmt.Errorf("%w: %s is against %q, not another player", ErrInvalid, where, g.Opponent)
	}
	if g.Kind == Played && g.Color != White && g.Color != Black {
		return fmt.Errorf("%w: %s was played without a colour", ErrInvalid, where)
	}
	if g.Kind == Forfeit && g.Color != NoColor {
		return fmt.Errorf("%w: %s was forfeited but has a colour", ErrInvalid, where)
	}
	if r >= len(o.Games) || o.Games[r].Opponent != p.ID || o.Games[r].Kind != g.Kind || o.Games[r].Color != g.Color.Other() {
		return fmt.Errorf("%w: %s is against %s, whose round %d does not match", ErrInvalid, where, o.ID, r+1)
	}
	if g.Kind == Played && g.Points+o.Games[r].Points != 2 {
		return fmt.Errorf("%w: %s against %s scores %d and %d half-points, not a game's 2", ErrInvalid, where, o.ID, g.Points, o.Games[r].Points)
	}
	return nil
}

// state is what the pairing needs of a player, worked out once.
type state struct {
	p        *Player
	points   int
	met      map[string]bool
	hadBye   bool    // had the pairing's bye, or won by forfeit: no bye now
	colors   []Color // per round (index = round-1, this round excluded); NoColor unplayed
	diff     int     // whites − blacks
	last     Color   // the latest colour played, or NoColor
	twice    bool    // the two latest colours played are the same
	pref     Color   // the colour preferred, or NoColor
	strength int     // the preference's: 0 none, 1 mild, 2 strong, 3 absolute
	number   int     // pairing number: 1 + place by rating, then ID
	rank     int     // place in this round's order (score, rating, ID), from 0
	group    int     // score group, from 0 (the highest)
	pos      int     // place within the score group, from 0
	size     int     // the score group's size
	float    int     // the last round's float: +1 down, −1 up, 0 none
}

func newState(p *Player, round int) *state {
	s := &state{p: p, points: p.Points(), met: map[string]bool{}, colors: make([]Color, round-1)}
	var played []Color
	for r, g := range p.Games {
		switch g.Kind {
		case Played:
			s.colors[r] = g.Color
			played = append(played, g.Color)
			if g.Color == White {
				s.diff++
			} else {
				s.diff--
			}
			s.met[g.Opponent] = true
		case Forfeit:
			s.met[g.Opponent] = true
			// A forfeit won is as good as a bye (FIDE C.04.1.d).
			s.hadBye = s.hadBye || g.Points == 2
		case Bye:
			s.hadBye = true
		}
	}
	if k := len(played); k > 0 {
		s.last = played[k-1]
		s.twice = k >= 2 && played[k-2] == played[k-1]
	}
	switch {
	case len(played) == 0:
	case s.diff > 1 || s.diff < -1 || s.twice:
		s.strength = 3
		s.pref = s.last.Other()
		if s.diff > 1 {
			s.pref = Black
		} else if s.diff < -1 {
			s.pref = White
		}
	case s.diff == 1:
		s.strength, s.pref = 2, Black
	case s.diff == -1:
		s.strength, s.pref = 2, White
	default:
		s.strength, s.pref = 1, s.last.Other()
	}
	return s
}

// floats notes each player's float in the round before `round`: down
// when they met a lower score or scored without playing (the bye, a
// forfeit won, a half-point bye), up when they met a higher score.
func floats(all []*state, round int) {
	last := round - 2
	if last < 0 {
		return
	}
	before := make(map[string]int, len(all))
	for _, s := range all {
		for _, g := range s.p.Games[:min(last, len(s.p.Games))] {
			before[s.p.ID] += g.Points
		}
	}
	for _, s := range all {
		if last >= len(s.p.Games) {
			continue
		}
		switch g := s.p.Games[last]; {
		case g.Kind != Played && g.Points > 0:
			s.float = 1
		case g.Kind == Played && before[s.p.ID] > before[g.Opponent]:
			s.float = 1
		case g.Kind == Played && before[s.p.ID] < before[g.Opponent]:
			s.float = -1
		}
	}
}

// allows reports whether c keeps the colour rules: never three of one
// colour in a row, whites − blacks within ±2.
func (s *state) allows(c Color) bool {
	d := s.diff + 1
	if c == Black {
		d = s.diff - 1
	}
	if d > 2 || d < -2 {
		return false
	}
	return !(s.twice && s.last == c)
}

// order sorts the active players for the round: score, rating, ID; and
// numbers them by rating and ID among all players.
func order(all, active []*state) {
	slices.SortFunc(all, func(a, b *state) int {
		if a.p.Rating != b.p.Rating {
			return b.p.Rating - a.p.Rating
		}
		return strings.Compare(a.p.ID, b.p.ID)
	})
	for i, s := range all {
		s.number = i + 1
	}
	slices.SortFunc(active, func(a, b *state) int {
		if a.points != b.points {
			return b.points - a.points
		}
		return a.number - b.number
	})
	for i, s := range active {
		s.rank = i
		if i > 0 && s.points == active[i-1].points {
			s.group, s.pos = active[i-1].group, active[i-1].pos+1
		} else if i > 0 {
			s.group = active[i-1].group + 1
		}
	}
	for i := len(active) - 1; i >= 0; i-- {
		s := active[i]
		s.size = s.pos + 1
		if i+1 < len(active) && active[i+1].group == s.group {
			s.size = active[i+1].size
		}
	}
}
