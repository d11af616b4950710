import type { TestProject } from "vitest/node";
import { ensureTemporal } from "../../src/dev-server/index.js";
import { startTestRedis } from "./redis-server.js";

/**
 * Vitest global setup: one Temporal server for the whole suite (DESIGN.md §5). Uses `TEMPORAL_ADDRESS` when
 * set, else starts a dev server on free ports. Tests read it with `inject("temporalAddress")`; forked workers
 * also see it as `process.env.TEMPORAL_ADDRESS`. Returns the teardown that stops the server.
 */
export default async function setup(project: Pick<TestProject, "provide">): Promise<() => Promise<void>> {
  const previous = { address: process.env.TEMPORAL_ADDRESS, namespace: process.env.TEMPORAL_NAMESPACE };
  const temporal = await ensureTemporal({ log: (line) => console.error(`global-setup: ${line}`) });
  project.provide("temporalAddress", temporal.address);
  project.provide("temporalNamespace", temporal.namespace);
  project.provide("temporalUiUrl", temporal.uiUrl ?? process.env.TEMPORAL_UI_URL ?? "");
  process.env.TEMPORAL_ADDRESS = temporal.address;
  process.env.TEMPORAL_NAMESPACE = temporal.namespace;
  const redis = await startTestRedis();
  project.provide("redisUrl", redis?.url ?? "");
  return async () => {
    await redis?.stop();
    await temporal.stop();
    restoreEnv("TEMPORAL_ADDRESS", previous.address);
    restoreEnv("TEMPORAL_NAMESPACE", previous.namespace);
  };
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
