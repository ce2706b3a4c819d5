# syntax=docker/dockerfile:1
# The banchess server: one static binary on a distroless base, run as a
# non-root user. Games go to $DATABASE_URL (PostgreSQL) when it is set,
# else to the SQLite file /data/banchess.db (mount a volume there).
#
#   docker build -t banchess .
#   docker run -p 8080:8080 -v banchess-data:/data banchess

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/banchess . \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/banchess /banchess
# The working directory holds the default SQLite file, owned by the
# image's non-root user (uid 65532).
COPY --from=build --chown=65532:65532 /out/data /data
WORKDIR /data
VOLUME /data
USER nonroot:nonroot
ENV PORT=8080
EXPOSE 8080
ENTRYPOINT ["/banchess"]
