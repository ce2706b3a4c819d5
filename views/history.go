package views

import (
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// HistoryItem is one ply in the history list.
type HistoryItem struct {
	Index   int    // plies played up to and including this one: the /history/{Index} view
	Text    string // "d4"; a ban's banned move, "e4" (written ⊘e4)
	Ban     bool
	Current bool // the ply shown in a history view
	Title   string
	Comment string       // the PGN's comment after the ply
	Now     bool         // the game page's last ply: the position shown
	Marks   []ReviewMark // the review's marks, on its review view
}

// HistoryRow is one numbered move: each side's ban then move.
type HistoryRow struct {
	Number       int
	White, Black []HistoryItem
}

// historyRows numbers the plies as moves, each ban before the move it
// restricted; current marks the ply a history view shows (-1 for none).
func historyRows(l *i18n.Language, n Notation, g *rules.Game, current int) []HistoryRow {
	return rows(l, n, g.Record().History(), 0, g.StartPosition().Fullmove, current)
}

// markNow marks the last ply of the game page's history as the one shown
// (aria-current), though not highlighted as a past ply's view is.
func markNow(r []HistoryRow) []HistoryRow {
	if n := len(r); n > 0 {
		last := &r[n-1]
		side := last.Black
		if len(side) == 0 || len(last.White) > 0 && last.White[len(last.White)-1].Index > side[len(side)-1].Index {
			side = last.White
		}
		side[len(side)-1].Now = true
	}
	return r
}

// rows is historyRows for the plies hist, the first of which is ply index
// first+1 of the game (history indexes count from 1), played from a
// position whose fullmove number is fullmove.
func rows(l *i18n.Language, n Notation, hist []rules.PlyInfo, first, fullmove, current int) []HistoryRow {
	if len(hist) == 0 {
		return nil
	}
	var rows []HistoryRow
	for i, p := range hist {
		side := p.Actor // the side whose move this ply is or restricts
		if p.Action.Phase == rules.PhaseBan {
			side = p.Actor.Other()
		}
		num := fullmove
		if i > 0 {
			num = hist[i-1].Position.Fullmove
		}
		if len(rows) == 0 || rows[len(rows)-1].Number != num {
			rows = append(rows, HistoryRow{Number: num})
		}
		index := first + i + 1
		item := HistoryItem{Index: index, Ban: p.Action.Phase == rules.PhaseBan, Current: index == current}
		item.Title = plyTitle(l, p)
		item.Comment = p.Comment
		item.Text = moveText(l, n, p.SAN)
		if item.Ban && p.SAN == "" {
			item.Text = dashPair(p.Action.Pair())
		}
		r := &rows[len(rows)-1]
		if side == rules.White {
			r.White = append(r.White, item)
		} else {
			r.Black = append(r.Black, item)
		}
	}
	return rows
}

// historyClass lists a history item's CSS classes.
func historyClass(it HistoryItem) string {
	c := "move"
	if it.Ban {
		c = "ban"
	}
	if it.Current {
		c += " current"
	}
	return c
}
