// Command okfctl is the operator's tool for OKF Index: it migrates the
// database, imports a local tree of bundles, lints a bundle as the indexer
// reads it, runs the whole service locally (make run), and smoke-tests a
// deployment.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

var build = "dev"

const usage = `okfctl: operator's tool for OKF Index

Usage:
  okfctl migrate                      apply the schema and River's tables to DATABASE_URL
  okfctl import [-q] DIR              index a tree laid out as <owner>/<repo>/... into DATABASE_URL
  okfctl lint [flags] PATH            show the card a root index.md (or bundle directory) yields
  okfctl run [flags]                  start the whole service locally (what make run does)
  okfctl smoke [flags] BASE_URL       check every public route of a deployment (exit 1 on a failure)
  okfctl session mint [flags]         print a development session JWT (full variant, development key only)
  okfctl session event [flags] TYPE   print a signed identity event (password-changed, sessions-ended, picture-changed)
  okfctl payments [list|settle|refund] list the x402 payments not yet settled; settle or record the refund of one
  okfctl version                      print the build

Run "okfctl COMMAND -h" for a command's flags.
`

// errUsage marks a command-line mistake: exit code 2.
var errUsage = errors.New("usage")

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	cmd, args := os.Args[1], os.Args[2:]
	var err error
	switch cmd {
	case "migrate":
		err = migrateCmd(ctx, args)
	case "import":
		err = importCmd(ctx, args, os.Stdout, os.Stderr)
	case "lint":
		var code int
		code, err = lintCmd(args, os.Stdout, os.Stderr)
		if err == nil {
			os.Exit(code)
		}
	case "run":
		err = runCmd(ctx, args)
	case "smoke":
		var code int
		code, err = smokeCmd(ctx, args, os.Stdout, os.Stderr)
		if err == nil {
			os.Exit(code)
		}
	case "session":
		err = sessionCmd(args, os.Getenv, os.Stdout, os.Stderr)
	case "payments":
		err = paymentsCmd(ctx, args, os.Getenv, os.Stdout, os.Stderr)
	case "version":
		fmt.Println(build)
	case "-h", "--help", "help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "okfctl: unknown command %q\n\n%s", cmd, usage)
		os.Exit(2)
	}
	if err != nil {
		if errors.Is(err, errUsage) || errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "okfctl:", err)
		os.Exit(1)
	}
}
