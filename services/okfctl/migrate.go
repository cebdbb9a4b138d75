package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store"
)

func migrateCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	if err := fs.Parse(args); err != nil {
		return err
	}
	u, err := config.LoadDatabaseURL(os.Getenv)
	if err != nil {
		return err
	}
	if err := store.Migrate(ctx, u); err != nil {
		return err
	}
	fmt.Println("migrations applied")
	return nil
}
