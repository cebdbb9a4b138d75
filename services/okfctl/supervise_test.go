package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/logging/logtest"
)

func TestBackoffDelay(t *testing.T) {
	b := backoff{base: time.Second, max: 30 * time.Second}
	want := []time.Duration{1, 2, 4, 8, 16, 30, 30, 30}
	for n, w := range want {
		if got := b.delay(n); got != w*time.Second {
			t.Errorf("delay(%d) = %s, want %s", n, got, w*time.Second)
		}
	}
	if got := b.delay(1000); got != 30*time.Second {
		t.Errorf("delay(1000) = %s, want the cap", got)
	}
}

// sleeper is a child that sleeps until it is stopped: a real process that
// the test can kill as a crash would. The child type starts its path
// without arguments, as the services are, so the sleep is a script.
func sleeper(t *testing.T, name string) *child {
	t.Helper()
	script := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexec sleep 300\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return &child{name: name, path: script, out: io.Discard}
}

// The test kills the worker with SIGKILL and watches the supervisor start it again while the other
// keeps running; cancelling stops both.
func TestSuperviseRestartsACrashedChild(t *testing.T) {
	api, worker := sleeper(t, "okf-api"), sleeper(t, "okf-worker")

	ctx, cancel := context.WithCancel(context.Background())
	log := &logtest.Buffer{}
	result := make(chan error, 1)
	go func() {
		result <- supervise(ctx, log, []*child{api, worker}, backoff{base: 20 * time.Millisecond, max: 100 * time.Millisecond, stable: time.Minute})
	}()

	apiPid := waitPid(t, api, 0)
	firstPid := waitPid(t, worker, 0)
	if err := syscall.Kill(firstPid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	secondPid := waitPid(t, worker, firstPid)
	if got := waitPid(t, api, 0); got != apiPid {
		t.Errorf("the API was restarted too (pid %d, then %d)", apiPid, got)
	}
	if err := syscall.Kill(apiPid, 0); err != nil {
		t.Errorf("the API stopped when the worker crashed: %v", err)
	}
	if !strings.Contains(log.String(), "okf-worker exited (signal: killed); restarting in 20ms") {
		t.Errorf("no restart line in the output:\n%s", log.String())
	}

	// A second crash in a row waits twice as long.
	if err := syscall.Kill(secondPid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitPid(t, worker, secondPid)
	if !strings.Contains(log.String(), "restarting in 40ms") {
		t.Errorf("the second crash did not back off:\n%s", log.String())
	}

	cancel()
	select {
	case err := <-result:
		if err != nil {
			t.Fatalf("supervise: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("supervise did not return after cancel")
	}
	for _, c := range []*child{api, worker} {
		_, done, _ := c.current()
		select {
		case <-done:
		default:
			t.Errorf("%s still runs after the stop", c.name)
		}
	}
}

func TestSuperviseFailsWhenABinaryIsMissing(t *testing.T) {
	api := sleeper(t, "okf-api")
	missing := &child{name: "okf-worker", path: t.TempDir() + "/okf-worker", out: io.Discard}
	err := supervise(context.Background(), io.Discard, []*child{api, missing}, runBackoff)
	if err == nil || !strings.Contains(err.Error(), "run make build first") {
		t.Fatalf("supervise = %v, want the start error", err)
	}
	_, done, _ := api.current()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the API started before the failure was left running")
	}
}

// waitPid waits until c runs a process other than not, and returns its pid.
func waitPid(t *testing.T, c *child, not int) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if cmd, done, _ := c.current(); cmd != nil && cmd.Process.Pid != not {
			select {
			case <-done:
			default:
				return cmd.Process.Pid
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%s: no new process within 10 s", c.name)
	return 0
}
