package tournament_test

import (
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/tournament"
)

// swissEvent plays a whole Swiss event of 4 rounds through the service:
// 7 players, an eighth who joins after round 1, one who withdraws, one who lets their
// first action pass; checks byes, repeats and the standings.
func swissEvent(t *testing.T, st testsite.Store) {
	a := newArena(t, st)
	a.named("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
	tr, err := a.svc.Create(a.ctx, a.creds["Ann"], tournament.Settings{Kind: tournament.Swiss, Name: "Swiss", Clock: "3+2", Rounds: 4, Starts: epoch.Add(time.Minute)})
	a.must(err)
	a.id = tr.ID
	if tr.Kind != tournament.Swiss || tr.Rounds != 4 || tr.Minutes != 0 {
		t.Fatalf("created %+v", tr)
	}
	for _, n := range []string{"Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"} {
		a.must(a.svc.Join(a.ctx, tr.ID, a.creds[n]))
	}
	a.clk.advance(time.Minute)
	met := map[[2]string]bool{}
	byes := map[string]int{}
	for round := 1; round <= 4; round++ {
		tr = a.tick()
		if tr.Round != round || tr.Status != tournament.Started {
			t.Fatalf("round %d: the event is at round %d, %s", round, tr.Round, tr.Status)
		}
		boards := tournament.Boards(tr, round)
		active := 0
		for _, p := range tr.Players {
			if !p.Paused {
				active++
			}
		}
		if len(boards) != active/2 || (tr.Byes[round-1] != "") != (active%2 == 1) {
			t.Fatalf("round %d: %d boards and bye %q for %d active players", round, len(boards), tr.Byes[round-1], active)
		}
		if b := tr.Byes[round-1]; b != "" {
			if byes[b]++; byes[b] > 1 {
				t.Errorf("round %d: a second bye to %s", round, a.ids[b])
			}
		}
		if tr = a.tick(); tr.Round != round {
			t.Fatalf("round %d paired again while its games run: at %d", round, tr.Round)
		}
		if round == 1 {
			if err := a.svc.Berserk(a.ctx, boards[0].Game, a.creds[a.ids[boards[0].White]]); code(err) != errs.Invalid {
				t.Errorf("berserk at a Swiss game: %v", err)
			}
		}
		for i, b := range boards {
			w, bl := a.ids[b.White], a.ids[b.Black]
			for _, pair := range [][2]string{{w, bl}, {bl, w}} {
				if met[pair] {
					t.Errorf("round %d: %s and %s meet again", round, w, bl)
				}
				met[pair] = true
			}
			switch {
			case round == 3 && i == len(boards)-1:
				// the last board's players let the first action pass
			case i%2 == 0:
				a.play(b.Game, 1, w, bl)
				a.resign(b.Game, bl)
			default:
				a.play(b.Game, 1, w, bl)
				a.resign(b.Game, w)
			}
		}
		if round == 3 {
			a.clk.advance(games.FirstActionWait + time.Second)
			if _, err := a.site.Games.Clocks().Sweep(a.ctx, st.(games.DueGames)); err != nil {
				t.Fatal(err)
			}
		}
		if round == 1 { // Hal joins late: a zero-point bye for round 1
			a.must(a.svc.Join(a.ctx, tr.ID, a.creds["Hal"]))
		}
		if round == 2 { // Dan withdraws: 7 active players again
			a.must(a.svc.Withdraw(a.ctx, tr.ID, a.creds["Dan"]))
		}
		a.clk.advance(time.Second)
	}
	tr = a.tick()
	if tr.Status != tournament.Finished || tr.Round != 4 {
		t.Fatalf("after the last round: %s at round %d", tr.Status, tr.Round)
	}
	if err := a.svc.Join(a.ctx, tr.ID, a.creds["Dan"]); code(err) != errs.Conflict {
		t.Errorf("joined a finished event: %v", err)
	}
	rows := tournament.Standings(tr)
	if len(rows) != 8 {
		t.Fatalf("%d rows", len(rows))
	}
	var idle string
	last := tournament.Boards(tr, 3)[len(tournament.Boards(tr, 3))-1]
	if !last.Aborted || last.Idle == 0 {
		t.Fatalf("round 3's last board: %+v", last)
	}
	idle = last.White
	if last.Idle != rules.White {
		idle = last.Black
	}
	for i, r := range rows {
		if r.Rank != i+1 || len(r.Sheet) != 4 {
			t.Errorf("row %d: %+v", i, r)
		}
		sum := 0
		for _, m := range r.Sheet {
			sum += m.Points
		}
		if sum != r.Score {
			t.Errorf("%s: sheet %v, score %d", r.Name, r.Sheet, r.Score)
		}
		if i > 0 && rows[i-1].Score < r.Score {
			t.Errorf("%s ranked below a lower score", r.Name)
		}
		switch {
		case r.Name == "Hal" && r.Sheet[0].Points != 0:
			t.Errorf("Hal's missed round scored %d", r.Sheet[0].Points)
		case r.Name == "Dan" && (!r.Paused || r.Sheet[2].Points != 0 || r.Sheet[3].Points != 0):
			t.Errorf("Dan withdrew but: %+v", r)
		case r.Player == idle && (!r.Paused || r.Sheet[2].Points != 0 || r.Sheet[3].Points != 0):
			t.Errorf("%s let the first action pass but: %+v", r.Name, r)
		}
		if r.Score > 0 && r.Buchholz == 0 {
			t.Errorf("%s: no Buchholz: %+v", r.Name, r)
		}
	}
	for r, b := range tr.Byes {
		for _, row := range rows {
			if b != "" && row.Player == b && row.Sheet[r].Points != 2 {
				t.Errorf("%s's bye in round %d scored %d half-points", row.Name, r+1, row.Sheet[r].Points)
			}
		}
	}
	other := last.White
	if other == idle {
		other = last.Black
	}
	for _, r := range rows {
		if r.Player == other && r.Sheet[2].Points != 2 {
			t.Errorf("the opponent of a missing first action scored %d", r.Sheet[2].Points)
		}
	}
}

func TestSwissThroughTheService(t *testing.T) { swissEvent(t, store.NewMemory()) }

// TestSwissInterval: with an interval, the next round starts that long
// after the round before did, though its games run on; their players sit
// it out and score nothing for it.
func TestSwissInterval(t *testing.T) {
	a := newArena(t, nil)
	a.named("Ann", "Bob", "Cat", "Dan", "Eve")
	tr, err := a.svc.Create(a.ctx, a.creds["Ann"], tournament.Settings{Kind: tournament.Swiss, Name: "Timed", Clock: "3+2", Rounds: 3, Interval: 60})
	a.must(err)
	a.id = tr.ID
	for _, n := range []string{"Ann", "Bob", "Cat", "Dan", "Eve"} {
		a.must(a.svc.Join(a.ctx, tr.ID, a.creds[n]))
	}
	tr = a.tick()
	boards := tournament.Boards(tr, 1)
	if tr.Round != 1 || len(boards) != 2 {
		t.Fatalf("round 1: %d boards", len(boards))
	}
	// The first board ends; the second runs on past the interval.
	b := boards[0]
	a.play(b.Game, 1, a.ids[b.White], a.ids[b.Black])
	a.resign(b.Game, a.ids[b.Black])
	a.clk.advance(30 * time.Second)
	if tr = a.tick(); tr.Round != 1 {
		t.Fatalf("round 2 paired before the interval: %d", tr.Round)
	}
	a.clk.advance(31 * time.Second)
	tr = a.tick()
	if tr.Round != 2 || len(tournament.Boards(tr, 2)) != 1 || tr.Byes[1] == "" {
		t.Fatalf("after the interval: round %d, %d boards, bye %q", tr.Round, len(tournament.Boards(tr, 2)), tr.Byes)
	}
	busy := map[string]bool{boards[1].White: true, boards[1].Black: true}
	for _, p := range tournament.Boards(tr, 2) {
		if busy[p.White] || busy[p.Black] || busy[tr.Byes[1]] {
			t.Errorf("a player still playing round 1 was paired in round 2: %+v", p)
		}
	}
	for _, r := range tournament.Standings(tr) {
		if busy[r.Player] && (len(r.Sheet) != 2 || r.Sheet[0].Points != 0 || r.Sheet[1].Points != 0 || r.Game != boards[1].Game) {
			t.Errorf("%s, still playing round 1: %+v", r.Name, r)
		}
	}
}

// TestSwissOfFive: the small event, five players over three
// rounds: each round pairs four and gives the fifth a bye of one point,
// never the same player twice; no two meet twice; the standings add up
// (three games and a bye a round) and rank by score.
func TestSwissOfFive(t *testing.T) {
	a := newArena(t, store.NewMemory())
	names := []string{"Ann", "Bob", "Cat", "Dan", "Eve"}
	a.named(names...)
	tr, err := a.svc.Create(a.ctx, a.creds["Ann"], tournament.Settings{Kind: tournament.Swiss, Name: "Five", Clock: "3+2", Rounds: 3, Starts: epoch.Add(time.Minute)})
	a.must(err)
	a.id = tr.ID
	for _, n := range names {
		a.must(a.svc.Join(a.ctx, tr.ID, a.creds[n]))
	}
	a.clk.advance(time.Minute)
	met, byes := map[[2]string]bool{}, map[string]bool{}
	for round := 1; round <= 3; round++ {
		tr = a.tick()
		boards := tournament.Boards(tr, round)
		bye := a.ids[tr.Byes[round-1]]
		if tr.Round != round || len(boards) != 2 || bye == "" || byes[bye] {
			t.Fatalf("round %d: %d boards, bye %q (byes so far %v)", round, len(boards), bye, byes)
		}
		byes[bye] = true
		for _, b := range boards {
			w, bl := a.ids[b.White], a.ids[b.Black]
			if met[[2]string{w, bl}] || w == bye || bl == bye {
				t.Errorf("round %d: %s–%s (bye %s) met before or took the bye", round, w, bl, bye)
			}
			met[[2]string{w, bl}], met[[2]string{bl, w}] = true, true
			a.play(b.Game, 1, w, bl)
			a.resign(b.Game, bl) // White wins
		}
		a.clk.advance(time.Second)
	}
	tr = a.tick()
	if tr.Status != tournament.Finished {
		t.Fatalf("after three rounds: %s", tr.Status)
	}
	rows := tournament.Standings(tr)
	total := 0
	for i, r := range rows {
		total += r.Score
		if len(r.Sheet) != 3 || i > 0 && rows[i-1].Score < r.Score {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	if total != 3*(2*2+2) { // half-points: two wins and a bye a round
		t.Errorf("the scores add up to %d half-points, want %d", total, 3*(2*2+2))
	}
}
