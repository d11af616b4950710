import { Client, Connection } from "@temporalio/client";
import { inject } from "vitest";
import { AgentClient } from "../../src/client.js";
import { redisDeltaTransport, type DeltaTransport } from "../../src/stream/delta-transport.js";
import { temporalAddress } from "./test-worker.js";

/** The suite's Redis server, started by the global setup. */
export function redisUrl(): string {
  const url = inject("redisUrl");
  if (!url) throw new Error("no redis-server (see the global setup's log), and REDIS_URL is not set");
  return url;
}

/** What carries live model output, for `describe.each`: the worker's transport (none: the default), the client's. */
export interface TestDeltaTransport {
  name: string;
  worker(): DeltaTransport | undefined;
  client(): "temporal" | { redisUrl: string };
}

/** Both transports: model output in the model activity's heartbeats, and in Redis. */
export const DELTA_TRANSPORTS: TestDeltaTransport[] = [
  { name: "temporal-native", worker: () => undefined, client: () => "temporal" },
  { name: "redis", worker: () => redisDeltaTransport(redisUrl()), client: () => ({ redisUrl: redisUrl() }) },
];

/** An AgentClient on the suite's dev server that reads live model output as the transport says. */
export async function transportClient(
  taskQueue: string,
  transport: TestDeltaTransport,
): Promise<AgentClient> {
  const connection = await Connection.connect({ address: temporalAddress() });
  return new AgentClient(new Client({ connection, namespace: inject("temporalNamespace") }), {
    taskQueue,
    deltas: transport.client(),
  });
}
