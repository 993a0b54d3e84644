# Toolscope in a container: a build stage (dev dependencies, next build) and a small runtime stage (production
# dependencies only, non-root). Not built on the development machine (no Docker engine there); kept plain on purpose.
# Node 24 (LTS): Node 20 is past its end of life, and Node 22.12+ lets the server listen on several sockets of one
# port (TOOLSCOPE_LISTENERS, docs/configuration.md), which a loaded instance needs to take bursts of connections.
FROM node:24-bookworm-slim AS build
WORKDIR /app
# No compiler: Share's local store uses Node 24's built-in SQLite, and better-sqlite3's install script is not run
# (package.json allowScripts; it is only built on a Node without node:sqlite, scripts/ensure-sqlite.mjs).
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1
RUN npx next build

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOST=0.0.0.0 PORT=3000 TOOLSCOPE_HEALTH_PORT=3001 TOOLSCOPE_MODE=hosted TOOLSCOPE_DATA_DIR=/data
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/.next ./.next
COPY --from=build /app/package.json /app/next.config.ts ./
# The HTTP server and the plain-Node modules it loads before the app (scripts/dockerfile.test.ts checks the list).
COPY --from=build /app/scripts/*.mjs ./scripts/
COPY --from=build /app/lib/log/*.mjs ./lib/log/
RUN mkdir -p /data && chown node:node /data
USER node
# 3001 answers health probes only, from a worker thread: a probe does not wait behind the load it measures.
EXPOSE 3000 3001
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.TOOLSCOPE_HEALTH_PORT+'/api/health?ready=1').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The server itself, not npm: signals reach it directly (graceful shutdown on SIGTERM).
CMD ["node", "scripts/server.mjs"]
