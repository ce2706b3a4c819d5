package api

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/stream"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/errs"
)

// ChatRoom is a room's lines as the API writes them: the room, its latest
// lines after the one asked for (oldest first, at most chat.HistoryLines),
// and the seq of the game's last line in either room, to ask after next.
type ChatRoom struct {
	Room  string            `json:"room"`
	Lines []stream.ChatLine `json:"lines"`
	Last  int64             `json:"last"`
}

// noChat refuses the chat's routes on a server without it.
func noChat() error {
	return &errs.Error{Code: errs.NotFound, Detail: errs.NoChat, Msg: "This server keeps no chat."}
}

// lines answers a room's lines: ?room=player|spectator (the caller's own
// room when not given: the players' for a player, else the spectators'),
// and ?after=SEQ for the lines after that one. A player reads only the
// players' room, anyone else only the spectators'.
func (a *chatAPI) lines(c echo.Context) error {
	if a.s.chat == nil {
		return noChat()
	}
	id, cred, q := c.Param("id"), kit.Bearer(c), c.QueryParams()
	var after int64
	if v := q.Get("after"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return &errs.Error{Code: errs.Invalid, Detail: errs.BadRequest, Msg: `"after" is the seq of a line: a whole number from 0.`}
		}
		after = n
	}
	ctx := c.Request().Context()
	var room chat.Room
	if v := q.Get("room"); v != "" {
		r, err := chat.ParseRoom(v)
		if err != nil {
			return err
		}
		room = r
	} else {
		v, err := a.s.chat.Room(ctx, id, cred)
		if err != nil {
			return err
		}
		if !v.Chat {
			return &errs.Error{Code: errs.Invalid, Detail: errs.NoChat, Msg: "This game has no chat: only games between two players do."}
		}
		room = v.Room
	}
	lines, last, err := a.s.chat.Lines(ctx, id, cred, room, after)
	if err != nil {
		return err
	}
	out := ChatRoom{Room: string(room), Lines: make([]stream.ChatLine, len(lines)), Last: last}
	for i, l := range lines {
		out.Lines[i] = stream.ChatLineOf(l)
	}
	return c.JSON(http.StatusOK, out)
}

// post says a line: {"text":"…","room":"player"|"spectator"} with the
// caller's bearer token. It answers 201 with the line; a refused line
// changes nothing and answers 400 (chat_empty, chat_too_long,
// chat_repeated, chat_off, chat_room, chat_closed, chat_anonymous,
// bad_room, no_chat), 401 without a token, or 429 (chat_rate, with
// Retry-After).
func (a *chatAPI) post(c echo.Context) error {
	if a.s.chat == nil {
		return noChat()
	}
	var req chatRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	if !req.Room.ok {
		return &errs.Error{Code: errs.Invalid, Detail: errs.BadRoom, Msg: `Name the room: {"text":"…","room":"player"} or "spectator".`}
	}
	room, err := chat.ParseRoom(strings.TrimSpace(req.Room.val))
	if err != nil {
		return err
	}
	l, err := a.s.chat.Post(c.Request().Context(), c.Param("id"), kit.Bearer(c), room, req.Text.val)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, stream.ChatLineOf(l))
}
