import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, inject, it } from "vitest";
import type { AgentEvent } from "../../src/kernel/events.js";
import { testClient, uniqueTaskQueue } from "../support/temporal.js";

const workers: ChildProcess[] = [];
afterEach(() => {
  for (const child of workers) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Starts test/support/crash-worker.ts as its own process and waits until it polls. */
async function startWorker(name: string, taskQueue: string, sideEffects: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "test/support/crash-worker.ts"], {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: inject("temporalAddress"),
      TEMPORAL_NAMESPACE: inject("temporalNamespace"),
      TASK_QUEUE: taskQueue,
      SIDE_EFFECTS: sideEffects,
      WORKER_NAME: name,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  workers.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("worker ready") && resolve());
    child.once("exit", (code) => reject(new Error(`worker ${name} exited with ${code} before it was ready`)));
  });
  return child;
}

async function killHard(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

async function waitForLine(file: string, pattern: RegExp): Promise<void> {
  for (;;) {
    if (pattern.test(readFileSync(file, "utf8"))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it("a worker killed mid-tool is replaced: completed tools ran once, at-most-once tools get the interrupted result, idempotent ones retry with the same key", async () => {
  const taskQueue = uniqueTaskQueue("crash");
  const sideEffects = join(mkdtempSync(join(tmpdir(), "crash-")), "side-effects.log");
  writeFileSync(sideEffects, "");
  const client = await testClient(taskQueue);

  const first = await startWorker("first", taskQueue, sideEffects);
  const started = await client.start("crashy", "go");
  const events: AgentEvent[] = [];
  const consuming = (async () => {
    const run = client.events(started.sessionId, started.runId, { fromOffset: started.offset });
    for (;;) {
      const next = await run.next();
      if (next.done) return next.value;
      events.push(next.value);
    }
  })();

  await waitForLine(sideEffects, /^slow_once start$/m);
  await killHard(first);
  await startWorker("second", taskQueue, sideEffects);
  await waitForLine(sideEffects, /^slow_idem start .* second$/m);
  await killHard(workers[1]!);
  await startWorker("third", taskQueue, sideEffects);
  const result = await consuming;

  expect(result.stopReason).toBe("stop");
  expect(result.text).toBe("done");
  const lines = readFileSync(sideEffects, "utf8").trim().split("\n");
  expect(lines.filter((line) => line === "record a")).toHaveLength(1);
  expect(lines.filter((line) => line === "record b")).toHaveLength(1);
  expect(lines.filter((line) => line === "slow_once start")).toHaveLength(1);
  const idem = lines.filter((line) => line.startsWith("slow_idem start")).map((line) => line.split(" "));
  expect(idem.map((parts) => parts[3])).toEqual(["second", "third"]);
  expect(idem[0]![2]).toBeTruthy();
  expect(idem[1]![2]).toBe(idem[0]![2]);

  const results = events.flatMap((event) => (event.type === "tool_result" ? [event.result] : []));
  expect(results.find((r) => r.name === "slow_once")).toMatchObject({
    content: "Error: interrupted before completion (slow_once)",
    isError: true,
  });
  expect(results.find((r) => r.name === "slow_idem")).toMatchObject({ content: "idem done" });
  expect(events).toContainEqual(
    expect.objectContaining({ type: "tool_recovered", id: "s1", name: "slow_once", turn: 2 }),
  );
}, 120_000);
