# syntax=docker/dockerfile:1
# The lite-agent worker image, compiled JavaScript: a build stage installs every dependency and compiles src/ into
# dist/ (`npm run build`); the runtime stage installs the runtime dependencies only (`npm ci --omit=dev`: no
# TypeScript, no tsx) and runs dist/ through bin/lite-agent.js, which takes dist/ as there is no src/ beside it.
# Default command: `lite-agent worker` (the demo agent); pass `worker --agents <module.js>` with your compiled module
# mounted into the container to serve your own agents.

FROM node:22.12.0-bookworm-slim AS build
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs ./scripts/
COPY src ./src
RUN npm run build

FROM node:22.12.0-bookworm-slim

ENV NODE_ENV=production \
    LITE_AGENT_CACHE_DIR=/app/.cache

WORKDIR /app
RUN chown node:node /app
USER node
# The demo agent's sandbox; compose mounts a volume here, which takes this folder's owner (node).
RUN mkdir -p .cache/demo

# Dependencies first, so a source change does not reinstall them. The image is a worker: it adds @temporalio/worker,
# an optional peer (a dev dependency here, so `--omit=dev` leaves it out), at the version package.json pins.
COPY --chown=node:node package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund \
    && npm install --no-save --save-prod --no-audit --no-fund @temporalio/worker@1.23.0 \
    && npm cache clean --force

COPY --chown=node:node bin ./bin
COPY --from=build --chown=node:node /build/dist ./dist
COPY --chown=node:node deploy/worker-healthcheck.mjs ./deploy/

# Bundling the workflow code takes seconds; do it once here from the compiled dist/workflows, cached under
# .cache/workflow-bundle for exactly this code, so every container starts polling at once.
RUN node --input-type=module \
    -e 'const { loadWorkflowBundle } = await import("./dist/worker.js"); await loadWorkflowBundle();'

# A heap limit makes V8 collect the memory of evicted idle sessions sooner: 1,000 idle + 100 active sessions peak at
# about 700 MB instead of 1.3 GB (docs/operations.md, Worker memory). Raise it with maxCachedSessions.
ENV NODE_OPTIONS=--max-old-space-size=512

ENTRYPOINT ["node", "bin/lite-agent.js"]
CMD ["worker"]
