package store

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/okfindex/okf-index/db"
)

// migrateLock is the advisory lock key that serialises migrators: at most
// one process applies migrations at a time; the others wait, then find
// nothing left to do.
const migrateLock int64 = 0x6f6b665f6d696772 // "okf_migr"

// Migration is one SQL file of package db.
type Migration struct {
	Version int64  // numeric prefix of the file name
	Name    string // file name, e.g. 0001_schema.sql
	SQL     string
}

// Migrations lists the SQL migrations of package db in version order.
func Migrations() ([]Migration, error) {
	names, err := fs.Glob(db.Migrations, "migrations/*.sql")
	if err != nil {
		return nil, fmt.Errorf("store: list migrations: %w", err)
	}
	out := make([]Migration, 0, len(names))
	seen := map[int64]string{}
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		prefix, _, ok := strings.Cut(base, "_")
		v, err := strconv.ParseInt(prefix, 10, 64)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("store: migration %s: name must be NNNN_name.sql", base)
		}
		if other, dup := seen[v]; dup {
			return nil, fmt.Errorf("store: migrations %s and %s share version %d", other, base, v)
		}
		seen[v] = base
		b, err := fs.ReadFile(db.Migrations, name)
		if err != nil {
			return nil, fmt.Errorf("store: read migration %s: %w", base, err)
		}
		out = append(out, Migration{Version: v, Name: base, SQL: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out, nil
}

// Migrate applies our SQL migrations, then River's (rivermigrate); idempotent.
//
// Each of our files runs once, in its own transaction, recorded in
// schema_migrations. Concurrent migrators are safe: a session advisory lock
// serialises whole runs (River's steps included), and each file's transaction
// takes the same lock again before it checks whether the file is applied.
func Migrate(ctx context.Context, databaseURL string) error {
	migrations, err := Migrations()
	if err != nil {
		return err
	}
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrateLock); err != nil {
		return fmt.Errorf("store: migrate: lock: %w", err)
	}
	// Closing the connection releases the lock too; unlock explicitly so a
	// pooled or proxied connection never keeps it.
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrateLock)

	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    bigint PRIMARY KEY,
		name       text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now()
	)`); err != nil {
		return fmt.Errorf("store: migrate: schema_migrations: %w", err)
	}
	for _, m := range migrations {
		if err := applyMigration(ctx, conn, m); err != nil {
			return err
		}
	}
	return migrateRiver(ctx, databaseURL)
}

// applyMigration runs one file in its own transaction unless it is applied.
func applyMigration(ctx context.Context, conn *pgx.Conn, m Migration) error {
	err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", migrateLock); err != nil {
			return err
		}
		var applied bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)", m.Version).Scan(&applied); err != nil {
			return err
		}
		if applied {
			return nil
		}
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", m.Version, m.Name)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: migrate %s: %w", m.Name, err)
	}
	return nil
}

// migrateRiver applies River's own migrations (its job tables), up to the
// version of the linked River.
func migrateRiver(ctx context.Context, databaseURL string) error {
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return fmt.Errorf("store: migrate river: %w", err)
	}
	cfg.MaxConns = 2
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("store: migrate river: %w", err)
	}
	defer pool.Close()
	migrator, err := rivermigrate.New(riverpgxv5.New(pool), &rivermigrate.Config{
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		return fmt.Errorf("store: migrate river: %w", err)
	}
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("store: migrate river: %w", err)
	}
	return nil
}
