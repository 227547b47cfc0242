# syntax=docker/dockerfile:1
#
# The ENEM API as a container image. Build stage: every dependency, the production bundle
# (npm run build), then the dev tools removed. Runtime stage: Node, the bundle, production
# dependencies and the built-in sample dataset, run as the unprivileged `node` user.
#
#   docker build -t enem-api .
#   docker run -p 3000:3000 enem-api                                   # the sample dataset
#   docker run -p 3000:3000 -v /path/to/enem-data:/data:ro -e ENEM_DATA_DIR=/data enem-api
#
# Every exam, built from the public sources into a volume (npm run dataset; the `dataset` stage
# adds git to clone them; compose.full.yaml does the same as a one-shot service):
#   docker build --target dataset -t enem-api-dataset .
#   docker run --rm -v enem-data:/volume enem-api-dataset /volume/full
#   docker run -p 3000:3000 -v enem-data:/data:ro -e ENEM_DATA_DIR=/data/full enem-api
#
# NODE_IMAGE is any Node 24 image on Debian with a `node` user (the official one by default);
# scripts/container-test.sh builds one from a local Debian and this machine's Node.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --omit=optional --no-audit --no-fund

# `npm run dataset` as the production bundle runs it (node dist/dataset.js): git to clone the
# sources, and /volume and /cache owned by `node`, so a named volume mounted there starts out
# writable by it. Built only when asked for (--target dataset); the server's stage comes last.
FROM ${NODE_IMAGE} AS dataset
WORKDIR /app
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends git ca-certificates >/dev/null \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /volume /cache && chown node:node /volume /cache
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/data ./data
USER node
ENV NODE_ENV=production XDG_CACHE_HOME=/cache
ENTRYPOINT ["node", "dist/dataset.js"]
CMD ["/volume/full"]

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/data ./data
# So that `npm run check-data` works here too (it checks dist/ first); the start log names `node dist/check-data.js`.
COPY --from=build /app/scripts/ensure-build.js ./scripts/
USER node
EXPOSE 3000
# Node's own fetch: slim images have no curl. Ready means loaded and not shutting down.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The same command as `npm start` (test/start-command.test.ts checks it); the README's "Memory" says why the flags.
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=30", "dist/server.js"]

