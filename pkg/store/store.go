package store

// Store is the service's database. It is safe for concurrent use.
//
// Methods (implemented in the file named by the resource):
//
//	Open(ctx, Config) (*Store, error)                     store.go
//	(*Store).Close()                                       store.go
//	(*Store).Pool() *pgxpool.Pool                          store.go  (the write pool, for River)
//	Migrate(ctx, databaseURL) error                        migrate.go (our SQL, then River's via rivermigrate; idempotent)
//	(*Store).UpsertBundle(ctx, BundleInput) (UpsertResult, error)                 bundles.go
//	(*Store).HideRepoBundlesExcept(ctx, repo string, keepIDs []string) (int, error) bundles.go
//	(*Store).DeleteBundle(ctx, id string) error                                    bundles.go
//	(*Store).GetBundle(ctx, id string) (Bundle, error)     bundles.go (live and low; else ErrNotFound)
//	(*Store).Search(ctx, SearchParams) ([]Bundle, error)   search.go (live only; at most Limit items)
//	(*Store).Stats(ctx) (IndexStats, error)                stats.go  (reads the kept summary; no bundle scan)
//	(*Store).RecountStats(ctx) error                       stats.go  (rebuilds the summary from bundles)
//
// Config:
//
//	type Config struct {
//	    URL     string // DATABASE_URL: writes, and reads when ReadURL is empty
//	    ReadURL string // DATABASE_READ_URL: search, cards and stats
//	}
