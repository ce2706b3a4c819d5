package views

// Challenges is the /challenges page: the viewer's open challenges, those
// they received (to accept or decline) and those they made (to cancel).
type Challenges struct {
	Asset string
	// Named says the viewer has a name: only they challenge and are
	// challenged.
	Named   bool
	In, Out []ChallengeRow
	// List is the address the page's list is read again from (htmx polls
	// it), with the page's since.
	List string
	// Error is a refusal to show.
	Error string
}

// Waiting says the viewer waits for an answer: the page without scripts
// reloads itself, to follow its challenger to the game.
func (c Challenges) Waiting() bool { return len(c.Out) > 0 }

// ChallengeRow is one open challenge, as its viewer sees it.
type ChallengeRow struct {
	ID string
	// Name is the other player's, Rating theirs in the challenge's
	// variant and speed ("1500?"), Bot whether they are a bot account.
	Name, Rating string
	Bot          bool
	// Terms say what the challenge asks for: "Ban Chess · 5+3 · rated".
	Terms string
	// Color is the viewer's side: "white", "black" or "random".
	Color string
}

// ChallengeForm is the form on a profile to challenge its player.
type ChallengeForm struct {
	Dest     string
	Variants []Variant
	// Clocks are the clocks offered ("5+3"), "" first for none.
	Clocks []string
	// Named says the viewer may play rated games.
	Named bool
}

// Reasons are the reasons a player declines a challenge with, lichess's
// keys and their words.
func Reasons() [][2]string {
	return [][2]string{{"generic", "Not now"}, {"later", "Later, please"}, {"tooFast", "Too fast"}, {"tooSlow", "Too slow"},
		{"rated", "Rated, please"}, {"casual", "Casual, please"}, {"variant", "Not this variant"}}
}
