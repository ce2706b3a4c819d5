package views

import (
	"context"

	"github.com/a-h/templ"
	"github.com/banchess/banchess/i18n"
	"net/url"
	"strconv"
)

// ProfilePath is the address of the profile of the player named name.
func ProfilePath(name string) string { return "/@/" + url.PathEscape(name) }

// Lobby is the lobby's page: quick pairing, custom seeks, and the seeks
// open now.
type Lobby struct {
	Asset string
	// Variants are those a seek may be of.
	Variants []Variant
	// Named says the viewer has a name (and so may play rated games).
	Named bool
	// Pools are the quick-pairing pools, all of PoolVariant (its name).
	Pools       []Pool
	PoolVariant string
	// Seeks are a page of the custom seeks open: the viewer's own first,
	// then those nearest their rating. SeekPage is its number (from 1) of
	// SeekPages; its first seek is the SeekFrom-th (from 1) of SeekTotal.
	Seeks                                    []SeekRow
	SeekPage, SeekPages, SeekFrom, SeekTotal int
	// Waiting says the viewer has a seek open: without scripts the page
	// reloads itself, and goes to the game once one is paired.
	Waiting bool
	// Events is the page's live stream; Since (unix ms) is when it was
	// asked for: a pairing since then sends the page to its game. Key sums
	// up what the page lists, as the stream's "lobby" events do: the page
	// asks for its list again only when an event's differs.
	Events string
	Since  int64
	Key    string
	Error  string
	// Choice is what the seek form shows chosen: the viewer's last seek's
	// settings, or the form's defaults.
	Choice SeekChoice
}

// SeekChoice is a seek form's settings: a variant's id, a clock
// ("5+3"), the maker's colour ("white", "black", "random") and rated.
// An empty field is the form's default.
type SeekChoice struct {
	Variant, Clock, Color string
	Rated                 bool
}

// ClockOr is c's clock, or def when it has none.
func (c SeekChoice) ClockOr(def string) string {
	if c.Clock == "" {
		return def
	}
	return c.Clock
}

// ColorOr is c's colour, or def when it has none.
func (c SeekChoice) ColorOr(def string) string {
	if c.Color == "" {
		return def
	}
	return c.Color
}

// Pool is a quick-pairing pool.
type Pool struct {
	Name    string // "5+3"
	Speed   string // "blitz"
	Waiting int    // players waiting in it now
	// Seek is the viewer's seek waiting in it, "" for none.
	Seek string
}

// SeekRow is an open custom seek as the lobby lists it.
type SeekRow struct {
	ID      string
	Name    string // the maker's, "" for an anonymous player
	Rating  string // "1500?", "" for none
	Variant string // "Ban Chess"
	Clock   string // "5+3"
	Color   string // the maker's: "white", "black" or "random"
	Rated   bool
	// Mine says the viewer made it: it may cancel it, not accept it.
	Mine bool
}

// SeekPageURL is the lobby's address showing page n of its seeks.
func (l Lobby) SeekPageURL(n int) templ.SafeURL {
	return templ.SafeURL("/lobby?page=" + strconv.Itoa(n))
}

// SeekCountText says which seeks a page shows when there are several
// pages: "seeks 51–100 of 230".
func (l Lobby) SeekCountText(lang *i18n.Language) string {
	return lang.T("lobby.seekCount", "From", lang.Number(l.SeekFrom), "To", lang.Number(l.SeekFrom+len(l.Seeks)-1), "Total", lang.Number(l.SeekTotal))
}

// SinceText writes Since for the page's address and its stream.
func (l Lobby) SinceText() string { return strconv.FormatInt(l.Since, 10) }

// Account is the account page: choose a name and password, or (named)
// the way out.
type Account struct {
	Asset string
	// Name is the viewer's name, "" while they have none.
	Name string
	// Error says why the last form was refused; NameValue is what it gave.
	Error, NameValue string
	// Done says what the last form did.
	Done string
	// Scopes are the scopes a token may be limited to; Token is the token
	// the last form made (shown once), TokenScopes what it is limited to.
	Scopes             []string
	Token, TokenScopes string
	// Chat is the chat setting; nil where the server keeps no chat or
	// the viewer is no player yet.
	Chat *AccountChat
	// Recovery are the viewer's recovery codes; nil where the server
	// keeps none or the viewer has no name.
	Recovery *AccountRecovery
	// DeleteError says why the last deletion was refused.
	DeleteError string
}

// Login is the sign-in page.
type Login struct {
	Asset            string
	Error, NameValue string
}

// Profile is a player's page: ratings, results, games.
type Profile struct {
	Asset, Name         string
	Ratings             []RatingRow
	Wins, Losses, Draws int
	Games               []PlayedRow
	// Next is the next page of games, "" at the last.
	Next string
	// Relation is what the viewer chose about the player, nil when they
	// choose nothing (not signed in with a name, or their own profile).
	Relation *ProfileRelation
	// Closed says a moderator closed the account.
	Closed bool
	// Tournaments are the latest tournaments the player finished.
	Tournaments []TournamentResult
	// Challenge is the form to challenge the player; nil: not offered
	// (the viewer's own profile, or no challenges).
	Challenge *ChallengeForm
}

// RatingRow is a player's rating in one variant at one speed.
type RatingRow struct {
	Variant, Speed string
	Rating         string // "1662?"
	Deviation      int
	Games          int
}

// PlayedRow is a finished game in a player's list.
type PlayedRow struct {
	URL      string
	Board    string // the final placement, for MiniBoard
	Opponent string // "" for an anonymous player
	Color    string // the player's, "white" or "black"
	Result   string // "Won with black against Ann", in the viewer's language
	Ending   string // "White won by checkmate after a ban", in the viewer's language
	Variant  string
	Speed    string // "blitz", "" without a clock
	Rated    bool
	Change   string // "+162" for a rated game
	Date     string // "22 Nov 2026", in the viewer's language
}

// Leaders is the list of the highest rated players of a variant, by
// speed.
type Leaders struct {
	Asset, Variant string
	Variants       []Variant
	Speeds         []LeaderSpeed
	MinGames       int
}

// LeaderSpeed is one speed's list.
type LeaderSpeed struct {
	Speed string
	Rows  []LeaderRow
}

// LeaderRow is one player in a list of leaders.
type LeaderRow struct {
	Rank   int
	Name   string
	Rating string
	Games  int
	// Established says the player has the rated games that rank the
	// established (Leaders.MinGames); those with fewer follow, marked.
	Established bool
}

// seekName is how a player is named in lists: their name, or Anonymous.
func seekName(ctx context.Context, name string) string {
	if name == "" {
		return tr(ctx, "players.anonymous")
	}
	return name
}

// waitingText says how many wait in a pool.
func waitingText(l *i18n.Language, n int) string {
	if n == 0 {
		return l.T("lobby.noneWaiting")
	}
	return l.N("lobby.waiting", n)
}

// speedText names a speed of play (rating.Speed's words).
func speedText(l *i18n.Language, speed string) string {
	switch speed {
	case "bullet":
		return l.T("lobby.speed.bullet")
	case "blitz":
		return l.T("lobby.speed.blitz")
	case "rapid":
		return l.T("lobby.speed.rapid")
	case "classical":
		return l.T("lobby.speed.classical")
	case "correspondence":
		return l.T("lobby.speed.correspondence")
	}
	return speed
}

// seekColorText says the colour a seek's maker plays (white, black or
// random).
func seekColorText(l *i18n.Language, color string) string {
	switch color {
	case "white":
		return l.T("lobby.plays.white")
	case "black":
		return l.T("lobby.plays.black")
	}
	return l.T("lobby.plays.random")
}
