// Consumer of the package installed without its optional peers: uses S3 storage, Redis streaming, MCP servers and
// OpenTelemetry tracing, each of which must fail at once with one line naming what to install. Prints one JSON line
// (each feature's error message) for test/package/installed-package.test.ts.
import { defineAgent, localAgentConfig } from "lite-agent-temporal";
import { createExternalStorage, S3StorageDriver } from "lite-agent-temporal/storage";
import { scriptedProvider } from "lite-agent-temporal/testing";
import {
  createAgentTracing,
  createWorker,
  deltaTransportFromEnv,
  redisDeltaTransport,
  tracingFromEnv,
} from "lite-agent-temporal/worker";
import { AgentClient } from "lite-agent-temporal/client";

/** The message `use` fails with (sync or async), or "no error". */
async function failure(use) {
  try {
    await use();
    return "no error";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const model = scriptedProvider([{ text: "hi" }]);
const s3 = { kind: "s3", bucket: "b", region: "us-east-1", forcePathStyle: true, threshold: 1024 };
const withMcp = defineAgent({ name: "notes", model: "m", mcpServers: { fs: { command: "true" } } });
const redisUrl = "redis://127.0.0.1:1";
const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" };
console.log(
  JSON.stringify({
    s3Driver: await failure(() => new S3StorageDriver({ bucket: "b" })),
    s3Storage: await failure(() => createExternalStorage(s3)),
    redisTransport: await failure(() => redisDeltaTransport(redisUrl)),
    redisEnv: await failure(() => deltaTransportFromEnv(redisUrl)),
    redisClient: await failure(() => AgentClient.connect({ deltas: { redisUrl } })),
    mcpInProcess: await failure(() => localAgentConfig(withMcp, model)),
    mcpWorker: await failure(() => createWorker({ agents: [withMcp], providers: { "*": model } })),
    tracing: await failure(() => createAgentTracing({ exporter: { export: () => undefined } })),
    tracingFromEnv: await failure(() => tracingFromEnv(endpoint)),
    workerTracingFromEnv: await failure(() => {
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint.OTEL_EXPORTER_OTLP_ENDPOINT;
      return createWorker({ agents: [defineAgent({ name: "a", model: "m" })], providers: { "*": model } });
    }),
  }),
);
process.exit(0);
