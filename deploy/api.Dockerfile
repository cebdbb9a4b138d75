# syntax=docker/dockerfile:1
# okf-api: the public HTTP API (services/api).
# Build context: the repository root, since the go.work workspace spans
# api/, db/, pkg/ and services/:
#   docker build -f deploy/api.Dockerfile --build-arg BUILD=$(git rev-parse --short HEAD) -t ghcr.io/okfindex/okf-api:<tag> .

FROM --platform=$BUILDPLATFORM golang:1.26 AS build
WORKDIR /src
# deploy/go.mod and go.sum come along only because go.work lists ./deploy;
# nothing of deploy/ is compiled into the binary.
COPY go.work go.work.sum ./
COPY api/ api/
COPY db/ db/
COPY pkg/ pkg/
COPY services/ services/
COPY deploy/go.mod deploy/go.sum deploy/
ARG TARGETOS TARGETARCH
ARG BUILD=dev
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -trimpath -buildvcs=false -ldflags "-s -w -X main.build=${BUILD}" -o /out/okf-api ./services/api

# Static binary on distroless: no shell, no package manager, uid 65532.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/okf-api /okf-api
USER 65532:65532
# 8080: API_ADDR (public); 9090: OPS_ADDR (probes, metrics, River UI).
EXPOSE 8080 9090
ENTRYPOINT ["/okf-api"]
