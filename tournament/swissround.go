package tournament

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/tournament/swiss"
)

// swissRound pairs t's next round (swiss.Pair) once it is due (RoundDue),
// starts every game of it at once, and records its pairings and bye.
func (s *Service) swissRound(ctx context.Context, t *Tournament, now time.Time) error {
	if !RoundDue(t, now) {
		return nil
	}
	round := t.Round + 1
	rd, err := swiss.Pair(SwissPlayers(t, true), round)
	if errors.Is(err, swiss.ErrNoPairing) && t.Running() > 0 {
		return nil // the interval passed but too few are free: wait for the games
	}
	if errors.Is(err, swiss.ErrNoPairing) && t.Running() == 0 {
		// No pairing meets the rules (few players left): the event ends.
		return s.store.UpdateTournament(ctx, t.ID, func(t *Tournament) error {
			if t.Round == round-1 && t.Running() == 0 {
				t.Status = Finished
			}
			return nil
		})
	}
	if err != nil {
		return fmt.Errorf("pairing round %d: %w", round, err)
	}
	var made []Pairing
	for _, b := range rd.Boards {
		p, err := s.start(ctx, t, Pair{White: b.White, Black: b.Black}, now)
		if err != nil {
			return err
		}
		p.Round = round
		made = append(made, p)
	}
	return s.store.UpdateTournament(ctx, t.ID, func(t *Tournament) error {
		if t.Round != round-1 {
			return nil // paired meanwhile by another server
		}
		t.Pairings = append(t.Pairings, made...)
		for len(t.Byes) < round-1 {
			t.Byes = append(t.Byes, "")
		}
		t.Byes = append(t.Byes, rd.Bye)
		t.Round, t.RoundStarted = round, now
		return nil
	})
}

// RoundDue reports whether a started Swiss event pairs its next round at
// now: the first once two players may play, a later one when every game
// of the round before ended or its interval since that round's start
// passed (players still playing then sit the new round out).
func RoundDue(t *Tournament, now time.Time) bool {
	switch {
	case t.Status != Started || t.Round >= t.Rounds:
		return false
	case t.Round == 0:
		active := 0
		for _, p := range t.Players {
			if !p.Paused {
				active++
			}
		}
		return active >= 2
	case t.Running() == 0:
		return true
	}
	return t.Interval > 0 && !now.Before(t.RoundStarted.Add(time.Duration(t.Interval)*time.Second))
}

// SwissPlayers returns t's players as package swiss sees them, each with
// a history of t.Round rounds: a game played (a game running counts, when
// busy, as a draw so far, else as nothing scored yet), the bye (one point), a forfeit (a game aborted because
// one side let their first action pass: a loss for them, a win for the
// other; a game lost to the server: nothing for either) or Absent (zero
// points: a round before they joined, or one they sat out). A withdrawn
// player is Withdrawn; so, when busy, is one still playing.
func SwissPlayers(t *Tournament, busy bool) []swiss.Player {
	idx := make(map[string]int, len(t.Players))
	out := make([]swiss.Player, len(t.Players))
	for i, p := range t.Players {
		idx[p.ID] = i
		games := make([]swiss.Game, t.Round)
		for r := range games {
			games[r] = swiss.Game{Kind: swiss.Absent}
			if r < len(t.Byes) && t.Byes[r] == p.ID {
				games[r] = swiss.Game{Kind: swiss.Bye, Points: 2}
			}
		}
		out[i] = swiss.Player{ID: p.ID, Rating: p.Rating, Games: games, Withdrawn: p.Paused}
	}
	for _, pr := range t.Pairings {
		w, okW := idx[pr.White]
		b, okB := idx[pr.Black]
		r := pr.Round - 1
		if !okW || !okB || r < 0 || r >= t.Round {
			continue
		}
		gw := swiss.Game{Kind: swiss.Played, Opponent: pr.Black, Color: swiss.White, Points: 1}
		gb := swiss.Game{Kind: swiss.Played, Opponent: pr.White, Color: swiss.Black, Points: 1}
		switch {
		case !pr.Done && busy:
			out[w].Withdrawn, out[b].Withdrawn = true, true
		case !pr.Done: // nothing scored yet
			gw, gb = swiss.Game{Kind: swiss.Forfeit, Opponent: pr.Black}, swiss.Game{Kind: swiss.Forfeit, Opponent: pr.White}
		case pr.Aborted:
			gw, gb = swiss.Game{Kind: swiss.Forfeit, Opponent: pr.Black}, swiss.Game{Kind: swiss.Forfeit, Opponent: pr.White}
			switch pr.Idle {
			case rules.White:
				gb.Points = 2
			case rules.Black:
				gw.Points = 2
			}
		case pr.Winner == rules.White:
			gw.Points, gb.Points = 2, 0
		case pr.Winner == rules.Black:
			gw.Points, gb.Points = 0, 2
		}
		out[w].Games[r], out[b].Games[r] = gw, gb
	}
	return out
}

// swissStandings ranks a Swiss event's players (swiss.Standings): Score
// in half-points, Buchholz and SonnebornBerger as that package counts
// them, each round's half-points on the sheet.
func swissStandings(t *Tournament) []Standing {
	ps := SwissPlayers(t, false)
	byID := make(map[string]swiss.Player, len(ps))
	for _, p := range ps {
		byID[p.ID] = p
	}
	ranked, err := swiss.Standings(ps)
	if err != nil { // an inconsistent event: unranked, as joined
		ranked = nil
		for i, p := range ps {
			ranked = append(ranked, swiss.Standing{ID: p.ID, Rank: i + 1, Points: p.Points(), Rating: p.Rating, Withdrawn: p.Withdrawn})
		}
	}
	rows := make([]Standing, 0, len(ranked))
	for _, r := range ranked {
		pl := t.Player(r.ID)
		row := Standing{Rank: r.Rank, Player: r.ID, Name: pl.Name, Rating: pl.Rating, Score: r.Points, Paused: pl.Paused,
			Buchholz: r.Buchholz, SonnebornBerger: r.SonnebornBerger, Sheet: []Mark{}}
		for _, g := range byID[r.ID].Games {
			row.Sheet = append(row.Sheet, Mark{Outcome: outcomeOf(g.Points), Points: g.Points})
		}
		if p := t.Playing(r.ID); p != nil {
			row.Game = p.Game
		}
		rows = append(rows, row)
	}
	return rows
}

func outcomeOf(halves int) Outcome {
	return []Outcome{Loss, Draw, Win}[min(max(halves, 0), 2)]
}

// Boards returns the pairings of t's round (from 1), board order.
func Boards(t *Tournament, round int) []Pairing {
	var out []Pairing
	for _, p := range t.Pairings {
		if p.Round == round {
			out = append(out, p)
		}
	}
	return slices.Clip(out)
}
