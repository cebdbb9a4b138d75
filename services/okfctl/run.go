package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/identity"
	"github.com/okfindex/okf-index/pkg/pgcluster"
	"github.com/okfindex/okf-index/pkg/store"
)

// runCmd starts the whole service locally: the embedded Postgres cluster
// (unless DATABASE_URL names another), migrations, the demo bundles, the API
// and the worker. Ctrl-C stops everything it started.
func runCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	dataDir := fs.String("data", ".data", "`directory` of the embedded Postgres cluster")
	examples := fs.String("examples", "examples", "`directory` of demo bundles to import (\"\" for none)")
	binDir := fs.String("bin", "", "`directory` holding okf-api and okf-worker (default: beside okfctl)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	if *binDir == "" {
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		*binDir = filepath.Dir(exe)
	}

	dbURL, stopCluster, err := runDatabase(ctx, cfg.DatabaseURL, cfg.PGBin, *dataDir)
	if err != nil {
		return err
	}
	defer stopCluster()
	if err := store.Migrate(ctx, dbURL); err != nil {
		return err
	}
	if *examples != "" {
		st, err := store.Open(ctx, store.Config{URL: dbURL})
		if err != nil {
			return err
		}
		sum, err := importTree(ctx, st, *examples, os.Stdout, time.Now())
		st.Close()
		if err != nil {
			return err
		}
		fmt.Println(sum)
	}

	env, err := childEnv(cfg, dbURL, *dataDir)
	if err != nil {
		return err
	}
	// The two processes share a host, so each needs its own operator
	// listener: the API takes OPS_ADDR, the worker the next port.
	workerOps, err := nextPort(cfg.OpsAddr)
	if err != nil {
		return fmt.Errorf("OPS_ADDR: %w", err)
	}
	children := []*child{
		{name: "okf-api", path: filepath.Join(*binDir, "okf-api"), env: env, out: os.Stdout},
		{name: "okf-worker", path: filepath.Join(*binDir, "okf-worker"), env: append(slices.Clone(env), "OPS_ADDR="+workerOps), out: os.Stdout},
	}
	fmt.Printf("\nOKF Index is running: %s/  (the web page; Ctrl-C stops it)\n", cfg.PublicBaseURL)
	fmt.Printf("API: %s/api/\n", cfg.PublicBaseURL)
	fmt.Printf("import more bundles: %s\n", importHint(dbURL, filepath.Join(*binDir, "okfctl"), importDirHint(*examples)))
	fmt.Printf("operator listeners: API http://%s/metrics, worker http://%s/metrics\n\n", cfg.OpsAddr, workerOps)
	if err := supervise(ctx, os.Stderr, children, runBackoff); err != nil {
		return err
	}
	fmt.Println("\nstopped the API and the worker")
	return nil
}

// realCorpus is where the real corpus lies when ../shared is beside the
// checkout, as the tests expect it.
const realCorpus = "../shared/corpus/real"

// importDirHint is the directory the printed import line names: the real
// corpus when it is there, else the demo bundles.
func importDirHint(examples string) string {
	if _, err := os.Stat(filepath.Join(realCorpus, "MANIFEST.tsv")); err == nil {
		return realCorpus
	}
	return cmp.Or(examples, "examples")
}

// importHint is a command line that imports dir into the database of
// dbURL, to paste as it is into a shell in the working directory: the URL
// single-quoted, okfctl relative to the working directory when it is
// inside it. A password in the URL is not printed (the line says where it
// goes instead).
func importHint(dbURL, okfctl, dir string) string {
	if u, err := url.Parse(dbURL); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "PASSWORD")
			dbURL = u.String()
		}
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, okfctl); err == nil && !strings.HasPrefix(rel, "..") {
			okfctl = rel
			if !strings.Contains(rel, string(filepath.Separator)) {
				okfctl = "." + string(filepath.Separator) + rel
			}
		}
	}
	return "DATABASE_URL=" + shellQuote(dbURL) + " " + shellQuote(okfctl) + " import " + shellQuote(dir)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@%+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// nextPort is addr with its port plus one.
func nextPort(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", err
	}
	n, err := strconv.Atoi(port)
	if err != nil || n <= 0 || n >= 65535 {
		return "", fmt.Errorf("%q has no usable port", addr)
	}
	return net.JoinHostPort(host, strconv.Itoa(n+1)), nil
}

// runDatabase is the database of okfctl run: DATABASE_URL when set, else a
// private cluster in dataDir/pg, started unless it runs already. stop
// stops a cluster this call started, and does nothing otherwise.
func runDatabase(ctx context.Context, dbURL, pgBin, dataDir string) (url string, stop func(), err error) {
	stop = func() {}
	if dbURL != "" {
		return dbURL, stop, nil
	}
	c, err := pgcluster.Start(ctx, runCluster(dataDir, pgBin))
	if err != nil {
		return "", stop, err
	}
	if c.Started {
		stop = func() {
			if err := c.Stop(); err != nil {
				fmt.Fprintln(os.Stderr, "okfctl:", err)
			} else {
				fmt.Println("Postgres stopped")
			}
		}
	}
	if err := c.CreateDatabase(ctx, "okf", ""); err != nil {
		stop()
		return "", func() {}, err
	}
	fmt.Printf("Postgres: private cluster in %s\n", c.Dir)
	return c.URL("okf"), stop, nil
}

// childEnv is the environment of the API and the worker: this process's,
// with the database and, on a full variant without identity keys, the
// development key.
func childEnv(cfg config.Config, dbURL, dataDir string) ([]string, error) {
	env := append(os.Environ(), "DATABASE_URL="+dbURL)
	if cfg.Full() && !cfg.Auth.Configured() {
		// No identity keys configured: trust the development key, so that
		// okfctl session mint's sessions work (docs/api.md, "Accounts by hand").
		signer, jwks, err := identity.EnsureDevKey(filepath.Join(dataDir, devIdentityDir))
		if err != nil {
			return nil, fmt.Errorf("development identity key: %w", err)
		}
		abs, err := filepath.Abs(jwks)
		if err != nil {
			return nil, err
		}
		env = append(env, "AUTH_KEY_FILE="+abs, "AUTH_ALG="+signer.Alg())
		fmt.Printf("full variant: sessions are verified with the development key %s (okfctl session mint)\n", abs)
	}
	if cfg.DatabaseReadURL == cfg.DatabaseURL {
		// The embedded cluster runs on this machine's cores: the API's
		// read pools are sized to them (store.WithReadConns).
		env = append(env, "DATABASE_READ_URL="+store.WithReadConns(dbURL, runtime.NumCPU()))
	}
	return env, nil
}

// runCluster is the private cluster of okfctl run. pg_prewarm's autoprewarm
// reloads at each start what was in shared buffers before the stop, so a
// restarted service answers from a warm cache; pg_stat_statements gives
// each query shape's cost.
func runCluster(dataDir, pgBin string) pgcluster.Options {
	return pgcluster.Options{Dir: filepath.Join(dataDir, "pg"), BinDir: pgBin,
		Preload: []string{"pg_stat_statements", "pg_prewarm"}}
}
