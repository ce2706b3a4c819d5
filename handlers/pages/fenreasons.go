package pages

import (
	"errors"

	"github.com/banchess/banchess/editor"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// readMessages are the messages that say why the board editor cannot
// read the position in its address (editor.ReadError).
var readMessages = map[editor.ReadReason]string{
	editor.ReadEmpty:  "editor.unreadable.empty",
	editor.ReadRanks:  "editor.unreadable.ranks",
	editor.ReadWide:   "editor.unreadable.wide",
	editor.ReadLetter: "editor.unreadable.letter",
	editor.ReadBan:    "editor.unreadable.ban",
}

// fenMessages are the messages that say which rule of positions a FEN
// breaks (rules.FENError's Reason).
var fenMessages = map[rules.FENReason]string{
	rules.FENKings:     "editor.fen.kings",
	rules.FENPawns:     "editor.fen.pawns",
	rules.FENPieces:    "editor.fen.pieces",
	rules.FENPawnRank:  "editor.fen.pawnRank",
	rules.FENCheck:     "editor.fen.check",
	rules.FENCastling:  "editor.fen.castling",
	rules.FENEnPassant: "editor.fen.enPassant",
	rules.FENBan:       "editor.fen.ban",
}

// positionReason says in l why err's position cannot be read or played:
// the editor's reason (editor.ReadError) or the rule of positions the FEN
// breaks (rules.FENError); "" when err says neither.
func positionReason(l *i18n.Language, err error) string {
	var re *editor.ReadError
	if errors.As(err, &re) {
		if id := readMessages[re.Reason]; id != "" {
			return l.T(id, "Rank", l.Number(re.Rank), "Text", re.Text)
		}
	}
	var fe *rules.FENError
	if errors.As(err, &fe) {
		if id := fenMessages[fe.Reason]; id != "" {
			return l.T(id, "Where", fe.Where)
		}
	}
	return ""
}
