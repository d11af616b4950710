import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import type { ModelRequest } from "../../src/kernel/vocabulary/model.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { collect } from "../support/collect.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

let toolCancelled = 0;
/** Tool calls that ran their whole minute (none should: each is cancelled long before). */
let toolFinished = 0;
const longTool = defineTool({
  name: "long_job",
  description: "takes a minute unless cancelled",
  schema: z.object({}),
  execute: (_input, ctx) =>
    new Promise<string>((resolve) => {
      const timer = setTimeout(() => (toolFinished++, resolve("finished")), 60_000);
      ctx.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        toolCancelled++;
        resolve("cancelled");
      });
    }),
});

/** Answers "long_job" when asked to, else echoes how many user messages it has seen. */
function echoModel() {
  const answer = (request: ModelRequest) => {
    const last = request.messages.at(-1)!;
    if (last.role === "user" && last.content === "run the long job")
      return toolCallTurn([{ id: "long", name: "long_job", input: {} }]);
    const inputs = request.messages
      .filter((m) => m.role === "user" && typeof m.content === "string")
      .map((m) => m.content);
    return textTurn(`seen: ${inputs.join(" | ")}`);
  };
  return fakeProvider([answer], { onExhausted: "repeat-last" });
}

const agent = defineAgent({
  name: "echoer",
  model: "scripted",
  tools: [longTool],
  durable: { continueAsNew: { maxRunsPerExecution: 2 }, toolHeartbeatTimeoutMs: 1_000 },
});

describe("cancel and continue-as-new", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("cancel");

  beforeAll(async () => {
    worker = await startTestWorker({ taskQueue, agents: [agent], providers: { scripted: echoModel() } });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("cancel during a long tool ends the run with done(aborted) at once; the session accepts the next run", async () => {
    const started = await client.start("echoer", "run the long job");
    const events: AgentEvent[] = [];
    let finishedAtDone: number | undefined;
    for await (const event of client.session(started.sessionId).events(started.runId, {
      fromOffset: started.offset,
    })) {
      events.push(event);
      if (event.type === "tool_call_start") {
        expect(await client.session(started.sessionId).cancel()).toEqual([started.runId]);
      }
      if (event.type === "done") finishedAtDone = toolFinished;
    }
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "aborted" });
    // The tool runs for a minute: the run ended while it was still running, not when it returned.
    expect(finishedAtDone).toBe(0);
    const next = await client.send("echoer", "hello again", { sessionId: started.sessionId });
    expect(next.stopReason).toBe("stop");
    expect(next.text).toBe("seen: run the long job | hello again");
    // The activity itself learns of the cancellation at its next heartbeat.
    await expect.poll(() => toolCancelled, { timeout: 10_000 }).toBeGreaterThan(0);
  });

  it("a queued run can be cancelled before it starts", async () => {
    const first = await client.start("echoer", "run the long job");
    const queued = await client.start("echoer", "never runs", { sessionId: first.sessionId });
    expect(await client.session(first.sessionId).cancel({ runId: queued.runId })).toEqual([queued.runId]);
    const queuedEvents = await collect(
      client.session(first.sessionId).events(queued.runId, { fromOffset: queued.offset }),
    );
    expect(queuedEvents.events.map((e) => e.type)).toEqual(["done"]);
    expect(queuedEvents.result.stopReason).toBe("aborted");
    await client.session(first.sessionId).cancel();
  });

  it("a session with many runs continues as new and keeps its whole conversation", async () => {
    const sessionId = `can-${Date.now()}`;
    const inputs = ["one", "two", "three", "four", "five"];
    let last;
    for (const input of inputs) last = await client.send("echoer", input, { sessionId });
    expect(last!.text).toBe("seen: one | two | three | four | five");
    const status = await client.session(sessionId).describe();
    expect(status.runsCompleted).toBe(5);
    expect(status.messageCount).toBe(10);
    const executions = [];
    for await (const info of client.temporal.workflow.list({ query: `WorkflowId = "${sessionId}"` }))
      executions.push(info.status.name);
    expect(executions.filter((name) => name === "CONTINUED_AS_NEW").length).toBeGreaterThanOrEqual(2);
    expect(executions).toContain("RUNNING");
    // Five runs, each planned by a local activity: with the workflow cache off (the no-cache pass) the SDK may drop a
    // local activity in flight when it evicts the session ("likely to be dropped or retried"), and the run waits for
    // the retry (CI: over 30 s once; 3 s alone).
  }, 90_000);
});
