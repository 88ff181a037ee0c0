# apiver's image, built from source:
#   docker build -t apiver .
#   docker buildx build --platform linux/amd64,linux/arm64 -t apiver .
# The release's image (GoReleaser, release.Dockerfile) has the same runtime
# stage with the release binary. Run it in the repository, so that REF:PATH
# inputs find the git history:
#   docker run --rm -v "$PWD:/work" apiver check origin/main:openapi/api.yaml openapi/api.yaml

# Cross-compiled on the build machine's platform: no emulation for arm64.
FROM --platform=$BUILDPLATFORM golang:1.26-alpine AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG TARGETOS TARGETARCH
ARG VERSION=""
ARG COMMIT=""
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH go build -trimpath \
      -ldflags="-s -w -X main.version=${VERSION} -X main.commit=${COMMIT}" \
      -o /out/apiver ./cmd/apiver

# Alpine, not scratch or distroless: REF:PATH runs the git command.
FROM alpine:3.22
# The mounted repository belongs to the host's user, not the container's:
# without safe.directory git refuses to read it.
# hadolint ignore=DL3018
RUN apk add --no-cache git \
 && git config --system --add safe.directory '*'
COPY --from=build /out/apiver /usr/local/bin/apiver
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/apiver"]
