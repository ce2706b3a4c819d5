package views

// ProfileRelation is what the viewer of a profile chose about its player,
// for the profile's follow and block buttons.
type ProfileRelation struct {
	Follows, Blocks bool
}

// Following is the page of the players the viewer follows, and those
// they block.
type Following struct {
	Asset   string
	Players []FollowedRow
	Blocked []string // the names of the players blocked
}

// FollowedRow is a followed player in the list.
type FollowedRow struct {
	Name   string
	Online bool
	// Watch is the address of the game they play now, "" for none.
	Watch string
	// Closed says a moderator closed their account.
	Closed bool
}

// RelationPath is the address of a form that acts on the player of name:
// follow, unfollow, block or unblock.
func RelationPath(name, action string) string { return ProfilePath(name) + "/" + action }

// boolText writes a flag for a data attribute.
func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
