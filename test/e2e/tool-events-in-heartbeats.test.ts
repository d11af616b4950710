import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentClient, DurableEvent } from "../../src/client.js";
import { defineAgent, defineTool, fakeProvider, type AgentEvent } from "../../src/index.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { TOOL_EVENT_WINDOW_BYTES, ToolEventWindow } from "../../src/stream/tool-event-window.js";
import type { RunResult } from "../../src/kernel/vocabulary/events.js";
import { startTestWorker, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";
import { DELTA_TRANSPORTS, transportClient } from "../support/delta-transports.js";

// A tool emits far more events than one heartbeat window holds (docs/decisions/0021), in chunks: after each chunk it
// waits until every live follower has seen the chunk's last event, so no window moves past an event before each
// follower could read it; then a last burst right before it returns, which only the result may carry. One call runs
// on the agents' queue (heartbeats throttled to 50 ms), one on a tool-only queue (the SDK's throttle, 0.8 of the
// heartbeat timeout). Both with live model output in heartbeats and with it in Redis: tool events take heartbeats
// either way.

const FOLLOWERS = 3;
const CHUNK = 120;
const CHUNKS = 10;
const LAST_BURST = 100;
const TOTAL = CHUNK * CHUNKS + LAST_BURST;
/** About 200 bytes of JSON an event: a window holds some 160 of the call's 1,300. */
const PADDING = "·".repeat(70);

const progress = (id: string, n: number): AgentEvent => ({
  type: "diagnostic",
  level: "info",
  code: "progress",
  message: `${id}:${n}:${PADDING}`,
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The highest event index of each call (`session/call`) each live follower has seen so far (-1: none). */
const seenBy: Map<string, number>[] = Array.from({ length: FOLLOWERS }, () => new Map());

/** Waits until every live follower has seen the call's `n`-th event; gives up after 60 s (the test then fails). */
async function seenByAll(call: string, n: number): Promise<void> {
  for (let waited = 0; waited < 60_000; waited += 20) {
    if (seenBy.every((seen) => (seen.get(call) ?? -1) >= n)) return;
    await sleep(20);
  }
}

function reporter(name: string, taskQueue?: string) {
  return defineTool({
    name,
    description: "reports a lot while it works",
    schema: z.object({}),
    ...(taskQueue ? { taskQueue } : {}),
    execute: async (_input, ctx) => {
      const id = ctx.call!.id;
      for (let chunk = 0; chunk < CHUNKS; chunk++) {
        for (let n = chunk * CHUNK; n < (chunk + 1) * CHUNK; n++) ctx.emit(progress(id, n));
        await seenByAll(`${ctx.sessionId}/${id}`, (chunk + 1) * CHUNK - 1);
      }
      for (let n = CHUNK * CHUNKS; n < TOTAL; n++) ctx.emit(progress(id, n));
      return `reported ${TOTAL}`;
    },
  });
}

/** Per call: its progress events' indices in the order seen, and whether each came between its start and end. */
function progressByCall(events: AgentEvent[]): Record<string, { indices: number[]; inside: boolean }> {
  const out: Record<string, { indices: number[]; inside: boolean }> = {};
  const open = new Set<string>();
  for (const event of events) {
    if (event.type === "tool_call_start") open.add(event.call.id);
    if (event.type === "tool_call_end") open.delete(event.id);
    if (event.type === "diagnostic" && event.code === "progress") {
      const [id, n] = event.message.split(":");
      const call = (out[id!] ??= { indices: [], inside: true });
      call.indices.push(Number(n));
      call.inside &&= open.has(id!);
    }
  }
  return out;
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, n) => from + n);

/** The indices of the events the call's last window holds: what its activity's result carries. */
function lastWindow(id: string): number[] {
  const window = new ToolEventWindow({ key: id, runId: "", attempt: 1 });
  for (let n = 0; n < TOTAL; n++) window.add(progress(id, n) as Parameters<ToolEventWindow["add"]>[0]);
  const { at, events } = window.batch();
  return range(at, at + events.length);
}

async function follow(
  events: AsyncGenerator<DurableEvent, RunResult>,
  seen?: { by: Map<string, number>; sessionId: string },
): Promise<DurableEvent[]> {
  const out: DurableEvent[] = [];
  for await (const event of events) {
    out.push(event);
    if (seen && event.type === "diagnostic" && event.code === "progress") {
      const [id, n] = event.message.split(":");
      const call = `${seen.sessionId}/${id!}`;
      seen.by.set(call, Math.max(seen.by.get(call) ?? -1, Number(n)));
    }
  }
  return out;
}

describe.each(DELTA_TRANSPORTS)(
  "a tool that emits many events while three followers read, and one that attaches after it ended ($name transport)",
  (transport) => {
    const taskQueue = uniqueTaskQueue("tool-events-heartbeats");
    const toolQueue = uniqueTaskQueue("tool-events-heartbeats-tools");
    const sessionId = `tool-events-heartbeats-${Math.random().toString(36).slice(2, 10)}`;
    const agent = defineAgent({
      name: "reporter",
      model: "reporter",
      tools: [reporter("near"), reporter("remote", toolQueue)],
      // The tool-only queue's throttle is 0.8 of this: 2.4 s a heartbeat.
      durable: { toolHeartbeatTimeoutMs: 3_000 },
    });
    let worker: RunningWorker;
    let client: AgentClient;
    let live: DurableEvent[][];
    let late: DurableEvent[];
    let start: number;

    beforeAll(async () => {
      const deltas = transport.worker();
      worker = await startTestWorker({
        taskQueue,
        agents: [agent],
        toolTaskQueues: [toolQueue],
        ...(deltas ? { deltas } : {}),
        providers: {
          reporter: fakeProvider([
            toolCallTurn([
              { id: "a1", name: "near", input: {} },
              { id: "b1", name: "remote", input: {} },
            ]),
            textTurn("all reported"),
          ]),
        },
      });
      client = await transportClient(taskQueue, transport);
      const run = await client.start("reporter", "report", { sessionId });
      start = run.offset;
      live = await Promise.all(
        seenBy.map((by) =>
          follow(client.session(sessionId).events(run.runId, { fromOffset: start }), { by, sessionId }),
        ),
      );
      late = await follow(client.session(sessionId).events(run.runId, { fromOffset: start }));
    }, 150_000);
    afterAll(async () => {
      await client?.close();
      await worker?.stop();
    });

    it("each live follower gets every event of each call once, in order, before the call's end", () => {
      for (const events of live) {
        expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
        const want = { indices: range(0, TOTAL), inside: true };
        expect(progressByCall(events)).toEqual({ a1: want, b1: want });
        // Tool events sit among the durable events without taking an offset: those stay contiguous.
        const offsets = events.filter((event) => event.deltaId === undefined).map((event) => event.offset);
        expect(offsets).toEqual(range(start, start + offsets.length));
      }
    });

    it("a follower that attaches after the run ended gets the events the results carried, once, before each end", () => {
      const byCall = progressByCall(late);
      for (const id of ["a1", "b1"]) {
        const carried = lastWindow(id);
        // The window is the tail of the call's events, the last burst with it, and far from all of them.
        expect(carried.at(-1)).toBe(TOTAL - 1);
        expect(carried.length).toBeGreaterThanOrEqual(LAST_BURST);
        expect(carried.length).toBeLessThan(TOTAL / 4);
        expect(byCall[id]).toEqual({ indices: carried, inside: true });
      }
    });

    it("the session's history holds no update from a tool, and each result carries at most one window", async () => {
      const history = (await client.session(sessionId).workflow.fetchHistory()).events ?? [];
      const types = history.map((event) => String(event.eventType));
      expect(types.filter((type) => /UPDATE_REJECTED|UpdateRejected/.test(type))).toEqual([]);
      const updates = history.flatMap((event) => {
        const name = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name;
        return name ? [name] : [];
      });
      expect(updates).not.toContain("publishToolEvents");
      const results = history.flatMap((event) => {
        const payload = event.activityTaskCompletedEventAttributes?.result?.payloads?.[0];
        return payload?.data && new TextDecoder().decode(payload.data).includes("toolEvents")
          ? [payload.data.length]
          : [];
      });
      expect(results).toHaveLength(2);
      for (const bytes of results) expect(bytes).toBeLessThan(TOOL_EVENT_WINDOW_BYTES + 2_048);
      console.log(`tool results with events, bytes in history: ${results.join(", ")}`);
    });
  },
);
