import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { ModelChunk, ModelProvider } from "../../src/kernel/vocabulary/model.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import {
  connectTestClient,
  startTestWorker,
  uniqueTaskQueue,
  type RunningWorker,
} from "../support/temporal.js";
import { resultsTakenWithNoCommand } from "../support/history-tasks.js";
import { toolResultCount } from "../support/tool-loop-model.js";
import { collectDurable } from "../support/collect.js";

// Sessions whose model calls stream while several clients follow each, on a worker whose sticky queue timeout is
// 100 ms: the trio (live output as rejected updates, queries, a workflow task in flight) in which the SDK's core can
// complete the workflow task carrying an activity's result with no command (docs/architecture.md, "A defect of the
// SDK"; `npm run bench -- sdk-race` reproduces it on a workflow of a few lines). The session must not stop, must
// never take a result with no command, and every follower must get every event once with the whole text.

const SESSIONS = 8;
/** Tool calls per run: each turn streams, then calls the tool; the last answers. */
const CALLS = 30;
/** Followers of each session. */
const FOLLOWERS = 3;
const CHUNKS_PER_CALL = 10;
/** Between chunks: a call streams for ~100 ms, long enough for its live output to go out in several batches. */
const CHUNK_GAP_MS = 12;
/** A session whose history has not grown for this long, before its run ended, has stopped. */
const STOPPED_AFTER_MS = 45_000;

/** What every run streams, call after call. */
const STREAMED_TEXT = Array.from({ length: CALLS + 1 }, (_, call) =>
  Array.from({ length: CHUNKS_PER_CALL }, (_, chunk) => `${call}.${chunk} `).join(""),
).join("");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Streams a few chunks of text on every turn, then calls `note` until the conversation holds CALLS results. */
const streamingLoop: ModelProvider = {
  id: "streaming-loop",
  async *stream(request): AsyncIterable<ModelChunk> {
    const results = toolResultCount(request);
    for (let chunk = 0; chunk < CHUNKS_PER_CALL; chunk++) {
      await sleep(CHUNK_GAP_MS);
      yield { type: "text_delta", text: `${results}.${chunk} ` };
    }
    const content =
      results >= CALLS
        ? [{ type: "text" as const, text: `noted ${results}` }]
        : [{ type: "tool_call" as const, id: `n${results}`, name: "note", input: { n: results } }];
    yield {
      type: "message_done",
      message: { role: "assistant", content },
      usage: { inputTokens: 1, outputTokens: 1 },
    };
  },
};

const note = defineTool({
  name: "note",
  description: "notes a number",
  schema: z.object({ n: z.number() }),
  execute: ({ n }) => `noted ${n}`,
});

const streamer = defineAgent({
  name: "followed-streamer",
  model: "streaming-loop",
  tools: [note],
  maxTurns: CALLS + 2,
});

/**
 * Rejects once the session's history stops growing for STOPPED_AFTER_MS before `ended` settles, naming its last
 * events: a stopped session fails the test at once and says where it stopped, instead of a bare timeout.
 */
async function failIfStopped(
  client: AgentClient,
  sessionId: string,
  ended: Promise<unknown>,
): Promise<never> {
  let finished = false;
  void ended.finally(() => (finished = true)).catch(() => undefined);
  let length = 0;
  let grewAt = Date.now();
  for (;;) {
    await sleep(1_000);
    if (finished) return new Promise<never>(() => undefined);
    const events = (await client.session(sessionId).workflow.fetchHistory()).events ?? [];
    if (events.length > length) [length, grewAt] = [events.length, Date.now()];
    if (Date.now() - grewAt < STOPPED_AFTER_MS) continue;
    const tail = events.slice(-6).map((event) => `${String(event.eventId)} ${event.eventType ?? "?"}`);
    throw new Error(
      `session ${sessionId} stopped: no new history event for ${STOPPED_AFTER_MS / 1000} s; its last: ${tail.join(", ")}`,
    );
  }
}

describe("followed sessions whose model calls stream, on a worker with a 100 ms sticky queue timeout", () => {
  const taskQueue = uniqueTaskQueue("followed-streaming");
  let worker: RunningWorker;
  let client: AgentClient;

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [streamer],
      providers: { "streaming-loop": streamingLoop },
      workerOptions: { stickyQueueScheduleToStartTimeout: "100ms" },
    });
    client = await connectTestClient(taskQueue);
  });
  afterAll(async () => {
    await client?.close();
    await worker?.stop();
  });

  it("every run finishes and its follower gets every event once, in order, with the live text", async () => {
    const followed = (
      await Promise.all(
        Array.from({ length: SESSIONS }, async (_, index) => {
          const sessionId = `followed-streaming-${index}-${Math.random().toString(36).slice(2, 8)}`;
          const run = await client.start("followed-streamer", "note every number", { sessionId });
          // Several followers a session: each asks the session's worker on its own.
          const followers = Array.from({ length: FOLLOWERS }, () =>
            collectDurable(client.session(sessionId).events(run.runId, { fromOffset: run.offset })),
          );
          const all = Promise.all(followers);
          const outcomes = await Promise.race([all, failIfStopped(client, sessionId, all)]);
          return outcomes.map((outcome) => ({ ...outcome, start: run.offset, sessionId }));
        }),
      )
    ).flat();
    // A session that met the defect still finishes here (a later task, such as the wake-up timer's, sets it going):
    // the task that took a model call's or tool's result with no command is the evidence.
    const empty = await Promise.all(
      followed.map(async ({ sessionId }) => {
        const history = await client.session(sessionId).workflow.fetchHistory();
        return { sessionId, tasks: resultsTakenWithNoCommand(history) };
      }),
    );
    expect(empty.filter(({ tasks }) => tasks.length > 0)).toEqual([]);
    for (const { events, result, start } of followed) {
      expect(result).toMatchObject({ stopReason: "stop", text: `noted ${CALLS}` });
      const offsets = events.filter((event) => event.deltaId === undefined).map((event) => event.offset);
      expect(offsets).toEqual(Array.from({ length: offsets.length }, (_, n) => start + n));
      expect(events.filter((event) => event.type === "tool_call_end")).toHaveLength(CALLS);
      const text = events.map((event) => (event.type === "text_delta" ? event.text : "")).join("");
      expect(text).toBe(STREAMED_TEXT);
    }
  }, 180_000);
});
