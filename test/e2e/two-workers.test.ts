import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { Client, Connection } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AgentClient, NoWorkerError } from "../../src/client.js";
import { routingAgent, routingProviders } from "./fixtures/routing-agents.js";
import { startTestWorker, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

// The operations guide's setup: two `lite-agent worker --agents <module>` processes with different agents on one
// server (and one base task queue). Each agent's sessions must reach only the worker that has the agent.

const projectDir = path.resolve(import.meta.dirname, "..", "..");
const fixture = path.join("test", "e2e", "fixtures", "routing-agents.ts");
const taskQueue = uniqueTaskQueue("two-workers");
const children: ChildProcess[] = [];
const pids: Record<string, number> = {};
let connection: Connection;

function client(options: { workerWaitMs?: number | false } = {}): AgentClient {
  const temporal = new Client({ connection, namespace: inject("temporalNamespace") });
  return new AgentClient(temporal, { taskQueue, ...options });
}

/** `lite-agent worker --agents routing-agents.ts` serving one agent, as its own process; resolves once it polls. */
async function startCliWorker(agent: string): Promise<void> {
  const child = spawn(
    process.execPath,
    [path.join("bin", "lite-agent.js"), "worker", "--agents", fixture, "--task-queue", taskQueue],
    {
      cwd: projectDir,
      env: {
        ...process.env,
        NO_COLOR: "1",
        ROUTING_AGENT: agent,
        TEMPORAL_ADDRESS: inject("temporalAddress"),
        TEMPORAL_NAMESPACE: inject("temporalNamespace"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(child);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Worker polling task queue '[\w.-]+' with agents: \w+/.test(output)) resolve();
    };
    child.stdout!.on("data", look);
    child.stderr!.on("data", look);
    child.once("exit", (code) => reject(new Error(`worker ${agent} exited with ${code}:\n${output}`)));
  });
  expect(output).toContain(`'${taskQueue}.${agent}'`);
  pids[agent] = child.pid!;
}

beforeAll(async () => {
  connection = await Connection.connect({ address: inject("temporalAddress") });
  await Promise.all([startCliWorker("alpha"), startCliWorker("beta")]);
});

afterAll(async () => {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGINT");
        }),
    ),
  );
  await connection?.close();
});

describe("two workers with different agents", () => {
  it("runs every session of each agent on the worker that has it", async () => {
    const agents = client();
    const runs = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? "alpha" : "beta")).map(
      async (agent, i) => ({ agent, result: await agents.send(agent, `label-${i}`) }),
    );
    const results = await Promise.all(runs);
    for (const [i, { agent, result }] of results.entries()) {
      expect(result.stopReason).toBe("stop");
      expect(result.text).toBe(`${agent} stamped label-${i} in ${pids[agent]}`);
    }
  }, 60_000);

  it("lists the sessions of every agent on the base task queue", async () => {
    const agents = client();
    const started = await agents.start("beta", "listed");
    let found = false;
    for (let attempt = 0; attempt < 40 && !found; attempt++) {
      for await (const session of agents.list()) if (session.sessionId === started.sessionId) found = true;
      if (!found) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(found).toBe(true);
  });

  it("refuses a run whose agent no worker serves, after waiting, with a clear error", async () => {
    const startedAt = Date.now();
    const error = await client({ workerWaitMs: 1_500 })
      .start("gamma", "anyone?")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoWorkerError);
    expect((error as Error).message).toMatch(
      new RegExp(`no worker serves agent 'gamma': nothing polled its task queue '${taskQueue}\\.gamma'`),
    );
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1_500);
  });

  it("a run waits for its agent's worker and completes once one starts", async () => {
    let worker: RunningWorker | undefined;
    try {
      const waiting = client({ workerWaitMs: 30_000 }).send("delta", "late");
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      worker = await startTestWorker({
        taskQueue,
        agents: [routingAgent("delta")],
        providers: routingProviders,
      });
      const result = await waiting;
      expect(result.text).toBe(`delta stamped late in ${process.pid}`);
    } finally {
      await worker?.stop();
    }
  }, 60_000);
});
