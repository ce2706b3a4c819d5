package kit

import (
	"fmt"
	"net"
	"strings"

	"github.com/banchess/banchess/errs"
	"github.com/labstack/echo/v4"
)

// checkHost refuses (421 Misdirected Request), when the server has a base
// URL, a request whose Host names another host or port: its pages link to
// the base URL, so such a request reached it under a name it is not
// served at — a stray DNS name or virtual host, or a DNS rebinding, by
// which a page of another site reads this one as its own. A trusted
// proxy's X-Forwarded-Host stands for the Host. /healthz answers whatever
// the Host: a load balancer asks an instance by its own address.
func (k *Kit) checkHost(next echo.HandlerFunc) echo.HandlerFunc {
	if k.baseURL == "" {
		return next
	}
	_, authority, _ := strings.Cut(k.baseURL, "://")
	want := normalHost(authority)
	return func(c echo.Context) error {
		r := c.Request()
		if r.URL.Path == HealthPath {
			return next(c)
		}
		got := r.Host
		if fh := r.Header.Get("X-Forwarded-Host"); fh != "" && k.fromProxy(r) {
			got, _, _ = strings.Cut(fh, ",")
			got = strings.TrimSpace(got)
		}
		if normalHost(got) == want {
			return next(c)
		}
		named := "no host"
		if got != "" {
			named = fmt.Sprintf("%q", TrimText(got))
		}
		return Titled("Wrong address", &errs.Error{Code: errs.Misdirected,
			Msg: fmt.Sprintf("This server is reached at %s; this request named %s, so it was refused.", k.baseURL, named)})
	}
}

// normalHost is host[:port] as compared with the base URL's: in lower
// case, without a final dot, without the port when it is 80 or 443 (a
// proxy may pass the Host with the port the client used, or without).
func normalHost(hostport string) string {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]"), ""
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if port == "80" || port == "443" || port == "" {
		return host
	}
	return net.JoinHostPort(host, port)
}
