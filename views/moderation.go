package views

// ReportForm is the page that reports a player or a chat line.
type ReportForm struct {
	Asset string
	// Player is the name of the player reported; Game, Room and Seq the
	// chat line ("" and 0 for a player), and Line its text.
	Player          string
	Game, Room, Seq string
	Line            string
	Reasons         []string
	Reason, Text    string
	Error           string
	// Sent says a report was just sent.
	Sent bool
}

// Mod is the moderators' page: the open reports, newest first.
type Mod struct {
	Asset string
	Cases []ModCase
	Done  string
	Error string
	Mutes []ModMute
	// ResetLink is a reset link just issued, for ResetFor (shown once).
	ResetLink, ResetFor string
}

// ModMute is a length a player's chat may be muted for.
type ModMute struct {
	Value, Label string
}

// ModCase is an open report as moderators read it.
type ModCase struct {
	ID                 string
	Reporter, Reported string
	Reason, Text, At   string
	Game               string // the game's address, "" for a report of a player
	Context            []ModLine
	MutedUntil         string // "" when not muted
	Closed             bool
}

// ModLine is a chat line around a reported one.
type ModLine struct {
	Name, Text string
	Reported   bool
}

// ModLog is the moderation log's page.
type ModLog struct {
	Asset   string
	Entries []ModEntry
}

// ModEntry is a line of the moderation log.
type ModEntry struct {
	At, Moderator, Action, Player, Until, Report, Why string
}
