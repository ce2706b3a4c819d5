package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/banchess/banchess/moderation"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/store"
)

// adminUsage is how banchess admin is run.
const adminUsage = `usage: banchess admin grant-mod [--db DSN] NAME    make the player NAME a moderator
       banchess admin revoke-mod [--db DSN] NAME   make them no longer one`

// adminCommand runs "banchess admin grant-mod NAME" and "revoke-mod NAME"
// on the server, against the store --db (or DATABASE_URL) names: the
// grant is written to the moderation log, as the server's.
func adminCommand(ctx context.Context, args []string, stdout io.Writer, getenv func(string) string) error {
	if len(args) == 0 || args[0] != "grant-mod" && args[0] != "revoke-mod" {
		return errors.New(adminUsage)
	}
	grant := args[0] == "grant-mod"
	fs := flag.NewFlagSet("banchess admin "+args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dsn := fs.String("db", "banchess.db", "the server's store: a PostgreSQL URL or an SQLite file; without --db, DATABASE_URL when set")
	if err := fs.Parse(args[1:]); err != nil {
		return fmt.Errorf("%w\n%s", err, adminUsage)
	}
	if fs.NArg() != 1 {
		return errors.New(adminUsage)
	}
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "db" })
	if url := getenv("DATABASE_URL"); url != "" && !set {
		*dsn = url
	}
	if !store.IsPostgresURL(*dsn) {
		if _, err := os.Stat(*dsn); err != nil {
			return fmt.Errorf("--db: %w", err)
		}
	}
	db, err := openStore(ctx, *dsn, store.Options{}, store.PostgresOptions{})
	if err != nil {
		return err
	}
	defer db.Close()
	pl := players.New(db, players.WithSafety(db.Safety()))
	name := fs.Arg(0)
	if err := moderation.New(db.Moderation(), pl, nil, nil).SetModerator(ctx, name, grant); err != nil {
		return err
	}
	if grant {
		fmt.Fprintf(stdout, "%s is a moderator: /mod is theirs.\n", name)
	} else {
		fmt.Fprintf(stdout, "%s is no longer a moderator.\n", name)
	}
	return nil
}
