# syntax=docker/dockerfile:1
# okfctl: the operator's tool (services/okfctl), used by the migrate job of
# docker-compose.yml and deploy/k8s: `okfctl migrate`.
# Build context: the repository root, the service module (api/, db/, pkg/
# and services/ under one go.mod):
#   docker build -f deploy/okfctl.Dockerfile --build-arg BUILD=$(git rev-parse --short HEAD) -t ghcr.io/okfindex/okfctl:<tag> .

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
    go build -trimpath -buildvcs=false -ldflags "-s -w -X main.build=${BUILD}" -o /out/okfctl ./services/okfctl

# Nothing but okfctl: no shell, no Postgres binaries (okfctl run, which
# starts a private cluster, is for a developer's machine, not this image).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/okfctl /okfctl
USER 65532:65532
ENTRYPOINT ["/okfctl"]
