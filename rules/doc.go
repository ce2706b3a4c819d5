// Package rules is the Ban Chess engine: the game, its variants, and every
// format it reads and writes.
//
// A Game is a start position plus the plies played since. Each ply is an
// Action: a ban (the opponent removes one from→to pair of the mover's legal
// moves) or a move. Play applies one ply, Undo takes the last one back, and
// the query methods (Ply, Turn, Legal, Outcome, History, FEN, PGN …) describe
// the game at any moment. Games are created with New, FromFEN, FromPGN or
// Replay; the Variant decides the order of plies (Ban, the default, and
// Classic, which has no bans).
//
// Move generation comes from github.com/notnil/chess; everything else —
// the ply schedule, game end, FEN validation, SAN, PGN — is decided here.
// A Game is not safe for concurrent use: callers serialise access.
package rules
