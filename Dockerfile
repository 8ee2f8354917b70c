# a2a-kit's demo agent (or your own, see docs/deployment.md) in a container: JSON-RPC, HTTP+JSON
# and SSE on 8765, gRPC on 8766, tasks in SQLite on the /data volume, run as the non-root `node`
# user. Build: docker build -t a2a-kit . ; run: docker run -p 8765:8765 -v a2a-data:/data a2a-kit
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source where no prebuilt binary matches.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY proto ./proto
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund \
  && npm install --no-save --no-audit --no-fund @grpc/grpc-js@1 @grpc/proto-loader@0.8

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
  A2A_STORE=/data/tasks.db
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/proto ./proto
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8765 8766
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8765/.well-known/agent-card.json').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/src/cli/main.js", "serve", "--host", "0.0.0.0", "--port", "8765"]
