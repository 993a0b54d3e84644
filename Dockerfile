# Toolscope in a container: a build stage (dev dependencies, next build) and a small runtime stage (production
# dependencies only, non-root). Not built on the development machine (no Docker engine there); kept plain on purpose.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary can be downloaded.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY scripts/postinstall.mjs scripts/postinstall.mjs
RUN npm ci --no-audit --no-fund
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1
RUN npx next build

FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY scripts/postinstall.mjs scripts/postinstall.mjs
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOST=0.0.0.0 PORT=3000 TOOLSCOPE_MODE=hosted TOOLSCOPE_DATA_DIR=/data
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/.next ./.next
COPY --from=build /app/package.json /app/next.config.ts ./
COPY --from=build /app/scripts/server.mjs ./scripts/server.mjs
COPY --from=build /app/lib/log/format.mjs ./lib/log/format.mjs
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health?ready=1').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The server itself, not npm: signals reach it directly (graceful shutdown on SIGTERM).
CMD ["node", "scripts/server.mjs"]
