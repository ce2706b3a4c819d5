package pages

import (
	"net/http"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/editor"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// editorPage is the board editor, /editor: its state is the query (see
// editor.State.Query). A step — a square, a palette choice, a piece
// dragged (move=e2e4), an action
// (do=clear, start, flip) or fen=… to start from — answers with a
// redirect to the address of the state it leads to (for htmx: the editor,
// that address pushed), so every position has its address and Back undoes
// a step.
func (p *create) editorPage(c echo.Context) error {
	q := c.QueryParams()
	s, readErr := editor.FromQuery(q, p.s.loader.Variants())
	if v := q.Get("square"); v != "" {
		if sq, err := rules.ParseSquare(v); err == nil && len(v) == 2 {
			s.Place(sq)
		}
	}
	if p, err := rules.ParsePair(q.Get("move")); err == nil { // a piece dragged
		s.Move(p.From, p.To)
	}
	switch q.Get("do") {
	case "clear":
		s.Clear()
	case "start":
		s.Reset()
	case "flip":
		s.Flip = !s.Flip
	}
	canonical := "/editor?" + s.Query().Encode()
	if readErr == nil && len(q) > 0 && q.Encode() != s.Query().Encode() && !kit.IsHX(c) {
		return c.Redirect(http.StatusSeeOther, canonical)
	}
	l := languageOf(c)
	problem := ""
	if readErr != nil {
		problem = errs.Sentence("The position cannot be read: " + readErr.Error())
		if l.Code != i18n.Builtin().Source().Code { // English keeps the editor's own sentence
			problem = l.T("editor.unreadable")
			if why := positionReason(l, readErr); why != "" {
				problem += " " + why
			}
		}
	} else if _, err := p.s.loader.FromFEN(s.FEN(), s.Variant.ID()); err != nil {
		problem = refusalText(l, errs.Of(err))
	}
	m := views.NewEditor(l, s, problem, p.s.asset, p.s.variants)
	if kit.IsHX(c) {
		c.Response().Header().Set("HX-Push-Url", canonical)
		return render(c, http.StatusOK, views.EditorMain(m))
	}
	return render(c, http.StatusOK, views.EditorPage(m))
}
