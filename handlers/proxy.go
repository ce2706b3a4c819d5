package handlers

import (
	"net"
	"net/http"

	"github.com/labstack/echo/v4"
)

// fromProxy reports whether r came through a trusted proxy, whose headers
// (X-Forwarded-Proto, X-Request-Id) may be believed: WithTrustProxy is on
// and the connection is from a loopback, link-local or private address, the
// addresses Echo's X-Forwarded-For extractor trusts.
func (s *Server) fromProxy(r *http.Request) bool {
	if !s.trustProxy {
		return false
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsPrivate())
}

// scheme is the scheme the client used: https when the connection is TLS
// or when a trusted proxy says so (X-Forwarded-Proto and the like). Without
// a trusted proxy those headers are anyone's to send.
func (s *Server) scheme(c echo.Context) string {
	if c.Request().TLS != nil {
		return "https"
	}
	if s.fromProxy(c.Request()) {
		return c.Scheme()
	}
	return "http"
}
