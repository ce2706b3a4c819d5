package views

// AccountRecovery is the account page's recovery codes: how many are
// left, or the codes just made (shown once).
type AccountRecovery struct {
	Left  int
	Codes []string
}

// Recover is the page that gives an account back with a recovery code.
type Recover struct {
	Asset            string
	Error, NameValue string
}

// Reset is the page of a moderator's reset link: Name is the player it
// resets; Token the link's.
type Reset struct {
	Asset              string
	Token, Name, Error string
}
