package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/okfindex/okf-index/services/okfctl/smoke"
)

// smokeCmd runs the smoke suite against a deployment: a line per check,
// then a summary. Exit code 1 when any check fails.
func smokeCmd(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("smoke", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pingHost := fs.String("ping-host", "", "also submit a real ping: the `host` serving the key file")
	pingKey := fs.String("ping-key", "", "the IndexNow `key` of --ping-host")
	pingURL := fs.String("ping-url", "", "the bundle root `URL` on --ping-host to submit")
	timeout := fs.Duration("timeout", 20*time.Second, "timeout of each request")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: okfctl smoke [flags] BASE_URL\n\nCalls every public route of the deployment at BASE_URL (its public base URL) and checks each\nanswer against the contract. All requests are marked as test traffic, so nothing is counted.\nA ping is only validated unless --ping-host, --ping-key and --ping-url ask for a real one.\nExit code 1 when any check fails.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 0, err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 0, errUsage
	}
	opts := smoke.Options{BaseURL: fs.Arg(0), Client: &http.Client{Timeout: *timeout}, Version: build}
	switch {
	case *pingHost != "" && *pingKey != "" && *pingURL != "":
		opts.Ping = &smoke.Ping{Host: *pingHost, Key: *pingKey, URL: *pingURL}
	case *pingHost != "" || *pingKey != "" || *pingURL != "":
		fmt.Fprintln(stderr, "okfctl smoke: a real ping needs --ping-host, --ping-key and --ping-url together")
		return 0, errUsage
	}
	results, err := smoke.Run(ctx, opts)
	for _, r := range results {
		if r.Err != nil {
			fmt.Fprintf(stdout, "FAIL  %-44s %v\n", r.Name, r.Err)
		} else {
			fmt.Fprintf(stdout, "ok    %-44s %s\n", r.Name, r.Duration.Round(100*time.Microsecond))
		}
	}
	if err != nil {
		return 0, err
	}
	failed := smoke.Failed(results)
	fmt.Fprintf(stdout, "%d checks, %d failed\n", len(results), failed)
	if failed > 0 {
		return 1, nil
	}
	return 0, nil
}
