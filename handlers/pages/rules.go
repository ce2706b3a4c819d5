package pages

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/views"
)

// rulesPage answers GET /rules (Ban Chess) and /rules/en (EN-Chess): the
// rules with board diagrams, which the server draws (/img/…).
func (p *site) rulesPage(c echo.Context) error {
	if _, err := p.core.options(c); err != nil {
		return err
	}
	if strings.HasSuffix(c.Request().URL.Path, "/en") {
		return render(c, http.StatusOK, views.ENRulesPage(p.s.asset))
	}
	return render(c, http.StatusOK, views.RulesPage(p.s.asset))
}
