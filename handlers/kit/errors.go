package kit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/labstack/echo/v4"
)

// httpStatus is the HTTP status of a refusal of code.
func Status(code errs.Code) int {
	switch code {
	case errs.Invalid:
		return http.StatusBadRequest
	case errs.Illegal, errs.Banned:
		return http.StatusUnprocessableEntity
	case errs.Conflict, errs.GameOver:
		return http.StatusConflict
	case errs.NotFound:
		return http.StatusNotFound
	case errs.Unauthorized:
		return http.StatusUnauthorized
	case errs.Forbidden:
		return http.StatusForbidden
	case errs.TooMany:
		return http.StatusTooManyRequests
	case errs.TooLarge:
		return http.StatusRequestEntityTooLarge
	case errs.Timeout:
		return http.StatusRequestTimeout
	case errs.Unavailable:
		return http.StatusServiceUnavailable
	case errs.MethodNotAllowed:
		return http.StatusMethodNotAllowed
	case errs.UnsupportedMedia:
		return http.StatusUnsupportedMediaType
	case errs.Misdirected:
		return http.StatusMisdirectedRequest
	}
	return http.StatusInternalServerError
}

// unavailableWait is what a 503 asks the client to wait when its refusal
// does not say.
const unavailableWait = 5 * time.Second

// WriteError answers a request that failed with err, and is the one place
// a failure becomes an HTTP status (httpStatus, by its code). Under /api it
// answers the API's {"error","code"}; elsewhere what a page made of it
// (see shown), or else an error page — its main part for htmx — that, for
// a failure of the server's own, offers ways on. It sets Retry-After when
// the refusal says when to try again (a 503 always does), and logs the
// server's failures.
func (k *Kit) WriteError(c echo.Context, err error) error {
	e := ErrorOf(err)
	if ClientGone(c, e) {
		// Nobody reads the answer: the request log says 499, at INFO.
		return c.NoContent(StatusClientGone)
	}
	st := Status(e.Code)
	wait := e.RetryAfter
	if wait <= 0 && e.Code == errs.Unavailable {
		wait = unavailableWait
	}
	if wait > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
	}
	if e.Code == errs.Internal || e.Code == errs.Unavailable {
		k.LogFailure(c, "request failed", err)
	}
	if IsAPI(c) {
		body := ErrorBody{Msg: e.Msg, Code: APICode(e)}
		var wg *WithGame
		if errors.As(err, &wg) {
			body.Game = wg.Game
		}
		return c.JSON(st, body)
	}
	if k.errorWords != nil {
		said := *e
		said.Msg = k.errorWords(c, e)
		e = &said
	}
	var pe *PageError
	errors.As(err, &pe)
	if pe != nil && pe.show != nil {
		// What the page shows may be refused in turn (the game it shows
		// again is gone): that refusal is answered instead.
		serr := pe.show(st, e)
		if serr != nil && !c.Response().Committed {
			return k.WriteError(c, ErrorOf(serr))
		}
		return serr
	}
	title := ""
	if pe != nil {
		title = pe.title
	}
	if k.errorPage == nil {
		return c.String(st, e.Msg)
	}
	return k.errorPage(c, st, e, title)
}

// StatusClientGone is the status logged for a request whose client went
// away before it was answered (nginx's "client closed request"): a
// normal end, not the server's failure.
const StatusClientGone = 499

// ClientGone reports whether e, a request's failure, is only its client
// going away: the request was cancelled (its connection closed, as a
// browser leaving a page closes its stream) while it was served. A store
// that gave up in time (a deadline) is not the client's doing.
func ClientGone(c echo.Context, e *errs.Error) bool {
	return e.Detail == errs.Cancelled && errors.Is(c.Request().Context().Err(), context.Canceled)
}

// WithGame is a refusal whose API answer carries the game as it stands
// ("game" beside "error" and "code").
type WithGame struct {
	Err  error
	Game any
}

func (w *WithGame) Error() string { return w.Err.Error() }

func (w *WithGame) Unwrap() error { return w.Err }

// ErrorBody is the body of every failure under /api.
type ErrorBody struct {
	Msg  string `json:"error"`          // a sentence a person understands
	Code string `json:"code"`           // a short machine word
	Game any    `json:"game,omitempty"` // the game as it stands, for a 409 conflict
}

// apiCode is the API's word for e: its detail, or else its code.
func APICode(e *errs.Error) string {
	if e.Detail != "" {
		return string(e.Detail)
	}
	return string(e.Code)
}

// pageError is a refusal a page words or shows in its own way: under a
// title of its own rather than its code's, or by show, which renders it —
// the game again with its message, the analysis panel saying why — at the
// status writeError chose. The API answers it as any other.
type PageError struct {
	err   error
	title string
	show  func(status int, e *errs.Error) error
}

func (p *PageError) Error() string { return p.err.Error() }

func (p *PageError) Unwrap() error { return p.err }

// titled heads the error page of err with title.
func Titled(title string, err error) error { return &PageError{err: err, title: title} }

// shown answers err, outside the API, with show.
func Shown(err error, show func(status int, e *errs.Error) error) error {
	return &PageError{err: err, show: show}
}

// errorOf is err as a refusal: a *errs.Error as it is, but a store too
// busy to save as Unavailable; Echo's own (a route or method not found) by
// its status; a body over the limit as TooLarge; and anything else as
// errs.Of makes it.
func ErrorOf(err error) *errs.Error {
	var e *errs.Error
	var tooBig *http.MaxBytesError
	var he *echo.HTTPError
	switch {
	case errors.As(err, &e):
		if e.Code == errs.Internal && e.Detail == "" && storeBusy(e) {
			return Busy(busySaveMsg, e)
		}
		return e
	case errors.As(err, &tooBig):
		return tooLarge(tooBig.Limit)
	case errors.As(err, &he):
		return httpError(he)
	}
	return errs.Of(err)
}

// httpError is a status Echo raised as a refusal, in the words of its
// message when it has one of its own.
func httpError(he *echo.HTTPError) *errs.Error {
	e := errs.Of(he) // Internal
	switch he.Code {
	case http.StatusBadRequest:
		e = &errs.Error{Code: errs.Invalid, Detail: errs.BadRequest, Msg: "The request could not be read."}
	case http.StatusUnauthorized:
		e = &errs.Error{Code: errs.Unauthorized, Msg: "This request does not say who is asking."}
	case http.StatusForbidden:
		e = &errs.Error{Code: errs.Forbidden, Msg: "This request was refused."}
	case http.StatusNotFound:
		e = &errs.Error{Code: errs.NotFound, Msg: "There is nothing at this address."}
	case http.StatusMethodNotAllowed:
		e = &errs.Error{Code: errs.MethodNotAllowed, Msg: "This address does not take this method."}
	case http.StatusRequestTimeout:
		e = &errs.Error{Code: errs.Timeout, Msg: slowBodyMsg}
	case http.StatusRequestEntityTooLarge:
		e = tooLarge(MaxBody)
	case http.StatusUnsupportedMediaType:
		e = &errs.Error{Code: errs.UnsupportedMedia, Detail: errs.NotJSON, Msg: "The request body must be JSON (Content-Type: application/json)."}
	case http.StatusTooManyRequests:
		e = &errs.Error{Code: errs.TooMany, Msg: "Too many requests: please wait and try again."}
	case http.StatusServiceUnavailable:
		e = &errs.Error{Code: errs.Unavailable, Msg: busyMsg}
	default:
		if he.Code >= 400 && he.Code < 500 {
			e = &errs.Error{Code: errs.Invalid, Msg: "This request was refused."}
		}
	}
	if m, ok := he.Message.(string); ok && m != "" && m != http.StatusText(he.Code) {
		e.Msg = errs.Sentence(m)
	}
	return e
}

// tooLarge refuses a body over limit bytes.
func tooLarge(limit int64) *errs.Error {
	return &errs.Error{Code: errs.TooLarge, Msg: fmt.Sprintf("The request body is larger than the %d KiB this server accepts.", limit>>10)}
}

// slowBodyMsg answers a request whose body did not arrive in time.
const slowBodyMsg = "The request did not arrive in time (the connection was too slow or stalled), so nothing changed. Please try again."

// bodyError explains a failure to read a request's body: over the limit,
// not arrived in time, or else unreadable, in the words of unreadable.
func BodyError(err error, unreadable string) *errs.Error {
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return tooLarge(tooBig.Limit)
	case bodyTimedOut(err):
		return &errs.Error{Code: errs.Timeout, Msg: slowBodyMsg, Err: err}
	}
	return &errs.Error{Code: errs.Invalid, Detail: errs.BadRequest, Msg: unreadable, Err: err}
}

// bodyTimedOut reports whether err, from reading a request's body, is the
// server giving up on it: the connection's read deadline (the server's
// ReadTimeout) passed, or the request was cancelled meanwhile. The client
// is slow or gone, and the answer is 408, not a server failure.
func bodyTimedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// AnswerErrors answers every failure of the handlers and middleware after
// it, a panic included, with writeError: inside the middleware before it
// (compression, the request log), as any answer.
func (k *Kit) AnswerErrors(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				err = fmt.Errorf("panic: %v", r)
			}
			if err != nil && !c.Response().Committed {
				err = k.WriteError(c, err)
			}
		}()
		return next(c)
	}
}

// ErrorHandler answers, with writeError, the failures that reach Echo
// itself: those of the middleware before answerErrors. Should writeError
// fail in turn, def answers.
func (k *Kit) ErrorHandler(def echo.HTTPErrorHandler) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		if k.WriteError(c, err) != nil {
			def(err, c)
		}
	}
}

// invalidf is a request the user can correct.
func Invalidf(format string, args ...any) error {
	return &errs.Error{Code: errs.Invalid, Msg: fmt.Sprintf(format, args...)}
}

// ShowAgain reports whether a page answers refusal err by showing itself
// again with the refusal's message — a refusal of what the user gave:
// input, a move, a conflict, a seat — rather than with an error page: the
// server's failure or its limits, a request that did not arrive in time,
// or the thing the page shows gone (NotFound). Every page decides so.
func ShowAgain(err error) bool {
	switch ErrorOf(err).Code {
	case errs.Timeout, errs.NotFound, errs.TooMany, errs.Unavailable, errs.Internal:
		return false
	}
	return true
}
