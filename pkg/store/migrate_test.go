package store_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

// emptyDatabase creates a database without any migration, dropped when the
// test ends.
func emptyDatabase(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	admin := storetest.AdminURL(t)
	name := "okf_migrate_" + rand.Text()[:10]
	name = strings.ToLower(name)
	exec := func(sql string) error {
		conn, err := pgx.Connect(ctx, admin)
		if err != nil {
			return err
		}
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, sql)
		return err
	}
	if err := exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)") })
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// migrationState reads what Migrate recorded.
func migrationState(t *testing.T, dbURL string) (ours []string, river int) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT version || ' ' || name || ' ' || applied_at FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	ours, err = pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM river_migration`).Scan(&river); err != nil {
		t.Fatal(err)
	}
	return ours, river
}

func TestMigrateIsIdempotent(t *testing.T) {
	dbURL := emptyDatabase(t)
	ctx := context.Background()
	if err := store.Migrate(ctx, dbURL); err != nil {
		t.Fatal(err)
	}
	ours, river := migrationState(t, dbURL)
	ms, err := store.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ours) != len(ms) || river == 0 {
		t.Fatalf("after first run: %d of %d migrations, %d river versions", len(ours), len(ms), river)
	}
	if err := store.Migrate(ctx, dbURL); err != nil {
		t.Fatal(err)
	}
	again, riverAgain := migrationState(t, dbURL)
	if fmt.Sprint(again) != fmt.Sprint(ours) || riverAgain != river {
		t.Errorf("second run changed the record:\n%v %d\n%v %d", ours, river, again, riverAgain)
	}
}

func TestMigrateConcurrently(t *testing.T) {
	dbURL := emptyDatabase(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = store.Migrate(context.Background(), dbURL)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("migrator %d: %v", i, err)
		}
	}
	ms, _ := store.Migrations()
	if ours, river := migrationState(t, dbURL); len(ours) != len(ms) || river == 0 {
		t.Errorf("%d of %d migrations, %d river versions", len(ours), len(ms), river)
	}
	// The migrated database works.
	s, err := store.Open(context.Background(), store.Config{URL: dbURL})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mustUpsert(t, s, repoBundle("a", "b", "index.md"))
}

func TestMigrationsAreOrdered(t *testing.T) {
	ms, err := store.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	// 0011 is reserved for a branch that has not landed yet (0012 was
	// written beside it); Migrate applies each file on its own, so the
	// reserved file still applies after 0012. Remove this once 0011 exists.
	reserved := map[int64]bool{11: true}
	want := int64(1)
	for i, m := range ms {
		if reserved[want] && m.Version != want {
			want++
		}
		if m.Version != want {
			t.Errorf("migration %d is %s (version %d): versions must run 1, 2, 3...", i, m.Name, m.Version)
		}
		want++
	}
}
