import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { temporalDeltaTransport } from "../../src/stream/delta-transport.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { PROGRESS_UPSERT_INTERVAL_MS } from "../../src/workflows/session/session-visibility.js";
import { collect } from "../support/collect.js";
import { restTool } from "../support/rest-tool.js";
import { Gate } from "../replay/recorder/gate.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";
import {
  scheduledActivities,
  searchAttributeUpserts,
  startedTimers,
  type SearchAttributeUpsert,
} from "../replay/history-events.js";

const USAGE = { inputTokens: 10, outputTokens: 5 };
const PRICE = { inputPerMillion: 2, outputPerMillion: 8 };

const add = defineTool({
  name: "add",
  description: "Adds two numbers.",
  schema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});

/** Holds its run until the test opens `holdRelease`. */
const holdEntered = new Gate();
const holdRelease = new Gate();
const hold = defineTool({
  name: "hold",
  description: "Waits for the test.",
  schema: z.object({}),
  execute: async () => {
    holdEntered.open();
    await holdRelease.opened;
    return "released";
  },
});

/** Four sums, then the answer: five quick turns of 15 tokens each, priced. */
const quick = defineAgent({
  name: "quick",
  model: "quick",
  tools: [add],
  budget: { prices: { quick: PRICE } },
});
const quickModel = conversationScript([
  ...[1, 2, 3, 4].map((n) =>
    toolCallTurn([{ id: `q${n}`, name: "add", input: { a: n, b: n } }], undefined, USAGE),
  ),
  textTurn("Four sums done.", USAGE),
]);

/** A sum, a rest longer than the progress interval, a hold, then the answer. */
const patient = defineAgent({ name: "patient", model: "patient", tools: [add, restTool, hold] });
const patientModel = conversationScript([
  toolCallTurn([{ id: "p1", name: "add", input: { a: 1, b: 1 } }], undefined, USAGE),
  toolCallTurn([{ id: "p2", name: "rest", input: {} }], undefined, USAGE),
  toolCallTurn([{ id: "p3", name: "hold", input: {} }], undefined, USAGE),
  textTurn("Rested and held.", USAGE),
]);

const providers = { quick: quickModel, patient: patientModel };

/** The session's own upserts (a `patched()` in a user's workflow code upserts only `TemporalChangeVersion`). */
function sessionUpserts(upserts: SearchAttributeUpsert[]): SearchAttributeUpsert[] {
  return upserts.filter((upsert) => "AgentStatus" in upsert.values);
}

describe("search attributes: AgentStatus at once, a run's progress at most every PROGRESS_UPSERT_INTERVAL_MS", () => {
  let live: RunningWorker;
  let quiet: RunningWorker;
  let client: AgentClient;
  let quietClient: AgentClient;
  const liveQueue = uniqueTaskQueue("search-attributes-live");
  const quietQueue = uniqueTaskQueue("search-attributes-quiet");

  beforeAll(async () => {
    [live, quiet] = await Promise.all([
      startTestWorker({
        taskQueue: liveQueue,
        agents: [quick, patient],
        providers,
        deltas: temporalDeltaTransport(),
      }),
      startTestWorker({ taskQueue: quietQueue, agents: [quick], providers, deltas: false }),
    ]);
    // Live output is read from the session (the workers' transport), whatever REDIS_URL says.
    const temporal = (await testClient(liveQueue)).temporal;
    client = new AgentClient(temporal, { taskQueue: liveQueue, deltas: "temporal" });
    quietClient = new AgentClient(temporal, { taskQueue: quietQueue, deltas: "temporal" });
  });
  afterAll(async () => {
    await Promise.all([live?.stop(), quiet?.stop()]);
  });

  const history = (sessionId: string) => client.session(sessionId).workflow.fetchHistory();
  type History = Awaited<ReturnType<typeof history>>;
  /**
   * The session's history once the workflow task that ended its run is recorded (its `done` can be read before):
   * when its last upsert says `idle`.
   */
  const historyAfterRun = async (sessionId: string, agentClient = client): Promise<History> => {
    const read = () => agentClient.session(sessionId).workflow.fetchHistory();
    await expect
      .poll(async () => sessionUpserts(searchAttributeUpserts(await read())).at(-1)?.values.AgentStatus, {
        timeout: 15_000,
        interval: 250,
      })
      .toBe("idle");
    return read();
  };
  const listed = async (query: string, sessionId: string) => {
    for await (const listing of client.list({ query: `${query} AND WorkflowId = "${sessionId}"` }))
      return listing.searchAttributes;
    return undefined;
  };

  it("a run upserts its exact turns, tokens and cost when it ends, and its progress no more often than the interval", async () => {
    const sessionId = `quick-${randomUUID()}`;
    const { result } = await collect(client.run("quick", "Add four times.", { sessionId }));
    expect(result.stopReason).toBe("stop");
    const status = await client.session(sessionId).describe();
    expect(status.turns).toBe(5);
    expect(status.usage).toEqual({ inputTokens: 50, outputTokens: 25 });
    expect(status.cost).toBeGreaterThan(0);

    // The run's `done` can be read before the workflow task that ends it is recorded: wait for its last upsert.
    const upsertsOf = async () => sessionUpserts(searchAttributeUpserts(await history(sessionId)));
    await expect
      .poll(async () => (await upsertsOf()).at(-1)?.values, { timeout: 15_000, interval: 250 })
      .toEqual({
        AgentName: "quick",
        AgentStatus: "idle",
        AgentTurns: 5,
        AgentTokens: 75,
        AgentCost: status.cost,
      });
    const upserts = await upsertsOf();
    // While the run went on, each upsert of its progress came at least the interval after the one before, by the
    // times workers recorded (a workflow task that timed out can put workflow time further apart than those).
    const running = upserts.filter((upsert) => upsert.values.AgentStatus === "running");
    expect(running[0]?.values.AgentTurns).toBe(0);
    for (let index = 1; index < running.length; index++) {
      expect(running[index]!.recordedTimeMs - running[index - 1]!.recordedTimeMs).toBeGreaterThanOrEqual(
        PROGRESS_UPSERT_INTERVAL_MS,
      );
    }
    // What operators search on is the exact end of the run.
    await expect
      .poll(() => listed("AgentTurns = 5", sessionId), { timeout: 15_000, interval: 250 })
      .toMatchObject({ AgentStatus: ["idle"], AgentTokens: [75], AgentCost: [status.cost] });
  });

  it("a long run shows its progress while it goes on, once the interval has passed", async () => {
    const sessionId = `patient-${randomUUID()}`;
    const run = await client.start("patient", "Add, rest, hold.", { sessionId });
    await holdEntered.opened;
    // The run waits in `hold`, its third turn; the end of the turn that rested upserted the progress.
    await expect
      .poll(() => listed(`AgentTurns >= 2 AND AgentTokens >= 30`, sessionId), {
        timeout: 15_000,
        interval: 250,
      })
      .toMatchObject({ AgentStatus: ["running"] });
    holdRelease.open();
    const { result } = await collect(client.session(sessionId).events(run.runId, { fromOffset: run.offset }));
    expect(result.stopReason).toBe("stop");

    // The run's `done` can be read before the workflow task that ends it is recorded: wait for its last upsert.
    const upsertsOf = async () => sessionUpserts(searchAttributeUpserts(await history(sessionId)));
    await expect
      .poll(async () => (await upsertsOf()).at(-1)?.values, { timeout: 15_000, interval: 250 })
      .toMatchObject({ AgentStatus: "idle", AgentTurns: 4, AgentTokens: 60 });
    const running = (await upsertsOf()).filter((upsert) => upsert.values.AgentStatus === "running");
    expect(running.length).toBeGreaterThanOrEqual(2);
    expect(running[1]!.recordedTimeMs - running[0]!.recordedTimeMs).toBeGreaterThanOrEqual(
      PROGRESS_UPSERT_INTERVAL_MS,
    );
  });

  it("a run whose model calls stream starts no timer, whether its live output reaches the session or not", async () => {
    const timersOfRun = async (agentClient: AgentClient) => {
      const sessionId = `no-timers-${randomUUID()}`;
      await collect(agentClient.run("quick", "Add four times.", { sessionId }));
      const events = await historyAfterRun(sessionId, agentClient);
      return { modelCalls: scheduledActivities(events, "callModel").length, timers: startedTimers(events) };
    };
    expect(await timersOfRun(client)).toEqual({ modelCalls: 5, timers: [] });
    expect(await timersOfRun(quietClient)).toEqual({ modelCalls: 5, timers: [] });
  });
});
