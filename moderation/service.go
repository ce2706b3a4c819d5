package moderation

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/players"
)

// Service takes reports and serves the moderators. It is safe for
// concurrent use.
type Service struct {
	store   Store
	players Players
	chat    Chat
	lines   ChatLines
	now     func() time.Time
}

// Option configures a Service.
type Option func(*Service)

// WithClock makes the service read the time from now; the default is
// time.Now.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// New returns the service keeping its reports in store, reading players
// from p and chat lines from c (as a reader) and lines (for moderators).
func New(store Store, p Players, c Chat, lines ChatLines, opts ...Option) *Service {
	s := &Service{store: store, players: p, chat: c, lines: lines, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// cleanText checks a report's text or an action's why: trimmed, at most
// MaxText characters; required says it may not be empty.
func cleanText(text string, required bool, what string) (string, error) {
	text = strings.TrimSpace(strings.ToValidUTF8(text, ""))
	switch n := utf8.RuneCountInString(text); {
	case n == 0 && required:
		return "", errs.Errorf(errs.Invalid, "Say why: %s needs a reason.", what).WithDetail(errs.BadReportText)
	case n > MaxText:
		return "", errs.Errorf(errs.Invalid, "Say it in %d characters at most; this has %d.", MaxText, n).WithDetail(errs.BadReportText)
	}
	return text, nil
}

// reporter returns cred's player, who must have a name to report.
func (s *Service) reporter(ctx context.Context, cred players.Credential) (players.Player, error) {
	var p players.Player
	var err error
	if cred != "" {
		if p, err = s.players.Identify(ctx, cred); err != nil {
			return p, err
		}
	}
	switch {
	case p.ID == "":
		return p, errs.Errorf(errs.Unauthorized, "Sign in first: players with a name report others.")
	case !p.Named():
		return p, errs.Errorf(errs.Forbidden, "Only players with a name report others: choose one on your account page first.").WithDetail(errs.NameNeeded)
	}
	n, err := s.store.OpenReportsBy(ctx, p.ID)
	if err != nil {
		return p, errs.FromStore(fmt.Errorf("counting a player's reports: %w", err))
	}
	if n >= MaxOpenReports {
		return p, errs.Errorf(errs.TooMany, "You have %d reports waiting for the moderators: wait until they have read them.", n).WithDetail(errs.TooManyReports)
	}
	return p, nil
}

// ReportPlayer reports the player named name for cred's player.
func (s *Service) ReportPlayer(ctx context.Context, cred players.Credential, name string, reason, text string) (Report, error) {
	r, err := s.newReport(ctx, cred, reason, text)
	if err != nil {
		return Report{}, err
	}
	other, err := s.players.Named(ctx, name)
	if err != nil {
		return Report{}, err
	}
	r.Reported, r.ReportedName = other.ID, other.Name
	return s.keep(ctx, r)
}

// ReportLine reports line seq of game id's room, a line cred's player
// reads there, and its writer.
func (s *Service) ReportLine(ctx context.Context, cred players.Credential, game string, room chat.Room, seq int64, reason, text string) (Report, error) {
	r, err := s.newReport(ctx, cred, reason, text)
	if err != nil {
		return Report{}, err
	}
	if seq < 1 {
		return Report{}, noLine()
	}
	lines, _, err := s.chat.Lines(ctx, game, cred, room, seq-1)
	if err != nil {
		return Report{}, err
	}
	i := slices.IndexFunc(lines, func(l chat.Line) bool { return l.Seq == seq })
	if i < 0 {
		return Report{}, noLine()
	}
	l := lines[i]
	r.Reported, r.ReportedName, r.Game, r.Room, r.Seq = l.Author, l.Name, game, room, seq
	if p, err := s.players.Player(ctx, l.Author); err == nil && p.Name != "" {
		r.ReportedName = p.Name
	}
	return s.keep(ctx, r)
}

func noLine() *errs.Error {
	return errs.Errorf(errs.NotFound, "There is no such line in your room of this game.").WithDetail(errs.NoLine)
}

// newReport starts a report by cred's player.
func (s *Service) newReport(ctx context.Context, cred players.Credential, reason, text string) (Report, error) {
	why, err := ParseReason(reason)
	if err != nil {
		return Report{}, err
	}
	if text, err = cleanText(text, false, "a report"); err != nil {
		return Report{}, err
	}
	p, err := s.reporter(ctx, cred)
	if err != nil {
		return Report{}, err
	}
	return Report{ID: newID(), Reporter: p.ID, ReporterName: p.Name, Reason: why, Text: text, At: s.now()}, nil
}

// keep stores r, refusing a player's report of themself.
func (s *Service) keep(ctx context.Context, r Report) (Report, error) {
	if r.Reported == r.Reporter {
		return Report{}, errs.Errorf(errs.Invalid, "That is you: report other players.").WithDetail(errs.SelfRelation)
	}
	if err := s.store.AddReport(ctx, r); err != nil {
		return Report{}, errs.FromStore(fmt.Errorf("keeping a report: %w", err))
	}
	return r, nil
}

// Moderator returns cred's player when they are a moderator, and
// whether they are.
func (s *Service) Moderator(ctx context.Context, cred players.Credential) (players.Player, bool, error) {
	if cred == "" {
		return players.Player{}, false, nil
	}
	p, err := s.players.Identify(ctx, cred)
	if err != nil || p.ID == "" {
		return p, false, err
	}
	mod, err := s.store.Moderator(ctx, p.ID)
	if err != nil {
		return p, false, errs.FromStore(fmt.Errorf("reading whether a player moderates: %w", err))
	}
	return p, mod, nil
}

// notModerator refuses a player who is no moderator as an unknown page
// is refused (the front ends answer it so).
func notModerator() *errs.Error {
	return errs.Errorf(errs.NotFound, "There is no such page.").WithDetail(errs.NotModerator)
}

// moderator returns cred's player, who must be a moderator.
func (s *Service) moderator(ctx context.Context, cred players.Credential) (players.Player, error) {
	p, mod, err := s.Moderator(ctx, cred)
	if err != nil {
		return p, err
	}
	if !mod {
		return p, notModerator()
	}
	return p, nil
}

// Case is an open report as moderators read it: the report, and for a
// chat line the lines around it (ContextLines each side), and whether the
// reported player is muted or closed now.
type Case struct {
	Report
	Context    []chat.Line
	MutedUntil time.Time
	Closed     bool
}

// OpenReports returns the open reports, the newest first, to cred's
// moderator.
func (s *Service) OpenReports(ctx context.Context, cred players.Credential) ([]Case, error) {
	if _, err := s.moderator(ctx, cred); err != nil {
		return nil, err
	}
	list, err := s.store.OpenReports(ctx, OpenReportsShown)
	if err != nil {
		return nil, errs.FromStore(fmt.Errorf("reading the open reports: %w", err))
	}
	mutes := NewMuteList(s.store, s.now)
	out := make([]Case, len(list))
	for i, r := range list {
		out[i].Report = r
		if r.Game != "" {
			lines, _, err := s.lines.ChatLines(ctx, r.Game, r.Room, max(0, r.Seq-ContextLines-1), contextRead)
			if err != nil {
				return nil, errs.FromStore(fmt.Errorf("reading a reported line's context: %w", err))
			}
			out[i].Context = slices.DeleteFunc(lines, func(l chat.Line) bool { return l.Seq > r.Seq+ContextLines })
		}
		if out[i].MutedUntil, err = mutes.MutedUntil(ctx, r.Reported); err != nil {
			return nil, err
		}
		if out[i].Closed, err = s.players.Closed(ctx, r.Reported); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Log returns the moderation log's latest entries, the newest first, to
// cred's moderator.
func (s *Service) Log(ctx context.Context, cred players.Credential) ([]Entry, error) {
	if _, err := s.moderator(ctx, cred); err != nil {
		return nil, err
	}
	list, err := s.store.Entries(ctx, LogShown)
	if err != nil {
		return nil, errs.FromStore(fmt.Errorf("reading the moderation log: %w", err))
	}
	return list, nil
}

// contextRead bounds the lines read for a reported line's context: the
// store gives a room's latest lines after one, and those after the
// context are dropped.
const contextRead = 2000
