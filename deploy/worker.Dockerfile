# syntax=docker/dockerfile:1
# okf-worker: the River workers and the GitHub sweep (services/worker).
# Build context: the repository root, the service module (api/, db/, pkg/
# and services/ under one go.mod):
#   docker build -f deploy/worker.Dockerfile --build-arg BUILD=$(git rev-parse --short HEAD) -t ghcr.io/okfindex/okf-worker:<tag> .

FROM --platform=$BUILDPLATFORM golang:1.26 AS build
WORKDIR /src
# The image builds the service module alone: no go.work, so deploy/ (its
# own module, for the offline checks) is not needed.
COPY go.mod go.sum ./
COPY api/ api/
COPY db/ db/
COPY pkg/ pkg/
COPY services/ services/
ARG TARGETOS TARGETARCH
ARG BUILD=dev
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -trimpath -buildvcs=false -ldflags "-s -w -X main.build=${BUILD}" -o /out/okf-worker ./services/worker

# Static binary on distroless: no shell, no package manager, uid 65532.
# The distroless base carries the CA certificates the GitHub client and the
# guarded fetch client need.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/okf-worker /okf-worker
USER 65532:65532
# 9090: OPS_ADDR (probes, metrics). The worker serves no public port.
EXPOSE 9090
ENTRYPOINT ["/okf-worker"]
