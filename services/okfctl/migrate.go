package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/okfindex/okf-index/pkg/store"
)

func migrateCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	if err := fs.Parse(args); err != nil {
		return err
	}
	u, err := databaseURL()
	if err != nil {
		return err
	}
	if err := store.Migrate(ctx, u); err != nil {
		return err
	}
	fmt.Println("migrations applied")
	return nil
}
