package handlers

import "github.com/labstack/echo/v4"

// pageRoutes adds the playground's pages and fragments.
func (s *Server) pageRoutes(e *echo.Echo) {}
