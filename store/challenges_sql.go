package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
)

// sqlChallenges are SQLite's and PostgreSQL's challenges: the challenges
// table.
type sqlChallenges struct {
	db database
}

// challengeTerms are a challenge's terms column: what it asks for and how
// its players stood.
type challengeTerms struct {
	Challenger challenges.Side `json:"challenger"`
	Dest       challenges.Side `json:"dest"`
	Variant    string          `json:"variant"`
	Initial    int64           `json:"initial,omitempty"`   // milliseconds
	Increment  int64           `json:"increment,omitempty"` // milliseconds
	Days       int             `json:"days,omitempty"`      // days a move (games.TimeControl.Days)
	Color      string          `json:"color,omitempty"`     // the challenger's; "" random
	Rated      bool            `json:"rated,omitempty"`
	FEN        string          `json:"fen,omitempty"`
	Anyone     bool            `json:"anyone,omitempty"` // an open challenge (challenges.Challenge.Anyone)
	Name       string          `json:"name,omitempty"`
}

// termsOf is c's terms column.
func termsOf(c challenges.Challenge) (string, error) {
	t := challengeTerms{Challenger: c.Challenger, Dest: c.Dest, Variant: c.Variant, Initial: c.Clock.Initial.Milliseconds(),
		Increment: c.Clock.Increment.Milliseconds(), Days: c.Clock.Days, Rated: c.Rated, FEN: c.FEN, Anyone: c.Anyone, Name: c.Name}
	if c.Color != 0 {
		t.Color = c.Color.String()
	}
	terms, err := json.Marshal(t)
	if err != nil {
		return "", fmt.Errorf("encoding challenge %s's terms: %w", c.ID, err)
	}
	return string(terms), nil
}

const challengeColumns = `id, status, reason, game, terms, created_at, updated_at`

func scanChallenge(sc scanner) (challenges.Challenge, error) {
	var c challenges.Challenge
	var status, terms string
	var created, updated int64
	if err := sc.Scan(&c.ID, &status, &c.Reason, &c.Game, &terms, &created, &updated); err != nil {
		return c, err
	}
	var t challengeTerms
	if err := json.Unmarshal([]byte(terms), &t); err != nil {
		return c, fmt.Errorf("challenge %s's terms: %w", c.ID, err)
	}
	c.Status, c.Created, c.Updated = challenges.Status(status), fromMS(created), fromMS(updated)
	c.Challenger, c.Dest, c.Variant, c.Rated, c.FEN, c.Anyone, c.Name = t.Challenger, t.Dest, t.Variant, t.Rated, t.FEN, t.Anyone, t.Name
	c.Clock = games.TimeControl{Initial: time.Duration(t.Initial) * time.Millisecond, Increment: time.Duration(t.Increment) * time.Millisecond, Days: t.Days}
	c.Color, _ = rules.ParseColor(t.Color)
	return c, nil
}

// AddChallenge stores c within limit (see challenges.Store).
func (s sqlChallenges) AddChallenge(ctx context.Context, c challenges.Challenge, openSince time.Time, limit int) error {
	terms, err := termsOf(c)
	if err != nil {
		return err
	}
	err = s.db.inTx(ctx, func(q querier) error {
		// One player's challenges are added one at a time.
		if _, err := q.exec(ctx, `SELECT id FROM players WHERE id = $1`+s.db.forUpdate(), c.Challenger.ID); err != nil {
			return err
		}
		if _, err := q.exec(ctx, `DELETE FROM challenges WHERE updated_at < $1`, ms(c.Created.Add(-challenges.Memory))); err != nil {
			return err
		}
		var open int
		if err := q.queryRow(ctx, `SELECT count(*) FROM challenges WHERE challenger = $1 AND status = 'created' AND created_at >= $2`,
			c.Challenger.ID, ms(openSince)).Scan(&open); err != nil {
			return err
		}
		if open >= limit {
			return challenges.TooMany()
		}
		_, err := q.exec(ctx, `INSERT INTO challenges (id, challenger, dest, status, reason, game, terms, created_at, updated_at)
			VALUES ($1, $2, $3, $4, '', '', $5, $6, $7)`, c.ID, c.Challenger.ID, c.Dest.ID, string(c.Status), string(terms), ms(c.Created), ms(c.Updated))
		return err
	})
	return wrapStore(err, "adding a challenge")
}

// Challenge returns challenge id.
func (s sqlChallenges) Challenge(ctx context.Context, id string) (challenges.Challenge, error) {
	if !validText(id) {
		return challenges.Challenge{}, challengeGone()
	}
	c, err := scanChallenge(s.db.queryRow(ctx, `SELECT `+challengeColumns+` FROM challenges WHERE id = $1`, id))
	if errors.Is(err, errNoRows) {
		return c, challengeGone()
	}
	return c, wrapStore(err, "reading a challenge")
}

// ChallengesOf returns player's challenges changed since since, the
// latest first.
func (s sqlChallenges) ChallengesOf(ctx context.Context, player string, since time.Time, limit int) ([]challenges.Challenge, error) {
	if !validText(player) {
		return nil, nil
	}
	r, err := s.db.query(ctx, `SELECT `+challengeColumns+` FROM (
		SELECT `+challengeColumns+` FROM challenges WHERE challenger = $1 AND updated_at >= $2
		UNION ALL SELECT `+challengeColumns+` FROM challenges WHERE dest = $1 AND challenger <> $1 AND updated_at >= $2) AS c
		ORDER BY updated_at DESC, id LIMIT $3`, player, ms(since), limit)
	if err != nil {
		return nil, fmt.Errorf("listing challenges: %w", err)
	}
	out, err := collect(r, scanChallenge)
	if err != nil {
		return nil, fmt.Errorf("listing challenges: %w", err)
	}
	return out, nil
}

// open reads, locked, open challenge id, if player may answer it (as
// its receiver, or its challenger with byChallenger, or anyone but its
// challenger accepting an open challenge with accepting).
func (s sqlChallenges) open(ctx context.Context, q querier, id, player string, byChallenger, accepting bool, openSince time.Time) (challenges.Challenge, error) {
	who := "dest = $2"
	switch {
	case byChallenger:
		who = "challenger = $2"
	case accepting: // an open challenge's dest is ''
		who = "(dest = $2 OR dest = '' AND challenger <> $2)"
	}
	if !validText(id) || !validText(player) {
		return challenges.Challenge{}, challengeGone()
	}
	c, err := scanChallenge(q.queryRow(ctx, `SELECT `+challengeColumns+` FROM challenges WHERE id = $1 AND `+who+`
		AND status = 'created' AND created_at >= $3`+s.db.forUpdate(), id, player, ms(openSince)))
	if errors.Is(err, errNoRows) {
		return c, challengeGone()
	}
	return c, err
}

// end records that open challenge c is now status; another server's
// answer coming first is the challenge gone.
func (s sqlChallenges) end(ctx context.Context, q querier, c challenges.Challenge) error {
	n, err := q.exec(ctx, `UPDATE challenges SET status = $2, reason = $3, game = $4, updated_at = $5 WHERE id = $1 AND status = 'created'`,
		c.ID, string(c.Status), c.Reason, c.Game, ms(c.Updated))
	if err == nil && n != 1 {
		return challengeGone()
	}
	return err
}

// AcceptChallenge accepts challenge req.ID (see challenges.AcceptRequest).
func (s sqlChallenges) AcceptChallenge(ctx context.Context, req challenges.AcceptRequest) (*games.Record, challenges.Challenge, error) {
	var rec *games.Record
	var c challenges.Challenge
	err := s.db.inTx(ctx, func(q querier) error {
		var err error
		if c, err = s.open(ctx, q, req.ID, req.Dest, false, true, req.OpenSince); err != nil {
			return err
		}
		from, err := seatedIn(ctx, q, c.Challenger.ID, c.Variant, c.Speed())
		if err != nil {
			return err
		}
		to, err := seatedIn(ctx, q, req.Dest, c.Variant, c.Speed())
		if err != nil {
			return err
		}
		if c.Anyone { // its acceptor is its receiver from now on
			c.Dest = acceptorSide(to, c.Created)
			terms, err := termsOf(c)
			if err != nil {
				return err
			}
			if _, err := q.exec(ctx, `UPDATE challenges SET dest = $2, terms = $3 WHERE id = $1`, c.ID, c.Dest.ID, terms); err != nil {
				return err
			}
		}
		if rec, err = req.Game(c, from, to); err != nil {
			return err
		}
		rec.ID = NewID()
		row, err := encodeRow(rec)
		if err != nil {
			return err
		}
		if _, err := q.exec(ctx, insertGameSQL, append([]any{rec.ID, req.At.Unix(), rec.Revision}, row.args()...)...); err != nil {
			return err
		}
		c.Status, c.Game, c.Updated = challenges.Accepted, rec.ID, req.At
		return s.end(ctx, q, c)
	})
	if err != nil {
		return nil, challenges.Challenge{}, wrapStore(err, "accepting a challenge")
	}
	return rec, c, nil
}

// EndChallenge declines or cancels open challenge id (see
// challenges.Store).
func (s sqlChallenges) EndChallenge(ctx context.Context, id, player string, status challenges.Status, reason string, openSince, at time.Time) (challenges.Challenge, error) {
	var c challenges.Challenge
	err := s.db.inTx(ctx, func(q querier) error {
		var err error
		if c, err = s.open(ctx, q, id, player, status == challenges.Canceled, false, openSince); err != nil {
			return err
		}
		c.Status, c.Reason, c.Updated = status, reason, at
		return s.end(ctx, q, c)
	})
	if err != nil {
		return challenges.Challenge{}, wrapStore(err, "answering a challenge")
	}
	return c, nil
}

// seatedIn reads player id, about to sit at a game of variant and speed,
// with their standing there.
func seatedIn(ctx context.Context, q querier, id, variant string, speed rating.Speed) (games.Seated, error) {
	p, err := scanPlayer(q.queryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE id = $1`, id))
	if err != nil {
		return games.Seated{}, err
	}
	st, err := standing(ctx, q, id, variant, speed)
	return games.Seated{Player: p, Standing: st}, err
}
