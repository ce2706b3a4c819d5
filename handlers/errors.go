package handlers

import (
	"net/http"

	"github.com/banchess/banchess/games"
)

// httpStatus is the one place a refusal's code becomes an HTTP status;
// pages and the API only format the refusal.
func httpStatus(e *games.Error) int {
	switch e.Detail {
	case "too_large":
		return http.StatusRequestEntityTooLarge
	case "cancelled", "busy":
		return http.StatusServiceUnavailable
	case "timeout":
		return http.StatusRequestTimeout
	}
	switch e.Code {
	case games.Invalid:
		return http.StatusBadRequest
	case games.Illegal, games.Banned:
		return http.StatusUnprocessableEntity
	case games.Conflict, games.GameOver:
		return http.StatusConflict
	case games.NotFound:
		return http.StatusNotFound
	case games.Unauthorized:
		return http.StatusUnauthorized
	case games.Forbidden:
		return http.StatusForbidden
	case games.TooMany:
		return http.StatusTooManyRequests
	}
	return http.StatusInternalServerError
}

// errorTitle heads the page that explains a refusal.
func errorTitle(e *games.Error) string {
	switch e.Detail {
	case "timeout":
		return "Request timed out"
	case "busy", "cancelled":
		return "Server busy"
	}
	switch e.Code {
	case games.NotFound:
		return "No such game"
	case games.Unauthorized, games.Forbidden:
		return "Only the players can do this"
	case games.TooMany:
		return "Too many requests"
	case games.Internal:
		return "Something went wrong"
	}
	return "This request was refused"
}
