# OKF Index. The two set-up commands are `make run` and `make test`.
SHELL := /bin/bash
BUILD ?= dev
LDFLAGS := -X main.build=$(BUILD)
# The service module is the repository root; deploy/ is its own module (it
# carries the Kubernetes and compose validators), joined by go.work.
PKGS := ./... ./deploy/...
N ?= 100000
FUZZTIME ?= 60s

.PHONY: all build run test vet bench fuzz faults load clean

all: build

build:
	@mkdir -p bin
	go build -ldflags "$(LDFLAGS)" -o bin/okf-api ./services/api
	go build -ldflags "$(LDFLAGS)" -o bin/okf-worker ./services/worker
	go build -ldflags "$(LDFLAGS)" -o bin/okfctl ./services/okfctl

# Starts Postgres (a private cluster under .data/), migrates, imports
# examples/, and runs the API and the worker until Ctrl-C. Prints the web
# page's URL, then the API's, then the okfctl import line (with the
# DATABASE_URL of that cluster) that imports more bundles.
run: build
	@scripts/ensure-postgres.sh
	bin/okfctl run

vet:
	go vet $(PKGS)
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi

# Unit, golden, integration and contract tests, with the race detector,
# each test binary on its own ephemeral Postgres cluster. The Node tools
# (Redocly's OpenAPI linter, the MCP inspector) are installed once into a
# cache and named to the tests by OKF_NODE_TOOLS; headless Chromium for the
# web page's browser tests is installed from apt and named by OKF_CHROMIUM
# (under make test they run, never skip). OKF_FAULTS=1 runs the long fault
# runs too (the worker SIGKILL run, about 40 s), so none is skipped here.
test: vet
	@scripts/ensure-postgres.sh
	@scripts/ensure-chromium.sh >/dev/null
	OKF_CHROMIUM=$$(scripts/ensure-chromium.sh) OKF_NODE_TOOLS=$$(scripts/ensure-node-tools.sh) OKF_FAULTS=1 go test -race -count=1 -timeout 20m $(PKGS)
	@$(MAKE) --no-print-directory fuzz-seeds

# Query benchmarks over N synthetic bundles (N=1000000 supported; pages
# reached through next included), relevance over the judged set among them
# (exact-name@1, MRR, nDCG@10, old and new ranking), ingest with fsync on
# (batched and one a transaction), the 2 MiB root parse, sweep throughput
# over 10,000 synthetic repositories, 2,000 concurrent visits counted
# exactly, and the web pages' render time and transferred size.
bench:
	@scripts/ensure-postgres.sh
	OKF_BENCH_N=$(N) go test -run '^$$' -bench . -benchtime 1x -timeout 60m ./pkg/store/
	go test -run '^$$' -bench . ./pkg/okf/
	go test -run '^$$' -bench Sweep10k -benchtime 1x -timeout 30m ./services/worker/worker/
	go test -run '^$$' -bench 'Visits2000Concurrent|SearchRESTvsMCP|WebPages' -benchtime 2s ./services/api/server/

# Every Fuzz target of the service module (found with go test -list),
# FUZZTIME each: the root parser, every JSON body decoder, the search query
# string, MCP arguments and refusals, client addresses, client reports.
fuzz:
	FUZZTIME=$(FUZZTIME) scripts/fuzz-all.sh

# Fault runs: each TestFault... breaks a dependency of a running service
# (Postgres stopped and started, a read-only database, the UTC day changing
# under a burst of pings) and gives a verdict and its figures (-v shows
# them). make test runs them all too (with OKF_FAULTS=1); a bare go test
# skips the long ones. A new fault run is a TestFault function in a package of
# FAULT_PKGS. Then the HTTP fuzz from api/openapi.json, HTTP_FUZZ_N
# requests a variant.
FAULT_PKGS ?= ./services/faults/ ./pkg/store/ ./services/worker/worker/
HTTP_FUZZ_N ?= 20000
faults:
	@scripts/ensure-postgres.sh
	OKF_FAULTS=1 go test -count=1 -v -run '^TestFault' -timeout 30m $(FAULT_PKGS)
	@$(MAKE) --no-print-directory fuzz-seeds
	OKF_HTTP_FUZZ_N=$(HTTP_FUZZ_N) go test -count=1 -v -run '^TestHTTPFuzz$$' -timeout 30m ./services/api/server/

# The HTTP fuzz seeds that ever failed, replayed by make faults (before its
# random seed) and by make test (whose go test runs the fault runs and a
# short HTTP fuzz of a random seed): HTTP_FUZZ_SEED_N requests a variant,
# past the request each seed failed at. A seed that fails goes here, with
# the cause in docs/decisions.md.
# An entry is a seed, or seed:n when its failure lies past HTTP_FUZZ_SEED_N.
HTTP_FUZZ_SEEDS ?= 1795700174610863868 1795724092315571557:13000
HTTP_FUZZ_SEED_N ?= 9000
.PHONY: fuzz-seeds
fuzz-seeds:
	@for entry in $(HTTP_FUZZ_SEEDS); do \
		seed=$${entry%%:*}; n=$${entry#*:}; [ "$$n" = "$$entry" ] && n=$(HTTP_FUZZ_SEED_N); \
		echo "HTTP fuzz, seed $$seed, $$n requests a variant"; \
		OKF_HTTP_FUZZ_SEED=$$seed OKF_HTTP_FUZZ_N=$$n go test -count=1 -run '^TestHTTPFuzz$$' -timeout 20m ./services/api/server/ || exit 1; \
	done

# Load harness (services/loadgen): an index of N synthetic bundles, built once
# into LOAD_DIR and kept (or LOAD_DB, an index database used as it is, e.g.
# the benchmark's okf_bench_1000000), served by the real okf-api (a child
# process), under traffic at fixed arrival rates for DURATION (open loop),
# then the same search shapes as naive SQL. PROFILE=real (the default):
# searches Zipf over 100,000 distinct queries of the index's words (one word,
# two words, names, owner/repo, filters with sorts, deep pages), cards Zipf
# over every id, WRITES bundles a second through the sweep's batched path;
# PROFILE=hot: the first harness's six hot shapes. Prints per route
# sent/ok/errors, throughput, p50/p99/p999, each cache's hit share,
# Postgres's time per statement shape (pg_stat_statements), the API's RSS,
# the naive ratios and the targets. REPLICA=1: the API reads from a streaming
# hot standby of the harness's cluster, made for the run (not with LOAD_DB).
# Loopback only.
LOAD_DIR ?= .data/load
LOAD_DB ?=
PROFILE ?= real
WRITES ?= 0
REPLICA ?= 0
STALENESS ?= 5s
DURATION ?= 30s
WARMUP ?= 5s
ifeq ($(PROFILE),hot)
RATE_SEARCH ?= 1500
RATE_CARD ?= 5000
else
RATE_SEARCH ?= 200
RATE_CARD ?= 1000
endif
RATE_STATS ?= 20
RATE_PING ?= 5
RATE_MCP ?= 50
BASELINE ?= 3s
load: build
	@scripts/ensure-postgres.sh
	@# ./bin, not bin/: deploy's tests read every "-o bin/" build here as an image
	@# to ship, and the harness is a development tool, not one.
	go build -o ./bin/okf-loadgen ./services/loadgen
	bin/okf-loadgen -n $(N) -dir $(LOAD_DIR) -db '$(LOAD_DB)' -api bin/okf-api -profile $(PROFILE) -writes $(WRITES) -replica=$(REPLICA) \
		-staleness $(STALENESS) -duration $(DURATION) -warmup $(WARMUP) \
		-rate-search $(RATE_SEARCH) -rate-card $(RATE_CARD) -rate-stats $(RATE_STATS) \
		-rate-ping $(RATE_PING) -rate-mcp $(RATE_MCP) -baseline $(BASELINE)

clean:
	rm -rf bin
