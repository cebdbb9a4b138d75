#!/usr/bin/env bash
# Runs every Fuzz target of the service module for FUZZTIME each (make fuzz).
# Targets are found with go test -list, so a new one runs without an edit
# here. A failure stops the run and leaves the crasher in testdata/fuzz.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-60s}
for pkg in $(go list ./...); do
	for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "== $pkg $target ($fuzztime)"
		go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" 2>&1 | grep -E '^(fuzz: elapsed|PASS|FAIL|ok|---)' | tail -3
	done
done
