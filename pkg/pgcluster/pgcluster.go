// Package pgcluster starts and stops a private PostgreSQL cluster from the
// system's PostgreSQL server binaries: the embedded default of `make run`
// (persistent, under .data/) and the ephemeral cluster of a test run
// (socket-only, fsync off). It never touches a system-wide cluster.
//
// PostgreSQL refuses to run as root; when the caller is root the cluster runs
// as the "postgres" OS user, in a directory that user owns and can reach.
package pgcluster

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Options configure a cluster.
type Options struct {
	// Dir holds the cluster (data and socket). It is created when missing.
	// When the server's OS user cannot reach it (root's 0700 home, say), a
	// fresh directory in the system temp dir is used instead, and Dir reports
	// which one.
	Dir string
	// Ephemeral turns durability off (fsync, full page writes) for tests.
	Ephemeral bool
	// Port names the socket file (.s.PGSQL.<port>); the cluster listens on a
	// Unix socket only. 0 means 5432.
	Port int
	// BinDir is the directory of initdb and pg_ctl; "" means BinDir("").
	// A binary passes PG_BIN as pkg/config read it (okfctl run); the test
	// harnesses leave it empty.
	BinDir string
	// Preload names libraries for shared_preload_libraries (pg_stat_statements,
	// pg_prewarm): those installed beside the binaries are loaded, the
	// others left out, so a machine without postgresql-contrib still starts.
	Preload []string
}

// Cluster is a running private cluster.
type Cluster struct {
	Dir       string // the cluster directory actually used
	DataDir   string
	SocketDir string
	Port      int
	// Started is true when Start launched the server, false when it found
	// one already running in Dir (which the caller should then leave running).
	Started bool
	runAs   *user.User // nil when the server runs as the caller
	bin     string
}

// ErrNoPostgres means no PostgreSQL server binaries were found.
var ErrNoPostgres = errors.New("pgcluster: PostgreSQL server binaries not found (install postgresql-15, or set PG_BIN to the directory holding initdb and pg_ctl)")

// BinDir finds the directory of initdb and pg_ctl: dir when given, then
// $PG_BIN, then the newest /usr/lib/postgresql/*/bin, then pg_config
// --bindir. Reading PG_BIN here serves the test harnesses (storetest, the
// readiness tests of pkg/ops), which start clusters without a BinDir and
// read no configuration; binaries read PG_BIN through pkg/config.
func BinDir(dir string) (string, error) {
	if d := cmp.Or(dir, os.Getenv("PG_BIN")); d != "" {
		if isExec(filepath.Join(d, "initdb")) {
			return d, nil
		}
		return "", fmt.Errorf("pgcluster: PG_BIN=%s has no initdb", d)
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
	for _, d := range dirs {
		if isExec(filepath.Join(d, "initdb")) {
			return d, nil
		}
	}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		d := strings.TrimSpace(string(out))
		if isExec(filepath.Join(d, "initdb")) {
			return d, nil
		}
	}
	return "", ErrNoPostgres
}

func versionOf(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode()&0o111 != 0
}

// Start initialises the cluster when its data directory is new and starts the
// server; a cluster already running in Dir is reused.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	c, err := newCluster(opts)
	if err != nil {
		return nil, err
	}
	if err := c.initdb(ctx); err != nil {
		return nil, err
	}
	return c.start(ctx, opts)
}

// newCluster is the Cluster of opts in its directory (made and handed to
// the server's user), not yet initialised or started.
func newCluster(opts Options) (*Cluster, error) {
	bin, err := BinDir(opts.BinDir)
	if err != nil {
		return nil, err
	}
	c := &Cluster{Port: opts.Port, bin: bin}
	if c.Port == 0 {
		c.Port = 5432
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("pgcluster: running as root needs the postgres OS user (installed with postgresql): %w", err)
		}
		c.runAs = u
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("pgcluster: %w", err)
	}
	if err := c.prepareDir(dir); err != nil {
		if c.runAs == nil {
			return nil, err
		}
		// The server's user cannot reach dir: use a fresh one it can.
		tmp, terr := os.MkdirTemp("", "okf-pg-")
		if terr != nil {
			return nil, fmt.Errorf("pgcluster: %v; and no temp dir: %w", err, terr)
		}
		if err := c.prepareDir(tmp); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// start starts the server of an initialised data directory, unless one
// runs there already.
func (c *Cluster) start(ctx context.Context, opts Options) (*Cluster, error) {
	if c.running(ctx) {
		return c, nil
	}
	conf := []string{
		"-c", "listen_addresses=",
		"-c", "unix_socket_directories=" + c.SocketDir,
		"-c", "port=" + strconv.Itoa(c.Port),
		"-c", "max_connections=200",
		"-c", "shared_buffers=256MB",
		"-c", "work_mem=16MB",
		"-c", "maintenance_work_mem=256MB",
	}
	var preload []string
	for _, lib := range opts.Preload {
		if _, err := os.Stat(filepath.Join(filepath.Dir(c.bin), "lib", lib+".so")); err == nil {
			preload = append(preload, lib)
		}
	}
	if len(preload) > 0 {
		conf = append(conf, "-c", "shared_preload_libraries="+strings.Join(preload, ","))
	}
	if opts.Ephemeral {
		conf = append(conf, "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "synchronous_commit=off")
	}
	args := []string{"start", "-w", "-t", "60", "-D", c.DataDir, "-l", filepath.Join(c.Dir, "postgres.log"), "-o", strings.Join(quoteAll(conf), " ")}
	if out, err := c.run(ctx, "pg_ctl", args...); err != nil {
		logTail, _ := os.ReadFile(filepath.Join(c.Dir, "postgres.log"))
		return nil, fmt.Errorf("pgcluster: pg_ctl start: %w: %s\n%s", err, out, tail(logTail, 2000))
	}
	c.Started = true
	return c, nil
}

func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if strings.HasPrefix(a, "-") {
			out[i] = a
		} else {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return out
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// prepareDir creates dir with data and socket subdirectories owned by the
// server's user, and checks that user can reach them.
func (c *Cluster) prepareDir(dir string) error {
	c.Dir = dir
	c.DataDir = filepath.Join(dir, "data")
	c.SocketDir = filepath.Join(dir, "run")
	// A Unix socket path is limited to ~107 bytes.
	if len(c.SocketDir)+len("/.s.PGSQL.")+6 > 100 {
		return fmt.Errorf("pgcluster: socket path %s is too long", c.SocketDir)
	}
	// Parents must be traversable by the server's user; the cluster
	// directory itself is private to it.
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	for _, d := range []string{dir, c.SocketDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("pgcluster: %w", err)
		}
	}
	if c.runAs == nil {
		return nil
	}
	uid, _ := strconv.Atoi(c.runAs.Uid)
	gid, _ := strconv.Atoi(c.runAs.Gid)
	for _, d := range []string{dir, c.SocketDir} {
		if err := os.Chown(d, uid, gid); err != nil {
			return fmt.Errorf("pgcluster: chown %s: %w", d, err)
		}
	}
	if st, err := os.Stat(c.DataDir); err == nil && st.IsDir() {
		if err := os.Chown(c.DataDir, uid, gid); err != nil {
			return fmt.Errorf("pgcluster: chown %s: %w", c.DataDir, err)
		}
	}
	// Every ancestor must be traversable by the server's user.
	if out, err := exec.Command("runuser", "-u", c.runAs.Username, "--", "test", "-w", c.SocketDir).CombinedOutput(); err != nil {
		return fmt.Errorf("pgcluster: user %s cannot reach %s: %v %s", c.runAs.Username, dir, err, out)
	}
	return nil
}

func (c *Cluster) initdb(ctx context.Context) error {
	if _, err := os.Stat(filepath.Join(c.DataDir, "PG_VERSION")); err == nil {
		return nil
	}
	out, err := c.run(ctx, "initdb", "-D", c.DataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
	if err != nil {
		return fmt.Errorf("pgcluster: initdb: %w: %s", err, out)
	}
	return nil
}

func (c *Cluster) running(ctx context.Context) bool {
	_, err := c.run(ctx, "pg_ctl", "status", "-D", c.DataDir)
	return err == nil
}

// run executes a server binary as the server's OS user.
func (c *Cluster) run(ctx context.Context, name string, args ...string) ([]byte, error) {
	prog := filepath.Join(c.bin, name)
	var cmd *exec.Cmd
	if c.runAs != nil {
		cmd = exec.CommandContext(ctx, "runuser", append([]string{"-u", c.runAs.Username, "--", prog}, args...)...)
	} else {
		cmd = exec.CommandContext(ctx, prog, args...)
	}
	cmd.Dir = c.Dir
	// The server must outlive a Ctrl-C sent to the caller's process group
	// only when the caller chooses to keep it; Stop ends it either way.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	return buf.Bytes(), err
}

// URL is a libpq/pgx connection URL for database db over the cluster's socket.
func (c *Cluster) URL(db string) string {
	q := url.Values{}
	q.Set("host", c.SocketDir)
	q.Set("port", strconv.Itoa(c.Port))
	q.Set("user", "postgres")
	q.Set("sslmode", "disable")
	return "postgres:///" + url.PathEscape(db) + "?" + q.Encode()
}

// CreateDatabase creates database name (optionally from template) when it
// does not exist yet.
func (c *Cluster) CreateDatabase(ctx context.Context, name, template string) error {
	args := []string{"-h", c.SocketDir, "-p", strconv.Itoa(c.Port), "-U", "postgres"}
	if template != "" {
		args = append(args, "-T", template)
	}
	out, err := c.run(ctx, "createdb", append(args, name)...)
	if err != nil && !bytes.Contains(out, []byte("already exists")) {
		return fmt.Errorf("pgcluster: createdb %s: %w: %s", name, err, out)
	}
	return nil
}

// Stop shuts the server down (fast mode) and waits for it.
func (c *Cluster) Stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if out, err := c.run(ctx, "pg_ctl", "stop", "-w", "-m", "fast", "-D", c.DataDir); err != nil {
		return fmt.Errorf("pgcluster: pg_ctl stop: %w: %s", err, out)
	}
	return nil
}

// Remove stops the server and deletes the cluster directory.
func (c *Cluster) Remove() error {
	err := c.Stop()
	if rerr := os.RemoveAll(c.Dir); rerr != nil && err == nil {
		err = rerr
	}
	return err
}
