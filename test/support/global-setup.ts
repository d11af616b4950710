import type { TestProject } from "vitest/node";
import { ensureTemporal, type TemporalEndpoint } from "../../src/dev-server/index.js";
import { startTestRedis, type TestRedis } from "./redis-server.js";

/** The servers of one suite run, shared by its projects. */
interface SuiteServers {
  temporal: TemporalEndpoint;
  redis: TestRedis | undefined;
  /** The environment before: the servers are named there too, for child processes and other projects' setups. */
  previous: Record<(typeof SHARED_ENV)[number], string | undefined>;
}

const SHARED_ENV = ["TEMPORAL_ADDRESS", "TEMPORAL_NAMESPACE", "TEMPORAL_UI_URL", "REDIS_URL"] as const;

let shared: Promise<SuiteServers> | undefined;
let users = 0;

/**
 * Vitest global setup: one Temporal server for the whole suite (DESIGN.md §5), shared by every project of the run
 * (vitest calls this once per project, in one module instance or in several: the environment names the servers
 * for the later calls either way). Uses `TEMPORAL_ADDRESS` (and `TEMPORAL_UI_URL`, `REDIS_URL`) when set, else
 * starts a dev server on free ports. Tests read them with `inject(...)`; forked workers also see them in the
 * environment. Returns the teardown; the last one stops what it started and restores the environment.
 */
export default async function setup(project: Pick<TestProject, "provide">): Promise<() => Promise<void>> {
  users++;
  shared ??= startServers();
  const { temporal, redis } = await shared;
  project.provide("temporalAddress", temporal.address);
  project.provide("temporalNamespace", temporal.namespace);
  project.provide("temporalUiUrl", temporal.uiUrl ?? process.env.TEMPORAL_UI_URL ?? "");
  project.provide("redisUrl", redis?.url ?? "");
  return async () => {
    if (--users > 0) return;
    const servers = await shared!;
    shared = undefined;
    await servers.redis?.stop();
    await servers.temporal.stop();
    for (const name of SHARED_ENV) restoreEnv(name, servers.previous[name]);
  };
}

async function startServers(): Promise<SuiteServers> {
  const previous = Object.fromEntries(
    SHARED_ENV.map((name) => [name, process.env[name]]),
  ) as SuiteServers["previous"];
  const temporal = await ensureTemporal({ log: (line) => console.error(`global-setup: ${line}`) });
  process.env.TEMPORAL_ADDRESS = temporal.address;
  process.env.TEMPORAL_NAMESPACE = temporal.namespace;
  if (temporal.uiUrl) process.env.TEMPORAL_UI_URL = temporal.uiUrl;
  const redis = await startTestRedis((line) => console.error(`global-setup: ${line}`));
  if (redis) process.env.REDIS_URL = redis.url;
  return { temporal, redis, previous };
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
