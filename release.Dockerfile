# The release image, built by GoReleaser (dockers_v2 in .goreleaser.yaml)
# with buildx for each platform from the binaries it built. Its runtime stage
# is Dockerfile's (TestDockerfilesAgree keeps them the same).

# Alpine, not scratch or distroless: REF:PATH runs the git command.
FROM alpine:3.22
# The mounted repository belongs to the host's user, not the container's:
# without safe.directory git refuses to read it.
# hadolint ignore=DL3018
RUN apk add --no-cache git \
 && git config --system --add safe.directory '*'
ARG TARGETPLATFORM
COPY $TARGETPLATFORM/apiver /usr/local/bin/apiver
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/apiver"]
