package main

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// A local run is one person's whole service: a worker that crashes must not
// take the API and Postgres down with it. okfctl run therefore supervises its
// children: one that exits on its own is started again after a backoff, with
// a line in the output, and everything stops only when okfctl is told to.

// backoff is how long the supervisor waits before starting a crashed child
// again: base, doubling with each crash in a row, at most max. A child that
// ran for stable before it exited starts the count again.
type backoff struct {
	base, max, stable time.Duration
}

// runBackoff suits a person at a terminal: a quick first retry, and a crash
// loop (say, a port already taken) that prints a line every half minute
// rather than flooding the screen.
var runBackoff = backoff{base: time.Second, max: 30 * time.Second, stable: time.Minute}

// delay is the wait before the next start after n crashes in a row.
func (b backoff) delay(n int) time.Duration {
	d := b.base
	for range n {
		if d >= b.max/2 {
			return b.max
		}
		d *= 2
	}
	return min(d, b.max)
}

// child is one supervised service process.
type child struct {
	name string // shown in the output
	path string
	env  []string
	out  io.Writer // where the process's own output goes

	mu      sync.Mutex
	cmd     *exec.Cmd
	started time.Time
	done    chan struct{} // closed when the current process has exited
	exitErr error         // why it exited, once done is closed
}

// start starts the process anew.
func (c *child) start() error {
	cmd := exec.Command(c.path)
	cmd.Env, cmd.Stdout, cmd.Stderr = c.env, c.out, c.out
	// Own process group: Ctrl-C reaches okfctl, which stops the children in
	// order, instead of reaching all of them at once.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s (run make build first): %w", c.path, err)
	}
	done := make(chan struct{})
	c.mu.Lock()
	c.cmd, c.started, c.done = cmd, time.Now(), done
	c.mu.Unlock()
	go func() {
		err := cmd.Wait()
		c.mu.Lock()
		c.exitErr = err
		c.mu.Unlock()
		close(done)
	}()
	return nil
}

// current is the running (or last) process and its exit channel.
func (c *child) current() (*exec.Cmd, chan struct{}, time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cmd, c.done, c.started
}

// supervise starts every child, keeps each running until ctx ends, then
// stops them all. It fails only when a child cannot be started at first
// (a missing binary), after stopping those already started.
func supervise(ctx context.Context, log io.Writer, children []*child, b backoff) error {
	for i, c := range children {
		if err := c.start(); err != nil {
			stopAll(children[:i])
			return err
		}
	}
	var wg sync.WaitGroup
	for _, c := range children {
		wg.Go(func() { c.keepAlive(ctx, log, b) })
	}
	<-ctx.Done()
	wg.Wait() // no restart can begin after this
	stopAll(children)
	return nil
}

// keepAlive starts the child again each time it exits, until ctx ends.
func (c *child) keepAlive(ctx context.Context, log io.Writer, b backoff) {
	crashes := 0
	for {
		_, done, started := c.current()
		select {
		case <-ctx.Done():
			return
		case <-done:
		}
		if time.Since(started) >= b.stable {
			crashes = 0
		}
		c.mu.Lock()
		why := c.exitErr
		c.mu.Unlock()
		if why == nil {
			why = fmt.Errorf("exit status 0")
		}
		for {
			wait := b.delay(crashes)
			crashes++
			fmt.Fprintf(log, "okfctl: %s exited (%v); restarting in %s\n", c.name, why, wait)
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			if why = c.start(); why == nil {
				cmd, _, _ := c.current()
				fmt.Fprintf(log, "okfctl: %s restarted (pid %d)\n", c.name, cmd.Process.Pid)
				break
			}
		}
	}
}

// stopAll sends SIGTERM to every child and waits for it to exit, killing any
// that outlives the grace period.
func stopAll(children []*child) {
	for _, c := range children {
		cmd, _, _ := c.current()
		_ = cmd.Process.Signal(syscall.SIGTERM)
	}
	deadline := time.Now().Add(45 * time.Second)
	for _, c := range children {
		cmd, done, _ := c.current()
		select {
		case <-done:
		case <-time.After(time.Until(deadline)):
			_ = cmd.Process.Kill()
			<-done
		}
	}
}
