import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { defineAgent } from "../../src/define-agent.js";
import { textTurn } from "../../src/testing/builders.js";
import { fakeProvider } from "../../src/providers/fake-provider.js";
import { startTestWorker, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

const run = promisify(execFile);
const script = fileURLToPath(new URL("../../deploy/worker-healthcheck.mjs", import.meta.url));

/** Runs the container's health check as compose does; resolves with its exit code and output. */
async function healthcheck(env: Record<string, string>): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script], {
      env: { ...process.env, TEMPORAL_ADDRESS: inject("temporalAddress"), ...env },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe("the worker container's health check", () => {
  let worker: RunningWorker;
  const base = uniqueTaskQueue("health");

  beforeAll(async () => {
    const agent = defineAgent({ name: "healthy", model: "m" });
    worker = await startTestWorker({
      taskQueue: base,
      agents: [agent],
      providers: { m: fakeProvider([textTurn("hi")]) },
    });
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("is healthy when this host's worker polls each named agent's queue, unhealthy naming the queue that is not", async () => {
    const env = { TEMPORAL_NAMESPACE: inject("temporalNamespace"), LITE_AGENT_TASK_QUEUE: base };
    await expect
      .poll(async () => (await healthcheck({ ...env, LITE_AGENT_HEALTH_AGENTS: "healthy" })).code, {
        timeout: 20_000,
      })
      .toBe(0);
    const missing = await healthcheck({ ...env, LITE_AGENT_HEALTH_AGENTS: "healthy, absent" });
    expect(missing.code).toBe(1);
    expect(missing.output).toContain(`polls task queue '${base}.absent'`);
    // The base queue alone is what the check used to ask for: no worker polls it.
    const demoDefault = await healthcheck(env);
    expect(demoDefault.code).toBe(1);
    expect(demoDefault.output).toContain(`'${base}.sandbox-analyst'`);
  });
});
