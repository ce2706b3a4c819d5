package handlers

import "github.com/labstack/echo/v4"

// middleware returns the middleware every route shares.
func (s *Server) middleware() []echo.MiddlewareFunc { return nil }
