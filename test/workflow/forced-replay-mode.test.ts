import { execFileSync } from "node:child_process";
import { Worker } from "@temporalio/worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { fakeProvider } from "../../src/providers/fake-provider.js";
import { textTurn } from "../../src/testing/builders.js";
import { replayMode } from "../support/forced-replay.mjs";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

/** Whether a history holds a workflow task scheduled on a worker's sticky queue (kind 2, TASK_QUEUE_KIND_STICKY). */
const STICKY = 2;

/**
 * The workflow suites always run in a forced replay mode (vitest.config.ts: no-cache in npm test, the pass's own
 * otherwise); this shows the mode reaches every worker: this process's, a child process's, and the sessions' tasks.
 */
describe("forced replay reaches every worker", () => {
  const mode = replayMode();
  const taskQueue = uniqueTaskQueue("forced-replay");
  const agent = defineAgent({ name: "greeter", model: "greet" });
  let worker: RunningWorker;
  let client: AgentClient;

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [agent],
      providers: { greet: fakeProvider([textTurn("hi")]) },
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("this process and a process it starts create workers in the mode", () => {
    expect(mode, "the workflow suites run in a forced replay mode").toBeDefined();
    expect((Worker.create as { forcedReplayMode?: string }).forcedReplayMode).toBe(mode);
    const script = `import("@temporalio/worker").then(({ Worker }) => console.log(Worker.create.forcedReplayMode))`;
    const child = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(child.trim()).toBe(mode);
  });

  it("a session's workflow tasks take the mode: none goes to a sticky queue without the cache, some with it", async () => {
    const sessionId = `${taskQueue}-session`;
    expect((await client.send("greeter", "hello", { sessionId })).text).toBe("hi");
    const history = await client.session(sessionId).workflow.fetchHistory();
    const sticky = (history.events ?? []).filter(
      (event) => event.workflowTaskScheduledEventAttributes?.taskQueue?.kind === STICKY,
    );
    // With the cache on (short-sticky) the worker asks for its sticky queue after the first task.
    if (mode === "no-cache") expect(sticky).toEqual([]);
    else expect(sticky.length).toBeGreaterThan(0);
  });
});
