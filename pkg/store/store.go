package store

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Config names the databases of a Store.
type Config struct {
	URL     string // DATABASE_URL: writes, and reads when ReadURL is empty
	ReadURL string // DATABASE_READ_URL: search, cards and stats
}

// Store is the service's database. It is safe for concurrent use.
type Store struct {
	write *pgxpool.Pool
	read  *pgxpool.Pool
}

var errTODO = errors.New("store: not implemented yet")

// Open connects to the configured databases.
func Open(ctx context.Context, cfg Config) (*Store, error) { return nil, errTODO }

// Close releases the connections.
func (s *Store) Close() {}

// Pool is the write pool, for River.
func (s *Store) Pool() *pgxpool.Pool { return s.write }

// Migrate applies our SQL migrations, then River's (rivermigrate); idempotent.
func Migrate(ctx context.Context, databaseURL string) error { return errTODO }

// UpsertBundle writes one parsed bundle.
func (s *Store) UpsertBundle(ctx context.Context, in BundleInput) (UpsertResult, error) {
	return UpsertResult{}, errTODO
}

// HideRepoBundlesExcept hides the bundles of repo (lowercase owner/repo) whose
// ids are not in keepIDs, and returns how many it hid.
func (s *Store) HideRepoBundlesExcept(ctx context.Context, repo string, keepIDs []string) (int, error) {
	return 0, errTODO
}

// DeleteBundle removes a bundle.
func (s *Store) DeleteBundle(ctx context.Context, id string) error { return errTODO }

// GetBundle returns a live or low bundle; ErrNotFound otherwise.
func (s *Store) GetBundle(ctx context.Context, id string) (Bundle, error) { return Bundle{}, errTODO }

// Search returns live bundles matching p, at most p.Limit.
func (s *Store) Search(ctx context.Context, p SearchParams) ([]Bundle, error) { return nil, errTODO }

// Stats reads the kept statistics summary.
func (s *Store) Stats(ctx context.Context) (IndexStats, error) { return IndexStats{}, errTODO }

// RecountStats rebuilds the statistics summary from the bundles table.
func (s *Store) RecountStats(ctx context.Context) error { return errTODO }
