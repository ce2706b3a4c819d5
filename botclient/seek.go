package botclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// seekPause is how long the bot waits between seeks, and after a refusal.
const seekPause = 2 * time.Second

// seeking seeks a game at the configured clock whenever the bot plays
// none, until ctx ends: a board seek's request lasts until it is paired
// (the game comes by the stream of events) or the server drops it.
func (b *Client) seeking(ctx context.Context) {
	minutes, inc, ok := strings.Cut(b.c.Seek, "+")
	if !ok {
		b.c.Log.Error("not a clock to seek", "seek", b.c.Seek)
		return
	}
	form := url.Values{"time": {minutes}, "increment": {inc}, "variant": {b.c.Variants[0]}, "rated": {fmt.Sprint(b.c.Rated && !b.c.Casual)}}
	for ctx.Err() == nil {
		if b.Playing() == 0 {
			b.c.Log.Info("seeking a game", "clock", b.c.Seek, "variant", b.c.Variants[0])
			err := b.seek(ctx, form)
			var ae *apiError
			if errors.As(err, &ae) && ae.Status < 500 && ae.Status != http.StatusTooManyRequests {
				b.c.Log.Error("the seek was refused", "err", err)
				return
			}
			if err != nil && ctx.Err() == nil {
				b.c.Log.Warn("seeking", "err", err)
			}
		}
		select {
		case <-time.After(seekPause):
		case <-ctx.Done():
		}
	}
}

// seek posts a board seek and waits until the server ends it.
func (b *Client) seek(ctx context.Context, form url.Values) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.c.Server+"/api/board/seek", strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+b.c.Token)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := b.c.Client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
		return &apiError{Status: res.StatusCode, Msg: strings.TrimSpace(string(data))}
	}
	_, err = io.Copy(io.Discard, res.Body) // until paired
	return err
}
