package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
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

	dbURL := cfg.DatabaseURL
	if dbURL == "" {
		c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: filepath.Join(*dataDir, "pg"), BinDir: cfg.PGBin})
		if err != nil {
			return err
		}
		if c.Started {
			defer func() {
				if err := c.Stop(); err != nil {
					fmt.Fprintln(os.Stderr, "okfctl:", err)
				} else {
					fmt.Println("Postgres stopped")
				}
			}()
		}
		if err := c.CreateDatabase(ctx, "okf", ""); err != nil {
			return err
		}
		dbURL = c.URL("okf")
		fmt.Printf("Postgres: private cluster in %s\n", c.Dir)
	}
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

	env := append(os.Environ(), "DATABASE_URL="+dbURL)
	if cfg.DatabaseReadURL == cfg.DatabaseURL {
		env = append(env, "DATABASE_READ_URL="+dbURL)
	}
	var children []*child
	exited := make(chan error, 2)
	// The two processes share a host, so each needs its own operator
	// listener: the API takes OPS_ADDR, the worker the next port.
	workerOps, err := nextPort(cfg.OpsAddr)
	if err != nil {
		return fmt.Errorf("OPS_ADDR: %w", err)
	}
	for _, name := range []string{"okf-api", "okf-worker"} {
		childEnv := env
		if name == "okf-worker" {
			childEnv = append(slices.Clone(env), "OPS_ADDR="+workerOps)
		}
		c, err := startChild(filepath.Join(*binDir, name), childEnv, exited)
		if err != nil {
			stopAll(children)
			return err
		}
		children = append(children, c)
	}
	fmt.Printf("\nOKF Index is running: %s/api/  (Ctrl-C stops it)\n", cfg.PublicBaseURL)
	fmt.Printf("operator listeners: API http://%s/metrics, worker http://%s/metrics\n\n", cfg.OpsAddr, workerOps)

	select {
	case <-ctx.Done():
		fmt.Println("\nstopping...")
		stopAll(children)
		return nil
	case err := <-exited:
		stopAll(children)
		return err
	}
}

// child is a service process started by run.
type child struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
}

func startChild(path string, env []string, exited chan<- error) (*child, error) {
	cmd := exec.Command(path)
	cmd.Env, cmd.Stdout, cmd.Stderr = env, os.Stdout, os.Stderr
	// Own process group: Ctrl-C reaches okfctl, which stops the children in
	// order, instead of reaching all of them at once.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s (run make build first): %w", path, err)
	}
	c := &child{cmd: cmd, done: make(chan struct{})}
	go func() {
		err := cmd.Wait()
		close(c.done)
		select {
		case exited <- fmt.Errorf("%s exited: %v", filepath.Base(path), err):
		default:
		}
	}()
	return c, nil
}

// stopAll sends SIGTERM to every child and waits for it to exit, killing any
// that outlives the grace period.
func stopAll(children []*child) {
	for _, c := range children {
		_ = c.cmd.Process.Signal(syscall.SIGTERM)
	}
	deadline := time.Now().Add(45 * time.Second)
	for _, c := range children {
		select {
		case <-c.done:
		case <-time.After(time.Until(deadline)):
			_ = c.cmd.Process.Kill()
			<-c.done
		}
	}
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
