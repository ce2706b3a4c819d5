// Package swiss pairs the rounds of a Swiss tournament and ranks its
// players: pure Go, no I/O, nothing of the module imported. The
// tournament service keeps the event; it calls Pair before each round
// and Standings whenever it shows them.
//
// # The event
//
// A Player is an ID, a rating, a Withdrawn flag and a history: Games[i]
// is round i+1 (Played with an opponent, a colour and the half-points
// scored; the pairing's Bye, worth 2; Absent, worth 0; a Forfeit). A
// player's score is the sum of their rounds' half-points. Entries missing
// at the end of a history count as Absent, so a late joiner comes with an
// empty history and starts on zero-point byes for the rounds missed; to
// record round r, pad every history to r−1 with Absent, then append. The
// two sides of a game must agree (each names the other, the colours
// opposite), or Pair and Standings refuse the event with ErrInvalid.
//
// # Pairing
//
// Pair(players, round) pairs every player not withdrawn exactly once,
// following the principles of FIDE's Dutch system (C.04.3):
//
//   - Order: by score, then rating, then ID. Players with one score form a
//     score group. Pairing numbers (for colours) go by rating, then ID.
//   - Absolute criteria, never broken: no two players meet twice (a
//     forfeit counts as a meeting); no player has one colour three times
//     in a row, nor whites − blacks beyond ±2 (FIDE lets the last round's
//     top scorers break these; this package never does); one bye when the
//     count is odd, worth a win, at most once per player, and not to one
//     who won a game by forfeit (FIDE C.04.1.d; Absent rounds are not
//     byes). When no pairing meets them, Pair fails with ErrNoPairing.
//   - Colours (C.04.3 E): a player's preference is absolute (whites −
//     blacks beyond ±1, or the same colour twice in the last two games),
//     strong (±1) or mild (0: alternate); the pair's colours grant both
//     preferences when they differ, else the stronger, else alternate from
//     the latest round the two had different colours, else the
//     higher-ranked player's; with no preference on either side (round 1)
//     the higher-ranked player has white when their pairing number is odd,
//     so round 1's boards alternate from white on the first.
//
// Among the pairings that meet the absolute criteria Pair takes the
// cheapest, comparing, in this order:
//
//  1. the sum over the games of the squared difference of the two scores
//     (in half-points), and for the bye (the receiver's score − the lowest
//     score + 1)²: players meet in their own score group when they can, a
//     float goes as few groups down as it can, and the bye goes to the
//     lowest score group;
//  2. the colour preferences not granted, then among those the strong
//     ones;
//  3. the floats repeated from the last round: a downfloat (meeting a
//     lower score, or the bye) again counts 2, an upfloat again 1;
//  4. the distance from the Dutch order: within a score group the top half
//     meets the bottom half, first against first (S1 against S2); the
//     player who floats down is the lowest of their group and meets the
//     highest of the group below; the bye goes to the lowest-ranked of its
//     group.
//
// These are the weights of a maximum-cardinality, maximum-weight matching
// (Edmonds' blossom algorithm) over the whole field, with the bye as one
// more vertex: a pairing is found whenever one exists, and it is the
// cheapest by the order above, which the tests check against an
// exhaustive search. (Pair first tries the games between scores at most a
// point apart, and keeps that pairing only when no pairing with a farther
// game can be cheaper.) What is not the Dutch system's: its strict
// bracket-by-bracket priorities (here a pairing's floats are weighed
// together, by their squares: the top group's floats do not outrank the
// lower ones'), its float criteria for two rounds back, and its
// exceptions for the last round's top scorers.
//
// The boards come strongest first: the better player's score, the sum of
// the scores, the better player's rank. The matching is O(n³): pairing
// round 7 takes about 10 ms of CPU for 200 players and about 1.2 s for
// 1,000 (BenchmarkPair's cpu-ns/op); the weights hold about 2,000
// players, and Pair refuses more than they hold with ErrInvalid.
//
// # Standings
//
// Standings orders every player, withdrawn ones included, by score,
// Buchholz, Sonneborn-Berger and rating; its documentation says how
// unplayed rounds count.
package swiss
