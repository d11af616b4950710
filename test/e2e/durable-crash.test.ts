import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentClient } from "../../src/client.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import { collect } from "../support/collect.js";
import { testClient, uniqueTaskQueue } from "../support/temporal.js";
import { WorkerProcesses, killHard, waitForLine } from "../support/worker-process.js";
import { taskForkId } from "../../src/kernel/builtin-tools/delegate-tool.js";

// A worker (test/support/crash-worker.ts) killed with SIGKILL in the middle of a background group's child
// tool call or of an effect, and another worker started: what ran, what runs again, and what the model is told.

let workers: WorkerProcesses | undefined;
afterEach(() => workers?.killAll());

/** A task queue, a side-effect log and a client; workers of the crash worker script on that queue. */
async function crashSetup(
  prefix: string,
): Promise<{ client: AgentClient; sideEffects: string; lines: () => string[] }> {
  const taskQueue = uniqueTaskQueue(prefix);
  const sideEffects = join(mkdtempSync(join(tmpdir(), `${prefix}-`)), "side-effects.log");
  writeFileSync(sideEffects, "");
  workers = new WorkerProcesses("test/support/crash-worker.ts", {
    TASK_QUEUE: taskQueue,
    SIDE_EFFECTS: sideEffects,
  });
  const lines = () => readFileSync(sideEffects, "utf8").trim().split("\n").filter(Boolean);
  return { client: await testClient(taskQueue), sideEffects, lines };
}

/** Starts a run and drains its events (the merged stream of the session and its subagents) in the background. */
async function startRun(client: AgentClient, agent: string, input: string) {
  const started = await client.start(agent, input);
  return collect(client.session(started.sessionId).events(started.runId, { fromOffset: started.offset }));
}

const toolResult = (events: AgentEvent[], id: string) =>
  events.flatMap((event) => (event.type === "tool_result" && event.result.id === id ? [event] : []));

describe("a worker killed mid-call in a durable run", () => {
  it("while a joinable group's child runs a tool: a new worker resumes parent and child, completed tool calls do not run again", async () => {
    const { client, sideEffects, lines } = await crashSetup("bg-crash");
    const first = await workers!.start("first");
    const running = startRun(client, "bg-crash-lead", "do the chores");
    await waitForLine(sideEffects, /^slow_once start$/m);
    await killHard(first);
    await workers!.start("second");
    const { events, result } = await running;

    expect(result.stopReason).toBe("stop");
    expect(result.text).toBe("The chores are done.");
    // The parent's and the child's completed calls ran once; the interrupted at-most-once one was not repeated.
    expect(lines().sort()).toEqual(["record child", "record lead", "slow_once start"]);
    expect(toolResult(events, "c1")).toMatchObject([
      { forkId: taskForkId("g1", 0), result: { content: "recorded child" } },
    ]);
    expect(toolResult(events, "c2")).toMatchObject([
      {
        forkId: taskForkId("g1", 0),
        result: { content: "Error: interrupted before completion (slow_once)", isError: true },
      },
    ]);
    const note = events.filter((event) => event.type === "background_completed");
    expect(note).toMatchObject([
      {
        completion: {
          label: "Subagent group: chores",
          status: "completed",
          content: expect.stringContaining("Recorded; the slow chore was interrupted."),
        },
      },
    ]);
  }, 120_000);

  it("in an at-most-once effect: the effect is not run again and the model is told it was interrupted", async () => {
    const { client, sideEffects, lines } = await crashSetup("effect-once-crash");
    const first = await workers!.start("first");
    const running = startRun(client, "effect-once", "buy it");
    await waitForLine(sideEffects, /^charge_card e1 first$/m);
    await killHard(first);
    await workers!.start("second");
    const { events, result } = await running;

    expect(lines()).toEqual(["record purchase", "charge_card e1 first"]);
    expect(toolResult(events, "e1")).toMatchObject([
      {
        result: {
          content:
            "Error: effect charge_card was interrupted before it finished (its worker stopped, or it ran past its " +
            "3000 ms timeout); it is at-most-once, so it was not run again and may or may not have taken effect",
          isError: true,
        },
      },
    ]);
    expect(result.text).toBe("done");
  }, 120_000);

  it("in an idempotent effect: the effect is retried on the new worker and its answer reaches the tool result", async () => {
    const { client, sideEffects, lines } = await crashSetup("effect-idem-crash");
    const first = await workers!.start("first");
    const running = startRun(client, "effect-idempotent", "index it");
    await waitForLine(sideEffects, /^reindex e1 first$/m);
    await killHard(first);
    await workers!.start("second");
    const { events, result } = await running;

    expect(lines()).toEqual(["record purchase", "reindex e1 first", "reindex e1 second"]);
    expect(toolResult(events, "e1")).toMatchObject([
      { result: { content: "recorded purchase [reindexed]" } },
    ]);
    expect(result.text).toBe("done");
  }, 120_000);
});
