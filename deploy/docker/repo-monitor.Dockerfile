# syntax=docker/dockerfile:1
# repo-monitor image. Build from the repository root:
#   docker build -f deploy/docker/repo-monitor.Dockerfile \
#     --build-arg APP_VERSION=1.2.3 --build-arg GIT_SHA=$(git rev-parse HEAD) \
#     --build-arg GIT_BRANCH=main --build-arg BUILD_TIME=$(date -u +%Y-%m-%dT%H:%M:%SZ) -t repo-monitor .
#
# The entrypoint is the repo-monitor CLI, so `docker run IMAGE config validate` and
# `docker run IMAGE version` work; the default command is `serve`.
#
# Three stages on one pinned base:
#   builder  full workspace install and `nx build repo-monitor` -> dist/apps/repo-monitor/
#            (main.js plus the package.json and package-lock.json the build generated)
#   deps     `npm ci --omit=dev` of that generated package list. sqlite3 (and argon2, when the
#            bundle lists it) are native addons: they use a prebuilt binary when one is available
#            and otherwise compile, which needs python3, make and g++. Those tools live only in this
#            stage; the compiled node_modules is copied into the runtime stage, which is safe
#            because deps and runtime share the same base image (same glibc, same Node ABI).
#   runtime  slim base, the bundle, production node_modules, non-root user, /data volume.
ARG NODE_IMAGE=node:20.19.5-bookworm-slim

# The bundle is plain JavaScript, so it is built once on the build machine's own platform even
# for a multi-platform image; only the deps stage runs per target platform.
FROM --platform=$BUILDPLATFORM ${NODE_IMAGE} AS builder
ENV NX_NO_CLOUD=true NX_DAEMON=false CI=true
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx nx build repo-monitor --skip-nx-cache

FROM ${NODE_IMAGE} AS deps
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=builder /src/dist/apps/repo-monitor/package.json /src/dist/apps/repo-monitor/package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    MONITOR_HTTP_ADDR=0.0.0.0:8080 \
    MONITOR_DATABASE_URL=file:/data/repo-monitor.db
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=builder /src/dist/apps/repo-monitor/ ./
# The data directory belongs to the unprivileged user the service runs as.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 8080
# `healthcheck` reads the same configuration as `serve` and asks the local /readyz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "main.js", "healthcheck"]

# Build metadata last, so a new commit does not invalidate the layers above.
ARG APP_VERSION=""
ARG GIT_SHA=""
ARG GIT_BRANCH=""
ARG BUILD_TIME=""
ENV APP_VERSION=${APP_VERSION} \
    GIT_SHA=${GIT_SHA} \
    GIT_BRANCH=${GIT_BRANCH} \
    BUILD_TIME=${BUILD_TIME}
LABEL org.opencontainers.image.title="repo-monitor" \
      org.opencontainers.image.description="Watches GitHub repositories through a GitHub App and sends durable notifications." \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${APP_VERSION}" \
      org.opencontainers.image.revision="${GIT_SHA}" \
      org.opencontainers.image.created="${BUILD_TIME}" \
      org.opencontainers.image.ref.name="${GIT_BRANCH}"

# Node is PID 1; the app handles SIGTERM itself (Nest shutdown hooks) and closes cleanly.
ENTRYPOINT ["node", "main.js"]
CMD ["serve"]
