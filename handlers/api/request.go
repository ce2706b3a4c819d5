package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"reflect"
	"slices"
	"strings"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
)

// The bodies the API's requests take: JSON objects whose members are all
// optional (a body may be empty), each a field.
type (
	createRequest struct {
		Variant field[string]     `json:"variant"`
		FEN     field[string]     `json:"fen"`
		PGN     field[string]     `json:"pgn"`
		Mode    field[string]     `json:"mode"`
		Color   field[string]     `json:"color"`
		Clock   field[string]     `json:"clock"`
		Bot     field[botRequest] `json:"bot"`
	}
	actionRequest struct {
		Action field[string]  `json:"action"`
		Ply    field[numeral] `json:"ply"`
	}
	resignRequest struct {
		Color field[string] `json:"color"`
	}
	joinRequest struct {
		Invite field[string] `json:"invite"`
	}
	offerRequest struct {
		Offer field[string] `json:"offer"`
	}
	premoveRequest struct {
		Actions field[[]string] `json:"actions"`
	}
	chatRequest struct {
		Text field[string] `json:"text"`
		Room field[string] `json:"room"`
	}
	emptyRequest struct{}
)

// botRequest is the member "bot": {"color":"black","level":3}, or its
// short form "black:3".
type botRequest struct {
	Color field[numeral] `json:"color"`
	Level field[numeral] `json:"level"`
}

func (b *botRequest) UnmarshalJSON(data []byte) error {
	var short string
	if json.Unmarshal(data, &short) == nil {
		color, level, _ := strings.Cut(short, ":")
		b.Color.val, b.Level.val = numeral(color), numeral(level)
		return nil
	}
	if data[0] != '{' {
		return &json.UnmarshalTypeError{Value: jsonKind(data), Type: reflect.TypeFor[botRequest]()}
	}
	type members botRequest // without this method
	return decodeObject(data, (*members)(b), "bot")
}

// field is a member of a request body: its value, and whether the body
// gave it.
type field[T any] struct {
	val T
	ok  bool
}

// repeated stands, in an *json.UnmarshalTypeError, for a member given
// twice.
const repeated = "a second value"

// UnmarshalJSON reads the member's value, and refuses null and a second
// value as *json.UnmarshalTypeError, which encoding/json names the member
// in.
func (f *field[T]) UnmarshalJSON(data []byte) error {
	switch {
	case string(data) == "null":
		return &json.UnmarshalTypeError{Value: "null", Type: reflect.TypeFor[T]()}
	case f.ok:
		return &json.UnmarshalTypeError{Value: repeated, Type: reflect.TypeFor[T]()}
	}
	f.ok = true
	return json.Unmarshal(data, &f.val)
}

// numeral is a member given as a JSON string or number, as its text: a
// ply, a level.
type numeral string

func (n *numeral) UnmarshalJSON(data []byte) error {
	var s string
	if json.Unmarshal(data, &s) == nil {
		*n = numeral(s)
		return nil
	}
	var num json.Number
	if json.Unmarshal(data, &num) != nil {
		return &json.UnmarshalTypeError{Value: jsonKind(data), Type: reflect.TypeFor[numeral]()}
	}
	*n = numeral(num)
	return nil
}

// boolean is a member given as JSON true or false, or as a form gives
// it: "1" or "0", "true" or "false".
type boolean bool

func (b *boolean) UnmarshalJSON(data []byte) error {
	var v bool
	if json.Unmarshal(data, &v) == nil {
		*b = boolean(v)
		return nil
	}
	var s string
	if json.Unmarshal(data, &s) == nil {
		switch s {
		case "1", "true":
			*b = true
			return nil
		case "0", "false":
			*b = false
			return nil
		}
	}
	return &json.UnmarshalTypeError{Value: jsonKind(data), Type: reflect.TypeFor[bool]()}
}

// jsonKind names the kind of a JSON value, for a refusal.
func jsonKind(data []byte) string {
	switch data[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case '"':
		return "string"
	}
	return "number"
}

// readJSON reads the request's body into req, a pointer to one of the
// request structs: an empty body leaves it as it is; any other is JSON
// (by its Content-Type) read by decodeObject.
func readJSON(c echo.Context, req any) error {
	r := c.Request()
	var body []byte
	if r.Body != nil {
		var err error
		if body, err = io.ReadAll(r.Body); err != nil {
			return kit.BodyError(err, "The request body could not be read.")
		}
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return nil
	}
	if ct := r.Header.Get(echo.HeaderContentType); !isJSONType(ct) {
		return &errs.Error{Code: errs.UnsupportedMedia, Detail: errs.NotJSON,
			Msg: fmt.Sprintf("The request body must be JSON, sent with Content-Type: application/json (it came as %q).", kit.TrimText(ct))}
	}
	return decodeObject(body, req, "")
}

// isJSONType reports whether a Content-Type names JSON.
func isJSONType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

// decodeObject reads data, one JSON object, into v, a pointer to a struct
// of fields, with encoding/json. Its members are first checked by their
// exact names, since encoding/json (DisallowUnknownFields too) would take
// "Variant" for "variant" and the API's names are case-sensitive: an
// unknown member is refused, and then one given twice or as null (by
// field), one of another type, anything after the object. name is the
// member data is the value of ("" for the body), whose refusals of types
// are left to the body's decoding, which names the member.
func decodeObject(data []byte, v any, name string) error {
	var members map[string]skipped
	if err := json.Unmarshal(data, &members); err != nil || members == nil {
		var se *json.SyntaxError
		if name == "" && !errors.As(err, &se) {
			return invalidJSON("The request body must be a JSON object, such as %s.", example(v))
		}
		return notJSONError(err)
	}
	names := memberNames(v)
	var unknown []string
	for m := range members {
		if !slices.Contains(names, m) {
			unknown = append(unknown, m)
		}
	}
	if len(unknown) > 0 {
		return unknownMember(slices.Min(unknown), names, name)
	}
	err := json.Unmarshal(data, v)
	if err != nil && name == "" {
		return notJSONError(err)
	}
	return err // a member's: the body's decoding names it
}

// skipped is a member's value, read only as far as to pass over it.
type skipped struct{}

func (skipped) UnmarshalJSON([]byte) error { return nil }

// memberNames are the JSON names of the members of the struct v points to.
func memberNames(v any) []string {
	t := reflect.TypeOf(v).Elem()
	names := make([]string, t.NumField())
	for i := range names {
		names[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	return names
}

// unknownMember refuses the member m, not among names, of the object
// named in (the body when "").
func unknownMember(m string, names []string, in string) error {
	e := &errs.Error{Code: errs.Invalid, Detail: errs.UnknownField}
	switch {
	case in != "":
		e.Msg = fmt.Sprintf("Unknown field %q: %q takes %s.", in+"."+kit.TrimText(m), in, quoteList(names))
	case len(names) == 0:
		e.Msg = fmt.Sprintf("This request takes no fields, but the body has %q: send no body or {}.", kit.TrimText(m))
	default:
		e.Msg = fmt.Sprintf("Unknown field %q: this request takes %s.", kit.TrimText(m), quoteList(names))
	}
	return e
}

// notJSONError explains why a body is not the JSON its request takes.
func notJSONError(err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var ge *errs.Error
	switch {
	case errors.As(err, &ge):
		return ge // a member's own refusal
	case errors.As(err, &se):
		return invalidJSON("The request body is not valid JSON: %s (at byte %d).", se.Error(), se.Offset)
	case errors.As(err, &te) && te.Value == repeated:
		return invalidJSON("The field %q is given twice.", te.Field)
	case errors.As(err, &te):
		return invalidJSON("The field %q must be %s.", te.Field, jsonWant(te.Type))
	}
	return invalidJSON("The request body is not valid JSON: %s.", err.Error())
}

// jsonWant says what a member of type t must be.
func jsonWant(t reflect.Type) string {
	switch t {
	case reflect.TypeFor[numeral]():
		return "a string or a number"
	case reflect.TypeFor[botRequest]():
		return `an object such as {"color":"black","level":3}, or a string such as "black:3"`
	}
	return "a string"
}

// invalidJSON is a body that is not the JSON its request takes.
func invalidJSON(format string, args ...any) error {
	return &errs.Error{Code: errs.Invalid, Detail: errs.BadJSON, Msg: fmt.Sprintf(format, args...)}
}

// example is a body of the request v points to.
func example(v any) string {
	names := memberNames(v)
	if len(names) == 0 {
		return "{}"
	}
	return `{"` + names[0] + `":"…"}`
}

// quoteList lists names, quoted, as a sentence does.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = `"` + n + `"`
	}
	if len(q) == 1 {
		return "only " + q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}
