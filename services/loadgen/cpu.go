package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// cpuTicks are what /proc says of CPU time, in clock ticks (USER_HZ, 100 a
// second on Linux): a process's user plus system time, and the machine's
// busy and total time over all cores. The report uses them to show who
// had the cores during the run: the API, Postgres, the harness itself, and
// rest (whatever else shares the machine).
type cpuTicks struct {
	api, self, postgres, busy, total int64
}

const userHZ = 100

// readCPU reads the ticks of the API process, of the harness, of the
// Postgres servers whose postmasters are pgPids (0: none; a primary and
// its standby) and their backends, and the machine's.
func readCPU(apiPid int, pgPids ...int) (cpuTicks, error) {
	var t cpuTicks
	var err error
	for _, pid := range pgPids {
		if pid > 0 {
			t.postgres += treeTicks(pid)
		}
	}
	if t.api, err = processTicks(strconv.Itoa(apiPid)); err != nil {
		return t, err
	}
	if t.self, err = processTicks("self"); err != nil {
		return t, err
	}
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return t, err
	}
	t.busy, t.total, err = parseMachineTicks(string(b))
	return t, err
}

// treeTicks sums the ticks of pid and of its children, running or exited
// and reaped (a postmaster and its backends: a client that cancels a query
// closes its connection, so backends come and go under load).
func treeTicks(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	total, _ := parseProcessTicks(string(b))
	reaped, _ := parseReapedTicks(string(b))
	total += reaped
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		if ppid, err := parseParent(string(b)); err == nil && ppid == pid {
			if n, err := parseProcessTicks(string(b)); err == nil {
				total += n
			}
		}
	}
	return total
}

// parseParent reads the parent pid (field 4) of a /proc/<pid>/stat line.
func parseParent(stat string) (int, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errors.New("stat: no command name")
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 2 {
		return 0, errors.New("stat: too few fields")
	}
	return strconv.Atoi(f[1])
}

func processTicks(pid string) (int64, error) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, err
	}
	return parseProcessTicks(string(b))
}

// parseProcessTicks reads utime + stime (fields 14 and 15) of a
// /proc/<pid>/stat line; the command name, in parentheses, may hold spaces.
func parseProcessTicks(stat string) (int64, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errors.New("stat: no command name")
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 13 {
		return 0, errors.New("stat: too few fields")
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, fmt.Errorf("stat: %w", err)
	}
	return u + s, nil
}

// parseReapedTicks reads cutime + cstime (fields 16 and 17) of a
// /proc/<pid>/stat line: the ticks of its children that exited and were
// waited for.
func parseReapedTicks(stat string) (int64, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errors.New("stat: no command name")
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 15 {
		return 0, errors.New("stat: too few fields")
	}
	u, err1 := strconv.ParseInt(f[13], 10, 64)
	s, err2 := strconv.ParseInt(f[14], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, fmt.Errorf("stat: %w", err)
	}
	return u + s, nil
}

// parseMachineTicks reads the "cpu" line of /proc/stat: busy is every
// field but idle and iowait.
func parseMachineTicks(stat string) (busy, total int64, err error) {
	line, _, _ := strings.Cut(stat, "\n")
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return 0, 0, errors.New("/proc/stat: no cpu line")
	}
	for i, v := range f[1:min(len(f), 9)] { // user nice system idle iowait irq softirq steal
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc/stat: %w", err)
		}
		total += n
		if i != 3 && i != 4 {
			busy += n
		}
	}
	return busy, total, nil
}

// cpuLine says how the cores were spent between a and b, d apart.
func cpuLine(a, b cpuTicks, d time.Duration) string {
	cores := func(ticks int64) float64 { return float64(ticks) / userHZ / d.Seconds() }
	n := float64(runtime.NumCPU())
	busy := 0.0
	if b.total > a.total {
		busy = float64(b.busy-a.busy) / float64(b.total-a.total) * n
	}
	api, self, pg := cores(b.api-a.api), cores(b.self-a.self), cores(b.postgres-a.postgres)
	return fmt.Sprintf("CPU during the run, in cores of %.0f: machine %.2f busy; API %.2f, Postgres %.2f, harness %.2f, other processes %.2f",
		n, busy, api, pg, self, max(busy-api-self-pg, 0))
}

// loadAverage is the first field of /proc/loadavg: runnable tasks over the
// last minute. Above the core count, the run shared the machine.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}
