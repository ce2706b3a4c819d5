package handlers

import "github.com/labstack/echo/v4"

// apiRoutes adds the JSON API under g (mounted at /api).
func (s *Server) apiRoutes(g *echo.Group) {}
