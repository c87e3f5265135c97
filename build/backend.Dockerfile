# syntax=docker/dockerfile:1
# The Spades backend (API + socket.io + the web app) as one image. Build from the repository root:
#   docker build -f build/backend.Dockerfile -t spades-backend .
# or use build/compose.yml (backend + PostgreSQL + Redis). See build/README.md.

ARG NODE_IMAGE=node:22-bookworm-slim

# ---- build: the full workspace, dev dependencies included ---------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /src
ENV NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false CI=true \
    ELECTRON_SKIP_BINARY_DOWNLOAD=1
# Manifests first, so the dependency layer is cached until they change.
COPY package.json package-lock.json ./
COPY common/package.json common/
COPY backend/package.json backend/
COPY desktop/package.json desktop/
# `npm ci`: exactly the committed lockfile (it names every platform's optional packages), fails if it is stale.
RUN npm ci --no-audit --no-fund
COPY . .
# common + backend (tsc), then the web client the backend serves (desktop/dist/web).
RUN npx nx run-many -t build -p @spades/common @spades/backend --outputStyle=stream \
 && npm run build:web -w desktop

# ---- runtime: production dependencies of the backend only, non-root ------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data \
    SPADES_APP_DIR=/app
WORKDIR /app
COPY --from=build /src/package.json /src/package-lock.json ./
COPY --from=build /src/common/package.json common/
COPY --from=build /src/backend/package.json backend/
COPY --from=build /src/desktop/package.json desktop/
# Only the backend workspace's dependencies (and @spades/common, linked), without devDependencies.
RUN npm ci --omit=dev --workspace backend --no-audit --no-fund \
 && npm cache clean --force
COPY --from=build /src/common/dist common/dist
COPY --from=build /src/backend/dist backend/dist
COPY --from=build /src/desktop/dist/web desktop/dist/web
COPY --chmod=755 build/docker-entrypoint.sh build/docker-entrypoint.sh
# `npm run admin -- grant <username> admin` (account roles), `npm run backup -- --out FILE`, `npm run restore -- FILE`:
# docker compose exec backend npm run admin -- list
COPY --from=build /src/scripts/backend-tool.mjs scripts/backend-tool.mjs
# DATA_DIR: embedded database (when DATABASE_URL is unset) and the generated JWT secret (when JWT_SECRET is unset).
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
VOLUME ["/app/data"]
# Readiness: GET /health/ready answers 200 only while the database and (when REDIS_URL is set) Redis answer.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/ready').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/app/build/docker-entrypoint.sh"]
