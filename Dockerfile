# syntax=docker/dockerfile:1
# The lite-agent worker image. The CLI runs its TypeScript sources through tsx, a runtime dependency, so there is
# no build step and `npm ci --omit=dev` is all it installs. Default command: `lite-agent worker` (the demo
# agent); pass `worker --agents <module>` with your module mounted into the container to serve your own agents.
FROM node:22.12.0-bookworm-slim

ENV NODE_ENV=production \
    LITE_AGENT_CACHE_DIR=/app/.cache

WORKDIR /app
RUN chown node:node /app
USER node
# The demo agent's sandbox; compose mounts a volume here, which takes this folder's owner (node).
RUN mkdir -p .cache/demo

# Dependencies first, so a source change does not reinstall them.
COPY --chown=node:node package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

COPY --chown=node:node tsconfig.json ./
COPY --chown=node:node bin ./bin
COPY --chown=node:node src ./src
COPY --chown=node:node deploy/worker-healthcheck.mjs ./deploy/

# Bundling the workflow code takes seconds; do it once here, cached under .cache/workflow-bundle for exactly these
# sources, so every container starts polling at once.
RUN node --import tsx --input-type=module \
    -e 'const { loadWorkflowBundle } = await import("./src/runtime/workflow-bundle.ts"); await loadWorkflowBundle();'

# A heap limit makes V8 collect the memory of evicted idle sessions sooner: 1,000 idle + 100 active sessions peak at
# about 700 MB instead of 1.3 GB (docs/operations.md, Worker memory). Raise it with maxCachedSessions.
ENV NODE_OPTIONS=--max-old-space-size=512

ENTRYPOINT ["node", "bin/lite-agent.js"]
CMD ["worker"]
