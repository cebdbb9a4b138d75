package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ownerFile names, inside an ephemeral cluster's directory, the process
// that owns the cluster; Reap removes clusters whose owner is gone.
const ownerFile = "owner.pid"

// ClaimOwnership records the calling process as the owner of the cluster,
// so that if it dies without removing the cluster (a panicking or killed
// test binary) a later Reap stops the server and deletes the directory.
func (c *Cluster) ClaimOwnership() error {
	return os.WriteFile(filepath.Join(c.Dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644)
}

// Reap stops and deletes every cluster directory matching pattern (a
// filepath.Glob pattern) whose recorded owner process no longer runs.
// Directories without an owner file are left alone. It returns how many
// clusters it removed.
func Reap(pattern string) (int, error) {
	dirs, err := filepath.Glob(pattern)
	if err != nil {
		return 0, err
	}
	var errs []error
	n := 0
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 || alive(pid) {
			continue
		}
		if err := reapDir(dir); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// alive reports whether a process with that pid exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// reapDir stops the server of the cluster in dir at once (its data is
// thrown away) and deletes dir.
func reapDir(dir string) error {
	bin, err := BinDir("")
	if err != nil {
		return err
	}
	c := &Cluster{Dir: dir, DataDir: filepath.Join(dir, "data"), SocketDir: filepath.Join(dir, "run"), bin: bin}
	if os.Geteuid() == 0 {
		if c.runAs, err = user.Lookup("postgres"); err != nil {
			return fmt.Errorf("pgcluster: reap %s: %w", dir, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if c.running(ctx) {
		if out, err := c.run(ctx, "pg_ctl", "stop", "-w", "-m", "immediate", "-D", c.DataDir); err != nil {
			return fmt.Errorf("pgcluster: reap %s: pg_ctl stop: %w: %s", dir, err, out)
		}
	}
	return os.RemoveAll(dir)
}
