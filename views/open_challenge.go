package views

// OpenForm is the form on the challenges page that makes an open
// challenge: one to anyone with its link.
type OpenForm struct {
	Variants []Variant
	// Clocks are the clocks offered ("5+3"), "" first for none.
	Clocks []string
}

// OpenChallenge is the page of an open challenge's link,
// /challenges/{id}: its terms, and for anyone but its maker a button that
// accepts it and starts the game.
type OpenChallenge struct {
	Asset string
	ID    string
	// Row is the challenge as the viewer sees it: its maker, its terms,
	// the viewer's side.
	Row ChallengeRow
	// Name is the challenge's name ("" for none).
	Name string
	// Color is the side the link gives its acceptor ("white", "black";
	// "" as the challenge says), which the Accept form posts.
	Color string
	// Mine says the viewer made it: they are shown its links to share.
	Mine bool
	// Link, LinkWhite and LinkBlack are its links: to accept it, and to
	// accept it as White or as Black (none for a challenge whose maker
	// chose a side).
	Link, LinkWhite, LinkBlack string
	// Gone says it is no longer open (accepted, cancelled, expired).
	Gone bool
	// Error is a refusal to show.
	Error string
	// Game is the game it started, when the viewer plays it ("" else).
	Game string
}
