package editor

import "fmt"

// ReadError is an address whose position the editor cannot read, and
// why: Reason, with the rank and the text it is about, for front ends
// that say it in words of their own (a language); Error is the English
// sentence the JSON API and English pages give.
type ReadError struct {
	Reason ReadReason
	Rank   int    // the rank, 1–8, the reason is about; 0 for none
	Text   string // what was read there: a character that is no piece letter, a ban
	msg    string
}

func (e *ReadError) Error() string { return e.msg }

// ReadReason is why the editor cannot read a position (ReadError).
type ReadReason string

// The reasons the editor cannot read a position.
const (
	ReadEmpty  ReadReason = "empty"  // no FEN at all
	ReadRanks  ReadReason = "ranks"  // the placement has not 8 ranks
	ReadWide   ReadReason = "wide"   // a rank covers more than 8 squares (Rank)
	ReadLetter ReadReason = "letter" // a character that is no piece letter nor a count (Text, Rank)
	ReadBan    ReadReason = "ban"    // the ban in force names no squares (Text)
)

// readErrorf is a ReadError of reason about rank and text, saying format.
func readErrorf(reason ReadReason, rank int, text, format string, args ...any) error {
	return &ReadError{Reason: reason, Rank: rank, Text: text, msg: fmt.Sprintf(format, args...)}
}
