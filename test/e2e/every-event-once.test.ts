import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectDurable } from "../support/collect.js";
import type { AgentClient, DurableEvent } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { RunResult } from "../../src/kernel/vocabulary/events.js";
import { replayMode } from "../support/forced-replay.mjs";
import { connectTestClient, startTestWorker, uniqueTaskQueue } from "../support/temporal.js";
import { pageReader, pageTool } from "../support/tool-loop-model.js";

const TURNS = 160;
/**
 * How long the run and its followers may take. Without a workflow cache every workflow task and every read (a query)
 * replays the execution: the run took 170 s beside the rest of the suite on two cores (33 s alone), steadily, with
 * no stall. The test checks what arrives, not how fast.
 */
const SETUP_TIMEOUT_MS = replayMode() === "no-cache" ? 400_000 : 120_000;
/** 4 KB a tool result: the 256 KB the session carries across continue-as-new are about 55 turns of this run. */
const page = pageTool(4_096);
const fastReader = defineAgent({
  name: "fast-reader",
  model: "scripted",
  tools: [page],
  maxTurns: TURNS + 10,
  // Continues as new every ~100 history events: every 8 turns or so, in the middle of the run.
  durable: { continueAsNew: { maxHistoryEvents: 100 } },
});

/** A follower's events up to the run's end, and the run's result. */
interface Followed {
  events: DurableEvent[];
  result: RunResult;
}

/** The stream offsets a reader got, one per durable event (live text carries the offset of the event before it). */
function durableOffsets(events: DurableEvent[]): number[] {
  return events.filter((event) => event.deltaId === undefined).map((event) => event.offset);
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, index) => from + index);
}

describe("a follower of a fast run that continues as new every ~100 history events", () => {
  const taskQueue = uniqueTaskQueue("every-event");
  const sessionId = `every-event-${Math.random().toString(36).slice(2, 10)}`;
  let client: AgentClient;
  let stopWorker: () => Promise<void>;
  let start: number;
  let whole: Followed;
  let resumed: Followed;
  let pausedAt: number;
  let runStartInStatus: number | undefined;

  beforeAll(async () => {
    const worker = await startTestWorker({
      agents: [fastReader],
      providers: { scripted: pageReader(TURNS) },
      taskQueue,
    });
    stopWorker = worker.stop;
    client = await connectTestClient(taskQueue);
    const run = await client.start("fast-reader", "read every page", { sessionId });
    start = run.offset;
    // Read while the run goes on: a fast run can end soon.
    runStartInStatus = (await client.session(sessionId).describe()).currentRun?.offset;
    // One follower reads the run as it goes; another reads its first events, lets go (a client that disconnects),
    // and comes back only once the run is far past what the session carries across continue-as-new. How far the run
    // is comes from the first follower, not from queries: a session that runs this fast without a workflow cache is
    // evicted after every task, and a query that waited for one is dropped (docs/operations.md).
    let newest = start;
    const following = collectDurable(
      tap(
        client.session(sessionId).events(run.runId, { fromOffset: start }),
        (event) => (newest = event.offset),
      ),
    );
    const first: DurableEvent[] = [];
    for await (const event of client.session(sessionId).events(run.runId, { fromOffset: start })) {
      first.push(event);
      if (event.offset >= start + 30) break;
    }
    pausedAt = first.at(-1)!.offset;
    let ended = false;
    void following.finally(() => (ended = true));
    while (!ended && newest < pausedAt + 1_000) await new Promise((resolve) => setTimeout(resolve, 100));
    const rest = await collectDurable(
      client.session(sessionId).events(run.runId, { fromOffset: pausedAt + 1 }),
    );
    resumed = { events: [...first, ...rest.events], result: rest.result };
    whole = await following;
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await client?.close();
    await stopWorker?.();
  });

  it("the session's status names where the run's events begin (where `lite-agent watch` starts)", () => {
    expect(runStartInStatus).toBe(start);
  });

  it("the follower that read along gets every offset exactly once, in order", () => {
    expect(whole.result.text).toBe(`read ${TURNS - 1} pages`);
    const done = whole.events.at(-1)!;
    expect(done.type).toBe("done");
    expect(durableOffsets(whole.events)).toEqual(range(start, done.offset + 1));
  });

  // Reading behind the kept window replays earlier executions: seconds of CPU each, more on a loaded machine.
  it("the follower that let go and came back far behind gets every offset exactly once, in order", async () => {
    const executions = [];
    for await (const info of client.temporal.workflow.list({ query: `WorkflowId = "${sessionId}"` }))
      executions.push(info.runId);
    expect(executions.length).toBeGreaterThan(10);

    expect(resumed.result.text).toBe(`read ${TURNS - 1} pages`);
    const done = whole.events.at(-1)!;
    expect(durableOffsets(resumed.events)).toEqual(range(start, done.offset + 1));
    // The same events as the follower that read along, turn by turn.
    const durable = (events: DurableEvent[]) => events.filter((event) => event.deltaId === undefined);
    expect(durable(resumed.events).map((event) => event.type)).toEqual(
      durable(whole.events).map((event) => event.type),
    );
    const turns = resumed.events.filter((event) => event.type === "turn_start").map((event) => event.turn);
    expect(turns).toEqual(range(1, TURNS + 1));
  }, 90_000);

  it("where an earlier execution's history is gone, the follower gets one events_lost for it, then every other offset once", async () => {
    const executions: string[] = [];
    for await (const info of client.temporal.workflow.list({ query: `WorkflowId = "${sessionId}"` }))
      executions.push(info.runId);
    const oldest = await firstExecution(client, sessionId);
    expect(executions).toContain(oldest);
    // What retention does to an old execution.
    await client.temporal.workflowService.deleteWorkflowExecution({
      namespace: client.temporal.options.namespace,
      workflowExecution: { workflowId: sessionId, runId: oldest },
    });
    while (await historyExists(client, sessionId, oldest))
      await new Promise((resolve) => setTimeout(resolve, 100));

    const run = whole.events[0]!.runId;
    const { events, result } = await collectDurable(
      client.session(sessionId).events(run, { fromOffset: start }),
    );
    expect(result.text).toBe(`read ${TURNS - 1} pages`);
    const lost = events.filter((event) => event.type === "events_lost");
    expect(lost).toHaveLength(1);
    const [gap] = lost as Extract<DurableEvent, { type: "events_lost" }>[];
    expect(gap).toMatchObject({ from: start, offset: gap!.to - 1 });
    expect(gap!.to).toBeGreaterThan(start);
    expect(events[0]).toBe(gap);
    const done = whole.events.at(-1)!;
    expect(durableOffsets(events.slice(1))).toEqual(range(gap!.to, done.offset + 1));
  }, 90_000);
});

/** The events of `run`, each shown to `see` as it passes. */
async function* tap<E, R>(run: AsyncGenerator<E, R>, see: (event: E) => void): AsyncGenerator<E, R> {
  for (;;) {
    const next = await run.next();
    if (next.done) return next.value;
    see(next.value);
    yield next.value;
  }
}

/** The session's first execution: the one that continued as new from no other. */
async function firstExecution(client: AgentClient, sessionId: string): Promise<string> {
  let runId = (await client.temporal.workflow.getHandle(sessionId).describe()).runId;
  for (;;) {
    const history = await client.temporal.workflow.getHandle(sessionId, runId).fetchHistory();
    const from: string | null | undefined =
      history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
    if (!from) return runId;
    runId = from;
  }
}

async function historyExists(client: AgentClient, sessionId: string, runId: string): Promise<boolean> {
  return client.temporal.workflow
    .getHandle(sessionId, runId)
    .fetchHistory()
    .then(
      () => true,
      () => false,
    );
}
