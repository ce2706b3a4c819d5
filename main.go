// Command banchess serves the Ban Chess playground, or with "play" plays Ban
// Chess in the terminal.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/handlers"
	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/terminal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(os.Args) > 1 && os.Args[1] == "play" {
		os.Exit(terminal.Run(ctx, os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	if err := serve(ctx, os.Args[1:], os.Stdout, os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "banchess:", err)
		os.Exit(1)
	}
}

// serve runs the playground until ctx ends.
func serve(ctx context.Context, args []string, out io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("banchess", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprintln(out, "usage: banchess [flags]      serve the playground\n       banchess play [flags] play in the terminal (banchess play -h)")
		fs.PrintDefaults()
	}
	addr := fs.String("addr", "localhost:8080", "address to listen on; the PORT environment variable, when set, listens on :PORT unless --addr is given")
	if err := fs.Parse(args); err != nil {
		return err
	}
	addrSet := false
	fs.Visit(func(f *flag.Flag) { addrSet = addrSet || f.Name == "addr" })
	if port := getenv("PORT"); port != "" && !addrSet {
		*addr = ":" + port
	}

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	handlers.New(store.NewMemory(), nil).Register(e)

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	srv := &http.Server{
		Handler:           e,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	fmt.Fprintf(out, "banchess: playing at http://%s/\n", displayAddr(ln.Addr()))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// displayAddr turns a listening address into one a browser can open.
func displayAddr(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() || ip.IsLoopback() {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}
