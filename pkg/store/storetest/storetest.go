// Package storetest gives tests a real, migrated, empty Postgres database.
//
// A test binary uses one ephemeral cluster: the one named by
// OKF_TEST_DATABASE_URL (an admin URL; each test gets its own database on
// that server), or else a private cluster that Main starts in the system temp
// dir and removes when the tests end. Databases are cloned from a template
// migrated once, so a new database costs a few milliseconds.
package storetest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/pgcluster"
	"github.com/okfindex/okf-index/pkg/store"
)

// clusterPrefix starts the name of every test cluster directory.
const clusterPrefix = "okf-test-pg-"

var (
	adminURL string
	cluster  *pgcluster.Cluster

	templateOnce sync.Once
	templateDB   string // okf_test_template_<fingerprint of the migrations>
	templateErr  error
)

// Main runs the tests of a package against an ephemeral cluster. Call it
// from TestMain: func TestMain(m *testing.M) { storetest.Main(m) }.
func Main(m *testing.M) {
	code, err := run(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "storetest:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func run(m *testing.M) (int, error) {
	adminURL = os.Getenv("OKF_TEST_DATABASE_URL")
	if adminURL == "" {
		// A test binary that panicked or was killed left its cluster
		// running; stop and delete those first.
		pattern := filepath.Join(os.TempDir(), clusterPrefix+"*")
		if n, err := pgcluster.Reap(pattern); err != nil {
			fmt.Fprintln(os.Stderr, "storetest: reaping orphan clusters:", err)
		} else if n > 0 {
			fmt.Fprintf(os.Stderr, "storetest: removed %d orphan test clusters\n", n)
		}
		dir, err := os.MkdirTemp("", clusterPrefix)
		if err != nil {
			return 0, err
		}
		cluster, err = pgcluster.Start(context.Background(), pgcluster.Options{Dir: dir, Ephemeral: true})
		if err != nil {
			return 0, err
		}
		defer cluster.Remove()
		if err := cluster.ClaimOwnership(); err != nil {
			return 0, err
		}
		adminURL = cluster.URL("postgres")
	}
	return m.Run(), nil
}

// AdminURL is the URL of the maintenance database of the test cluster.
func AdminURL(t testing.TB) string {
	t.Helper()
	if adminURL == "" {
		t.Fatal("storetest: call storetest.Main from TestMain")
	}
	return adminURL
}

// NewDatabase creates a fresh migrated database and returns its URL. It is
// dropped when the test ends.
func NewDatabase(t testing.TB) string {
	t.Helper()
	AdminURL(t) // fails the test when Main did not run
	u, drop, err := newDatabase(context.Background())
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	t.Cleanup(drop)
	return u
}

// NewStore opens a Store on a fresh migrated database, closed when the test ends.
func NewStore(t testing.TB) *store.Store {
	t.Helper()
	u := NewDatabase(t)
	s, err := store.Open(context.Background(), store.Config{URL: u})
	if err != nil {
		t.Fatalf("storetest: open: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// Open opens a Store on a fresh migrated database outside a test (an
// Example has none); done closes it and drops the database.
func Open() (st *store.Store, done func(), err error) {
	if adminURL == "" {
		return nil, nil, fmt.Errorf("storetest: call storetest.Main from TestMain")
	}
	ctx := context.Background()
	u, drop, err := newDatabase(ctx)
	if err != nil {
		return nil, nil, err
	}
	if st, err = store.Open(ctx, store.Config{URL: u}); err != nil {
		drop()
		return nil, nil, err
	}
	return st, func() { st.Close(); drop() }, nil
}

// newDatabase creates a database from the migrated template and returns
// its URL and what drops it.
func newDatabase(ctx context.Context) (dbURL string, drop func(), err error) {
	templateOnce.Do(func() {
		templateDB, templateErr = templateName()
		if templateErr == nil {
			templateErr = makeTemplate(ctx)
		}
	})
	if templateErr != nil {
		return "", nil, fmt.Errorf("template database: %w", templateErr)
	}
	name := "okf_test_" + randomHex(6)
	if err := exec(ctx, adminURL, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, templateDB)); err != nil {
		return "", nil, err
	}
	drop = func() {
		_ = exec(context.Background(), adminURL, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name))
	}
	return withDatabase(adminURL, name), drop, nil
}

// CloneBundle writes n live copies of the bundle id (already written) in
// one statement, with ids id-1 to id-n, distinct root hashes and each one
// second older than the last: a large index for a test of cost, in a
// fraction of the time n upserts take. The statistics summary follows
// through its triggers; the duplicate rule is not applied.
func CloneBundle(t testing.TB, st *store.Store, id string, n int) {
	t.Helper()
	_, err := st.Pool().Exec(context.Background(), `
		INSERT INTO bundles (id, visibility, path_low, name, tagline, description, okf_version,
			concepts, concept_list, type, index_url, page_url, origin, via, source_url, host, repo,
			dir, path, ident, repo_stars, repo_forks, repo_pushed_at, repo_state, repo_language,
			repo_license, root_sha256, content_hash, indexed_at, updated_at, lang, search_extra, analysis)
		SELECT b.id || '-' || i, 'live', false, b.name, b.tagline, b.description, b.okf_version,
			b.concepts, b.concept_list, b.type, b.index_url, b.page_url, b.origin, b.via,
			b.source_url, b.host, b.repo, b.dir, b.path, b.ident, b.repo_stars, b.repo_forks,
			b.repo_pushed_at, b.repo_state, b.repo_language, b.repo_license,
			md5(b.root_sha256 || i) || md5(i || b.root_sha256), b.content_hash,
			b.indexed_at - i * interval '1 second', b.updated_at - i * interval '1 second',
			b.lang, b.search_extra, b.analysis
		FROM bundles AS b CROSS JOIN generate_series(1, $2::int) AS i
		WHERE b.id = $1`, id, n)
	if err != nil {
		t.Fatalf("storetest: clone %s: %v", id, err)
	}
}

// templateName names the template after the migrations it holds, so that a
// long-lived server (OKF_TEST_DATABASE_URL) never hands out a database of an
// older schema.
func templateName() (string, error) {
	ms, err := store.Migrations()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, m := range ms {
		fmt.Fprintf(h, "%s\n%s\n", m.Name, m.SQL)
	}
	return "okf_test_template_" + hex.EncodeToString(h.Sum(nil))[:12], nil
}

// makeTemplate creates and migrates the template database once per cluster;
// an advisory lock keeps concurrent test binaries from racing.
func makeTemplate(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock(4242)"); err != nil {
		return err
	}
	defer conn.Exec(ctx, "SELECT pg_advisory_unlock(4242)")
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", templateDB).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	building := templateDB + "_building"
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+building); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+building); err != nil {
		return err
	}
	if err := store.Migrate(ctx, withDatabase(adminURL, building)); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	_, err = conn.Exec(ctx, fmt.Sprintf("ALTER DATABASE %s RENAME TO %s", building, templateDB))
	return err
}

func exec(ctx context.Context, dbURL, sql string) error {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

// withDatabase returns dbURL with its database name replaced.
func withDatabase(dbURL, name string) string {
	u, err := url.Parse(dbURL)
	if err != nil {
		panic(err)
	}
	u.Path = "/" + name
	return u.String()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
