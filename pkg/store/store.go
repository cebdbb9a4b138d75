package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Config names the databases of a Store.
type Config struct {
	URL     string // DATABASE_URL: writes, and reads when ReadURL is empty
	ReadURL string // DATABASE_READ_URL: search, cards and stats

	// ReadTimeout bounds every statement of the read pool; 0 means
	// DefaultReadTimeout. It is rounded up to whole milliseconds.
	ReadTimeout time.Duration

	// Now, when set, is the clock of indexed_at and updated_at (tests). By
	// default the database's clock is used, the same for every replica.
	Now func() time.Time
}

// Store is the service's database. It is safe for concurrent use.
type Store struct {
	write *pgxpool.Pool
	read  *pgxpool.Pool
	// fresh is one connection to the read database for BundlesWritten:
	// the API's cached answers wait on it, so it must not queue behind
	// the read pool's slow searches.
	fresh *pgxpool.Pool
	// lookup is the read database for statements whose best plan is the
	// same whatever their values (a card by its id): its sessions keep a
	// statement's generic plan instead of planning each call (lookupParams).
	lookup *pgxpool.Pool
	now    func() time.Time
	// shares are the shares of bundles holding the search vector's
	// commonest lexemes, and the lexemes of the query words met
	// (termweight.go).
	shares termShares
	// folded are the values of the text query functions' calls met
	// (termfold.go).
	folded foldedCalls
	// unfolded leaves q's text query calls in the statements (tests that
	// compare the two ways).
	unfolded bool
	// pendingFlushed is when this Store last flushed the text indexes'
	// pending lists, in Unix nanoseconds (pendinglist.go).
	pendingFlushed atomic.Int64
	// upkeep holds the work this Store runs in the background (the
	// flushes of the pending lists) still running, which Close waits for;
	// closing, under upkeepMu, stops more from starting.
	upkeep   sync.WaitGroup
	upkeepMu sync.Mutex
	closing  bool
	// sampleBucketsMax, when not 0, replaces maxSampleBuckets: tests of a
	// few thousand bundles reach the sampled facets with it.
	sampleBucketsMax int
}

// readParams are the session settings of a read pool whose statements stop
// after timeout. Search plans depend
// on the values of their parameters (a rare term reads the GIN index, a
// common one walks a sort index), so plans are never cached generically; JIT
// costs more than it saves on queries bounded to a few milliseconds; the
// index is meant to be served from memory or SSD, where a random page costs
// about what a sequential one does (random_page_cost 1.1), which favours
// walking the sort indexes over their recent, hot end; the pool never
// writes; and a statement that runs away (a query whose words exclude each
// other, say "the -the", must check every bundle holding "the") is stopped.
func readParams(timeout time.Duration) map[string]string {
	ms := (timeout + time.Millisecond - 1) / time.Millisecond // 0 would mean no timeout
	return map[string]string{
		"plan_cache_mode":               "force_custom_plan",
		"jit":                           "off",
		"default_transaction_read_only": "on",
		"statement_timeout":             strconv.FormatInt(int64(ms), 10),
		"random_page_cost":              "1.1",
	}
}

// lookupParams are the settings of the read pools whose statements have
// one best plan, whatever their values (a card by its primary key, the
// freshness check): a prepared statement keeps its generic plan. Planning
// a card's lookup each call cost about as much as running it, and every
// card a cache did not answer paid it.
func lookupParams(timeout time.Duration) map[string]string {
	p := readParams(timeout)
	p["plan_cache_mode"] = "force_generic_plan"
	return p
}

// WithReadConns is the database URL dbURL with its pools sized to conns
// connections (pgx's pool_max_conns), unless it says a size already or is
// not a URL (a keyword/value string is returned as it is). For a read URL
// whose Postgres runs on the API's own machine (okfctl run, the load
// harness): the reads are CPU-bound, and more of them at once than the
// cores only make every other statement (a card, the caches' freshness
// check) wait for a core too.
func WithReadConns(dbURL string, conns int) string {
	u, err := url.Parse(dbURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return dbURL
	}
	q := u.Query()
	if q.Has("pool_max_conns") {
		return dbURL
	}
	q.Set("pool_max_conns", strconv.Itoa(max(1, conns)))
	u.RawQuery = q.Encode()
	return u.String()
}

// DefaultReadTimeout bounds every statement of the read pool (searches,
// cards, statistics) unless Config.ReadTimeout says otherwise. A search
// stopped by it returns ErrSearchTimeout.
const DefaultReadTimeout = 5 * time.Second

// Open connects to the configured databases.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.URL == "" {
		return nil, errors.New("store: open: no database URL")
	}
	wcfg, err := pgxpool.ParseConfig(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("store: open: %w", err)
	}
	readURL := cfg.ReadURL
	if readURL == "" {
		readURL = cfg.URL
	}
	rcfg, err := pgxpool.ParseConfig(readURL)
	if err != nil {
		return nil, fmt.Errorf("store: open read pool: %w", err)
	}
	timeout := cfg.ReadTimeout
	if timeout <= 0 {
		timeout = DefaultReadTimeout
	}
	lcfg := rcfg.Copy()
	maps.Copy(rcfg.ConnConfig.RuntimeParams, readParams(timeout))
	maps.Copy(lcfg.ConnConfig.RuntimeParams, lookupParams(timeout))
	fcfg := lcfg.Copy()
	fcfg.MaxConns, fcfg.MinConns = 1, 0
	var pools []*pgxpool.Pool
	closeAll := func() {
		for _, p := range pools {
			p.Close()
		}
	}
	for _, c := range []struct {
		cfg  *pgxpool.Config
		what string
	}{{wcfg, "open"}, {rcfg, "open read pool"}, {fcfg, "open freshness pool"}, {lcfg, "open lookup pool"}} {
		p, err := pgxpool.NewWithConfig(ctx, c.cfg)
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("store: %s: %w", c.what, err)
		}
		pools = append(pools, p)
	}
	if err := pools[0].Ping(ctx); err != nil {
		closeAll()
		return nil, fmt.Errorf("store: open: %w", err)
	}
	s := &Store{write: pools[0], read: pools[1], fresh: pools[2], lookup: pools[3], now: cfg.Now}
	// The live bundles' shares, sampled now, so that the first searches
	// need not wait for them nor plan by the statistics of every row
	// (termweight.go).
	s.shares.reading = true
	s.inBackground(s.keepSample)
	return s, nil
}

// Close waits for the work the Store runs in the background (inBackground),
// then releases the connections.
func (s *Store) Close() {
	s.upkeepMu.Lock()
	s.closing = true
	s.upkeepMu.Unlock()
	s.upkeep.Wait()
	s.lookup.Close()
	s.fresh.Close()
	s.read.Close()
	s.write.Close()
}

// inBackground runs f on a goroutine of its own that Close waits for;
// once Close has begun, f is not run.
func (s *Store) inBackground(f func()) {
	s.upkeepMu.Lock()
	defer s.upkeepMu.Unlock()
	if s.closing {
		return
	}
	s.upkeep.Go(f)
}

// Pool is the write pool, for River.
func (s *Store) Pool() *pgxpool.Pool { return s.write }

// clock is the timestamp writers pass for "now": the configured clock, or
// nil so that SQL falls back to the database's now().
func (s *Store) clock() *time.Time {
	if s.now == nil {
		return nil
	}
	t := s.now().UTC()
	return &t
}

// maxTxAttempts bounds the retries of a transaction that lost a deadlock or
// serialization race.
const maxTxAttempts = 5

// inTx runs fn in a read-committed write transaction, retried when Postgres
// aborts it to break a deadlock or a serialization conflict.
func (s *Store) inTx(ctx context.Context, fn func(pgx.Tx) error) error {
	var err error
	for attempt := 1; attempt <= maxTxAttempts; attempt++ {
		err = pgx.BeginFunc(ctx, s.write, fn)
		if !retryable(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(attempt*attempt) * 5 * time.Millisecond):
		}
	}
	return err
}

// retryable reports whether err is a deadlock or a serialization failure.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}
