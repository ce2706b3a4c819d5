package handlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"
)

// readAll reads the whole request body, within the limit apiBodyLimit set.
func readAll(r *http.Request) ([]byte, error) {
	if r.Body == nil {
		return nil, nil
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, err
		}
		if bodyTimedOut(err) {
			return nil, apiFail(http.StatusRequestTimeout, "timeout", "%s", slowBodyMsg)
		}
		return nil, apiFail(http.StatusBadRequest, "bad_request", "The request body could not be read.")
	}
	return body, nil
}

// isJSONType reports whether a Content-Type names JSON.
func isJSONType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

// decodeFields reads body as one JSON object of string members named in
// names. Anything else — not JSON, not an object, a member of another type,
// an unknown or repeated name, data after the object — is refused.
func decodeFields(body []byte, names []string) (map[string]string, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	fields := map[string]string{}
	tok, err := dec.Token()
	if err != nil {
		return nil, badJSON(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, apiFail(http.StatusBadRequest, "bad_json", "The request body must be a JSON object, such as %s.", example(names))
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, badJSON(err)
		}
		name := tok.(string) // inside an object, Token gives names as strings
		if !slices.Contains(names, name) {
			if len(names) == 0 {
				return nil, apiFail(http.StatusBadRequest, "unknown_field", "This request takes no fields, but the body has %q: send no body or {}.", trimText(name))
			}
			return nil, apiFail(http.StatusBadRequest, "unknown_field", "Unknown field %q: this request takes %s.", trimText(name), quoteList(names))
		}
		if _, dup := fields[name]; dup {
			return nil, apiFail(http.StatusBadRequest, "bad_json", "The field %q is given twice.", name)
		}
		tok, err = dec.Token()
		if err != nil {
			return nil, badJSON(err)
		}
		v, ok := tok.(string)
		if n, isNum := tok.(json.Number); isNum && name == "ply" {
			v, ok = n.String(), true // a ply may be given as a number
		}
		if d, isObj := tok.(json.Delim); isObj && d == '{' && name == "bot" {
			if v, err = decodeBot(dec); err != nil {
				return nil, err
			}
			ok = true
		}
		if !ok {
			return nil, apiFail(http.StatusBadRequest, "bad_json", "The field %q must be a string.", name)
		}
		fields[name] = v
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, badJSON(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, apiFail(http.StatusBadRequest, "bad_json", "The request body has more after its JSON object; send one object.")
	}
	return fields, nil
}

// decodeBot reads the rest of the object {"color":"white"|"black",
// "level":1..8} after its opening brace, as the string form "color:level"
// of the member "bot".
func decodeBot(dec *json.Decoder) (string, error) {
	var color, level string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", badJSON(err)
		}
		name := tok.(string)
		if tok, err = dec.Token(); err != nil {
			return "", badJSON(err)
		}
		var v string
		switch t := tok.(type) {
		case string:
			v = t
		case json.Number:
			v = t.String()
		default:
			return "", apiFail(http.StatusBadRequest, "bad_json", `The field "bot.%s" must be a string or a number.`, trimText(name))
		}
		switch name {
		case "color":
			color = v
		case "level":
			level = v
		default:
			return "", apiFail(http.StatusBadRequest, "unknown_field", `Unknown field "bot.%s": "bot" takes "color" and "level".`, trimText(name))
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return "", badJSON(err)
	}
	return color + ":" + level, nil
}

// badJSON explains a JSON syntax error.
func badJSON(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return apiFail(http.StatusBadRequest, "bad_json", "The request body is not valid JSON: %s (at byte %d).", err.Error(), se.Offset)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return apiFail(http.StatusBadRequest, "bad_json", "The request body is not valid JSON: it ends too soon.")
	}
	return apiFail(http.StatusBadRequest, "bad_json", "The request body is not valid JSON: %s.", err.Error())
}

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

func example(names []string) string {
	if len(names) == 0 {
		return "{}"
	}
	return `{"` + names[0] + `":"…"}`
}
