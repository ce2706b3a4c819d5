package botclient

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"
)

// Command runs "banchess bot" with args: it connects the engine the flags
// name to the server and plays until ctx ends, logging to logs.
func Command(ctx context.Context, args []string, logs io.Writer) error {
	fs := flag.NewFlagSet("banchess bot", flag.ContinueOnError)
	fs.SetOutput(logs)
	server := fs.String("server", "http://localhost:8080", "the server's address (ours, or https://lichess.org for Classic)")
	token := fs.String("token", "", "the account's API token (bot:play for a bot account; board:play and challenge:write for another); $BANCHESS_TOKEN when not given")
	command := fs.String("engine", "banchess uci", "the UCI engine's command line")
	accept := fs.String("accept", "banchess,standard", "the variants whose challenges are accepted, by lichess's keys, comma-separated")
	modes := fs.String("modes", "rated,casual", "the challenges accepted: rated, casual or both")
	moveTime := fs.Duration("movetime", 0, "search each ply this long (0: by the game's clock)")
	seek := fs.String("seek", "", "when playing no game, seek one at this clock (3+2) in the lobby, of the first --accept variant (an account that is not a bot)")
	var options []string
	fs.Func("engine-option", "a UCI option set on the engine, as Name=value (repeat it for more)", func(s string) error {
		if !strings.Contains(s, "=") {
			return fmt.Errorf("%q: give Name=value", s)
		}
		options = append(options, s)
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *token == "" {
		*token = os.Getenv("BANCHESS_TOKEN")
	}
	if *token == "" {
		return errors.New("no token: give --token or set BANCHESS_TOKEN")
	}
	c := Config{Server: *server, Token: *token, Engine: Exec(*command), MoveTime: *moveTime, Seek: *seek, Options: map[string]string{},
		Log: slog.New(slog.NewTextHandler(logs, nil))}
	for _, o := range options {
		name, value, _ := strings.Cut(o, "=")
		c.Options[name] = value
	}
	for _, v := range strings.Split(*accept, ",") {
		if v = strings.TrimSpace(v); v != "" {
			c.Variants = append(c.Variants, v)
		}
	}
	for _, m := range strings.Split(*modes, ",") {
		switch strings.TrimSpace(m) {
		case "rated":
			c.Rated = true
		case "casual":
			c.Casual = true
		default:
			return fmt.Errorf("--modes: %q is not rated or casual", m)
		}
	}
	if *moveTime < 0 || *moveTime > time.Hour {
		return errors.New("--movetime: from 0 to 1h")
	}
	return New(c).Run(ctx)
}
