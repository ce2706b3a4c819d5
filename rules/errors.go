package rules

import (
	"errors"
	"fmt"
)

// Kinds of refused action; test with errors.Is.
var (
	// ErrSyntax: the text is not an action at all.
	ErrSyntax = errors.New("not an action")
	// ErrIllegal: a well-formed action that the rules do not allow now.
	ErrIllegal = errors.New("illegal action")
	// ErrBanned: a move that is the ban in force. It is illegal too, so
	// errors.Is(err, ErrIllegal) also holds for it.
	ErrBanned = errors.New("banned action")
	// ErrGameOver: the game has ended, so no ban or move is accepted.
	ErrGameOver = errors.New("game over")
	// ErrTooManyPlies: a PGN holds more plies than PGNOptions.MaxPlies.
	ErrTooManyPlies = errors.New("too many plies")
	// ErrTooManyTags: a PGN's game has more tags than PGNOptions.MaxTags.
	ErrTooManyTags = errors.New("too many tags")
	// ErrTagTooLong: a PGN tag's name or value is longer than
	// PGNOptions.MaxTagNameBytes or MaxTagBytes.
	ErrTagTooLong = errors.New("tag too long")
	// ErrCommentsTooLong: a PGN game's comments are longer, in all, than
	// PGNOptions.MaxCommentBytes.
	ErrCommentsTooLong = errors.New("comments too long")
)

// MaxQuote is the most characters of a user's text that a message quotes:
// an error never echoes more of what was sent (see Clip).
const MaxQuote = 40

// Clip shortens text that a message quotes to MaxQuote characters (see
// ClipTo).
func Clip(s string) string { return ClipTo(s, MaxQuote) }

// ClipTo shortens s to its first n characters, never splitting one (a byte
// that is not UTF-8 counts as one character), and marks a cut with "…".
func ClipTo(s string, n int) string {
	for i := range s {
		if n <= 0 {
			return s[:i] + "…"
		}
		n--
	}
	return s
}

// ActionError explains why an action was refused. The game is unchanged.
type ActionError struct {
	Kind   error  // ErrSyntax, ErrIllegal, ErrBanned or ErrGameOver
	Action string // the action as given
	msg    string
}

func (e *ActionError) Error() string { return e.msg }

// Unwrap returns the kind, so errors.Is(err, ErrIllegal) works.
func (e *ActionError) Unwrap() error { return e.Kind }

// Is makes a banned move illegal too: errors.Is(err, ErrIllegal) holds when
// the kind is ErrBanned.
func (e *ActionError) Is(target error) bool { return target == ErrIllegal && e.Kind == ErrBanned }

func syntaxErrorf(action, format string, args ...any) error {
	return &ActionError{Kind: ErrSyntax, Action: action, msg: fmt.Sprintf(format, args...)}
}

func illegalf(action, format string, args ...any) error {
	return &ActionError{Kind: ErrIllegal, Action: action, msg: fmt.Sprintf(format, args...)}
}

func bannedf(action, format string, args ...any) error {
	return &ActionError{Kind: ErrBanned, Action: action, msg: fmt.Sprintf(format, args...)}
}

// FENError says which field of a FEN is wrong and how.
type FENError struct {
	Field string // "placement", "side to move", "castling", "en passant", "halfmove clock", "fullmove number", "ply", "ban", or "position"
	// Reason names the rule of positions the FEN breaks, for front ends
	// that say it in other words (a language of their own); "" where a
	// field is not written as FEN writes it.
	Reason FENReason
	// Where is the square or pair Reason is about ("e1": a pawn's, an en
	// passant square; "e2e4": the ban), "" for none.
	Where string
	msg   string
}

func (e *FENError) Error() string { return "FEN " + e.Field + ": " + e.msg }

// FENReason is a rule of positions that a FEN breaks (FENError.Reason).
type FENReason string

// The rules of positions a FEN may break.
const (
	FENKings     FENReason = "kings"     // a side has not exactly one king
	FENPawns     FENReason = "pawns"     // a side has more than 8 pawns
	FENPieces    FENReason = "pieces"    // a side has more pieces than a game can
	FENPawnRank  FENReason = "pawnRank"  // a pawn stands where no pawn can (Where)
	FENCheck     FENReason = "check"     // the side that just moved is in check
	FENCastling  FENReason = "castling"  // a castling right whose king or rook is not at home
	FENEnPassant FENReason = "enPassant" // an en passant square no pawn just passed (Where)
	FENBan       FENReason = "ban"       // the ban in force matches no legal move (Where)
)

func fenErrorf(field, format string, args ...any) error {
	return &FENError{Field: field, msg: fmt.Sprintf(format, args...)}
}

// fenRulef is fenErrorf for a FEN that breaks a rule of positions: reason,
// about the square where ("" for none).
func fenRulef(field string, reason FENReason, where, format string, args ...any) error {
	return &FENError{Field: field, Reason: reason, Where: where, msg: fmt.Sprintf(format, args...)}
}

// PGNError locates a problem in PGN movetext: the move number, the side and
// the token, and the variation it is in, with the reason.
type PGNError struct {
	MoveNumber int    // 0 when the problem is not at a move (a tag, say)
	Side       Color  // the side whose move or ban it was
	Token      string // the offending token
	// Variation names the ply that the variation the problem is in is an
	// alternative to, as movetext writes it ("4... Bxf3"); "" in the main
	// line.
	Variation string
	Err       error
}

func (e *PGNError) Error() string {
	in := ""
	if e.Variation != "" {
		in = ", in the variation for " + e.Variation
	}
	if e.MoveNumber == 0 {
		if e.Token != "" {
			return fmt.Sprintf("PGN%s: %s: %v", in, e.Token, e.Err)
		}
		return fmt.Sprintf("PGN%s: %v", in, e.Err)
	}
	return fmt.Sprintf("PGN move %d, %s%s: %s: %v", e.MoveNumber, e.Side.Name(), in, e.Token, e.Err)
}

func (e *PGNError) Unwrap() error { return e.Err }

// plyLimitError is a game longer than the reader was asked to take.
type plyLimitError struct{ max int }

func (e plyLimitError) Error() string {
	return fmt.Sprintf("the game has more than %d plies (each ban and each move is one, in its variations too), the most it may hold", e.max)
}

// Is makes errors.Is(err, ErrTooManyPlies) true.
func (e plyLimitError) Is(target error) bool { return target == ErrTooManyPlies }

// tagLimitError is a tag section or comments past the reader's bounds:
// kind is ErrTooManyTags, ErrTagTooLong or ErrCommentsTooLong.
type tagLimitError struct {
	kind error
	msg  string
}

func (e tagLimitError) Error() string { return e.msg }

// Is makes errors.Is(err, e.kind) true.
func (e tagLimitError) Is(target error) bool { return target == e.kind }
