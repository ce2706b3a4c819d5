package games

// Limits bound what a game may be created from. A zero field is no limit.
type Limits struct {
	// MaxPlies is the most plies (bans and moves) a PGN or a share link
	// may hold.
	MaxPlies int
	// MaxFENBytes is the longest FEN read, in bytes.
	MaxFENBytes int
	// MaxTags is the most tags a PGN's game may have; MaxTagBytes and
	// MaxTagNameBytes bound each tag's value and name, in bytes. The
	// tags are kept with the game, written into every PGN of it and shown
	// on its page, so they bound what an import stores.
	MaxTags, MaxTagBytes, MaxTagNameBytes int
	// MaxCommentBytes bounds, in bytes, a PGN game's comments in all (its
	// variations' included): they are kept with the game too.
	MaxCommentBytes int
	// MaxVariations bounds the variations a game keeps, nested ones
	// included, and MaxVariationDepth how deep they nest (1: variations of
	// the main line only). Their plies count towards MaxPlies.
	MaxVariations, MaxVariationDepth int
	// MaxLinkPGNBytes is the longest PGN a link (/?pgn=…) may carry; a
	// longer one is imported by posting it, within the body limit.
	MaxLinkPGNBytes int
}

// DefaultLimits are the limits a server runs with. The tags of a game
// from Lichess or Chess.com number 20 to 25 (the Seven Tag Roster, Elos,
// time control, opening, URLs), none longer than about 150 bytes; 32 tags
// of 256 bytes (names of 64) keep a game's tags under 10 KiB. A game of
// 2,000 plies written as SAN with ban comments is about 40 KB, but a link
// that opens a game by its PGN is for short ones: 16 KiB holds some 800
// plies, and a URL that long is still accepted by browsers and proxies.
// An annotated master game has a few KiB of comments: 16 KiB keeps them;
// its variations number tens, rarely nested more than a few deep: 400
// variations nested up to 16 deep leave room for the most heavily
// annotated, whose plies the 2,000 bound in all.
func DefaultLimits() Limits {
	return Limits{
		MaxPlies:          2000,
		MaxFENBytes:       200,
		MaxTags:           32,
		MaxTagBytes:       256,
		MaxTagNameBytes:   64,
		MaxCommentBytes:   16 << 10,
		MaxVariations:     400,
		MaxVariationDepth: 16,
		MaxLinkPGNBytes:   16 << 10,
	}
}
