package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// must is s.call, failing the test unless the status is want.
func (s *server) must(t *testing.T, method, path, body, token string, want int, out any) {
	t.Helper()
	if code := s.call(t, method, path, body, token, out); code != want {
		t.Fatalf("%s %s: %d, want %d", method, path, code, want)
	}
}

// TestTwoInstancesChat: a line said on one instance reaches a stream of
// its room on the other, which reads it back, and is refused there as a
// repeat: the servers share the rooms.
func TestTwoInstancesChat(t *testing.T) {
	_, pair := startPair(t)
	var created struct{ ID, Token, InviteCode string }
	pair[0].must(t, http.MethodPost, "/api/games", `{"mode":"invite","color":"white"}`, "", http.StatusCreated, &created)
	var joined struct{ Token string }
	pair[1].must(t, http.MethodPost, "/api/games/"+created.ID+"/join", `{"invite":"`+created.InviteCode+`"}`, "", http.StatusOK, &joined)

	req, err := http.NewRequest(http.MethodGet, pair[1].url+"/api/games/"+created.ID+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+joined.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	lines := make(chan string, 16)
	opened := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 4<<20)
		chat := false
		for sc.Scan() {
			switch l := sc.Text(); {
			case l == ": banchess live":
				close(opened)
			case l == "event: chat":
				chat = true
			case chat && strings.HasPrefix(l, "data: "):
				lines <- strings.TrimPrefix(l, "data: ")
				chat = false
			case l == "":
				chat = false
			}
		}
	}()
	<-opened
	time.Sleep(200 * time.Millisecond) // the stream watches the game

	pair[0].must(t, http.MethodPost, "/api/games/"+created.ID+"/chat", `{"text":"from the first","room":"player"}`, created.Token, http.StatusCreated, nil)
	select {
	case data := <-lines:
		var l struct {
			Seq  int64
			Text string
		}
		if json.Unmarshal([]byte(data), &l) != nil || l.Seq != 1 || l.Text != "from the first" {
			t.Errorf("the other instance's stream sent %s", data)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a line said on one instance never reached the other's stream")
	}
	var room struct {
		Lines []struct{ Text string }
	}
	pair[1].must(t, http.MethodGet, "/api/games/"+created.ID+"/chat", "", joined.Token, http.StatusOK, &room)
	if len(room.Lines) != 1 || room.Lines[0].Text != "from the first" {
		t.Errorf("the other instance reads %+v", room)
	}
	pair[1].must(t, http.MethodPost, "/api/games/"+created.ID+"/chat", `{"text":"from the first","room":"player"}`, created.Token, http.StatusBadRequest, nil)
}
