import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DefaultLogger, NativeConnection, Runtime } from "@temporalio/worker";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { AgentClient, type DurableEvent } from "../../src/client.js";
import type { CompactionPlan } from "../../src/contract/agent-plan.js";
import type { CallModelInput } from "../../src/contract/activity-types.js";
import { defineAgent } from "../../src/define-agent.js";
import { DEFAULT_SUMMARY_PROMPT, SUMMARY_HEADER } from "../../src/kernel/compaction/llm-compactor.js";
import type { RunResult } from "../../src/kernel/vocabulary/events.js";
import { messageText, type Message } from "../../src/kernel/vocabulary/messages.js";
import type { ModelRequest } from "../../src/kernel/vocabulary/model.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../src/providers/fake-provider.js";
import { createExternalStorage } from "../../src/storage/payload-storage.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import type { CarriedState } from "../../src/contract/carried-state.js";
import type { SessionInput } from "../../src/contract/session-input.js";
import { createWorker } from "../../src/worker.js";
import { runCliInProcess } from "../support/cli-in-process.js";

Runtime.install({ logger: new DefaultLogger("WARN") });

const PAGE = "p".repeat(2_000); // 500 tokens a page
const SUMMARY = "SUMMARY-7f3a: pages were read";

const page = defineTool({
  name: "page",
  description: "returns one 2 KB page",
  schema: z.object({ n: z.number() }),
  execute: ({ n }) => `${n}:${PAGE}`,
});

/**
 * The run's prompt (`read pages <a>-<b>`): the newest user text that asks it, the prompt itself or a summary that
 * names it (a summary may replace the run's own prompt when one run is long).
 */
function pagesAsked(messages: Message[]): [number, number] {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "user" || typeof message.content !== "string") continue;
    const match = /(?:^|asked: )read pages (\d+)-(\d+)$/.exec(message.content);
    if (match) return [Number(match[1]), Number(match[2])];
  }
  throw new Error("no 'read pages' prompt in the request");
}

/** The page number of the newest tool result after the prompt, if any. */
function lastPageRead(messages: Message[]): number | undefined {
  const last = messages.at(-1);
  if (!last || typeof last.content === "string") return undefined;
  const result = last.content.find((block) => block.type === "tool_result");
  return result?.type === "tool_result" ? Number(result.content.split(":")[0]) : undefined;
}

/** Reads the asked pages one call at a time, decided by the request alone (so compaction cannot change it). */
const reader = () =>
  fakeProvider(
    [
      (request: ModelRequest) => {
        const [first, last] = pagesAsked(request.messages);
        const read = lastPageRead(request.messages);
        if (read === last) return textTurn(`read pages ${first}-${last}`);
        const next = read === undefined ? first : read + 1;
        return toolCallTurn([{ id: `p-${next}`, name: "page", input: { n: next } }]);
      },
    ],
    { onExhausted: "repeat-last" },
  );

/** The page numbers of the tool calls in some messages. */
function pagesIn(messages: Message[]): number[] {
  return messages.flatMap((message) =>
    typeof message.content === "string"
      ? []
      : message.content.flatMap((block) =>
          block.type === "tool_call" ? [(block.input as { n: number }).n] : [],
        ),
  );
}

/** The summary model: records what it was asked. */
const summaryRequests: ModelRequest[] = [];
const summarizer = () =>
  fakeProvider(
    [
      (request: ModelRequest) => {
        summaryRequests.push(request);
        // Like a real summary, it keeps the open task: the newest prompt of the transcript (or of a summary in it).
        const transcript = String(request.messages[0]?.content ?? "");
        const asked = [...transcript.matchAll(/(?:User: |asked: )(read pages \d+-\d+)/g)].at(-1)?.[1];
        return textTurn(`${SUMMARY}; asked: ${asked ?? "nothing"}`);
      },
    ],
    { onExhausted: "repeat-last" },
  );

/** Small executions, a continue-as-new after every run too, so compacted state crosses both kinds. */
const durable = { continueAsNew: { maxHistoryEvents: 45, maxRunsPerExecution: 1 } };
const agent = (name: string, compaction?: CompactionPlan) =>
  defineAgent({ name, model: "reader", tools: [page], durable, ...(compaction ? { compaction } : {}) });
const agents = [
  agent("plain"),
  agent("compact-default", { strategy: "default", tokenThreshold: 1_200, keepRecentToolResults: 2 }),
  agent("compact-llm", {
    strategy: "llm",
    tokenThreshold: 1_200,
    keepRecentTurns: 1,
    summaryModel: "summarizer",
  }),
];
/** What the compacted form of each strategy shows. */
const COMPACTED_MARK: Record<string, string> = {
  "compact-default": "[tool result omitted to save context]",
  "compact-llm": SUMMARY_HEADER,
};
const PROMPTS = ["read pages 1-5", "read pages 6-9", "read pages 10-14", "read pages 15-18"];

describe("durable compaction of what the session carries", () => {
  const taskQueue = `compaction-${Math.random().toString(36).slice(2, 10)}`;
  const storageDir = mkdtempSync(path.join(tmpdir(), "compaction-e2e-"));
  const storage = createExternalStorage({ kind: "fs", dir: storageDir, threshold: 128 * 1024 });
  let stopWorker: () => Promise<void>;
  let client: AgentClient;
  let baseline: { transcript: Message[]; carried: number[] };

  beforeAll(async () => {
    const connection = await NativeConnection.connect({ address: inject("temporalAddress") });
    const worker = await createWorker({
      agents,
      providers: { reader: reader(), summarizer: summarizer() },
      taskQueue,
      connection,
      namespace: inject("temporalNamespace"),
      storage,
    });
    const running = worker.run();
    stopWorker = async () => {
      if (worker.getState() === "RUNNING") worker.shutdown();
      await running;
      await connection.close();
    };
    client = await AgentClient.connect({
      address: inject("temporalAddress"),
      namespace: inject("temporalNamespace"),
      taskQueue,
      storage,
    });
    const plain = await playSession("plain");
    baseline = {
      transcript: await client.session(plain.sessionId).transcript(),
      carried: await carriedSizes(plain.sessionId),
    };
  }, 240_000);
  afterAll(async () => {
    await client?.close();
    await stopWorker?.();
    rmSync(storageDir, { recursive: true, force: true });
  });

  type Played = Awaited<ReturnType<typeof playSession>> & { summaryRequests: ModelRequest[] };
  const playedSessions = new Map<string, Promise<Played>>();
  /** The session of an agent, played once for the tests that look at it. */
  function played(agentName: string): Promise<Played> {
    let session = playedSessions.get(agentName);
    if (!session) {
      summaryRequests.length = 0;
      session = playSession(agentName).then((done) => ({ ...done, summaryRequests: [...summaryRequests] }));
      playedSessions.set(agentName, session);
    }
    return session;
  }

  /** Plays the four runs in a new session of `agentName`; returns every event and each run's result. */
  async function playSession(agentName: string) {
    const sessionId = `${agentName}-${Math.random().toString(36).slice(2, 10)}`;
    const events: DurableEvent[] = [];
    const results: RunResult[] = [];
    for (const prompt of PROMPTS) {
      const run = client.run(agentName, prompt, { sessionId });
      for (;;) {
        const next = await run.next();
        if (next.done) {
          results.push(next.value);
          break;
        }
        events.push(next.value);
      }
    }
    return { sessionId, events, results };
  }

  /** Every execution's continue-as-new input, oldest first. */
  async function carriedStates(sessionId: string): Promise<CarriedState[]> {
    const runs: { runId: string; start: number }[] = [];
    for await (const info of client.temporal.workflow.list({ query: `WorkflowId = "${sessionId}"` }))
      runs.push({ runId: info.runId, start: info.startTime.getTime() });
    runs.sort((a, b) => a.start - b.start);
    const states: CarriedState[] = [];
    for (const { runId } of runs) {
      const history = await client.temporal.workflow.getHandle(sessionId, runId).fetchHistory();
      const last = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes;
      const payload = last?.input?.payloads?.[0];
      if (!payload?.data) continue;
      const input = JSON.parse(Buffer.from(payload.data).toString("utf8")) as SessionInput;
      states.push(input.carried!);
    }
    return states;
  }

  /** The JSON size of the conversation each continue-as-new carried (the run in progress's, when mid-run). */
  async function carriedSizes(sessionId: string): Promise<number[]> {
    return (await carriedStates(sessionId)).map(
      (state) => JSON.stringify(state.activeRun?.snapshot.messages ?? state.messages).length,
    );
  }

  /** The `callModel` inputs the session's histories scheduled. */
  async function modelCalls(sessionId: string): Promise<CallModelInput[]> {
    const inputs: CallModelInput[] = [];
    for await (const info of client.temporal.workflow.list({ query: `WorkflowId = "${sessionId}"` })) {
      const history = await client.temporal.workflow.getHandle(sessionId, info.runId).fetchHistory();
      for (const event of history.events ?? []) {
        const scheduled = event.activityTaskScheduledEventAttributes;
        if (scheduled?.activityType?.name !== "callModel") continue;
        const data = scheduled.input?.payloads?.[0]?.data;
        if (data) inputs.push(JSON.parse(Buffer.from(data).toString("utf8")) as CallModelInput);
      }
    }
    return inputs;
  }

  it("the baseline continues as new mid-run and between runs, carrying its whole growing conversation", () => {
    expect(baseline.carried.length).toBeGreaterThanOrEqual(PROMPTS.length + 2);
    expect(Math.max(...baseline.carried)).toBeGreaterThan(18 * PAGE.length);
    // 18 pages, each a call and a result, plus four prompts and four answers.
    expect(baseline.transcript).toHaveLength(4 * 2 + 18 * 2);
  });

  it.each([
    ["compact-default", "micro"],
    ["compact-llm", "auto"],
  ])(
    "%s: compacts, carries the compacted conversation across continue-as-new, and the transcript is every message once",
    async (agentName, kind) => {
      const session = await played(agentName);
      expect(session.results.map((result) => result.text)).toEqual(PROMPTS.map((prompt) => prompt));
      const compactions = session.events.filter((event) => event.type === "compaction");
      expect(compactions.length).toBeGreaterThan(0);
      expect(compactions.every((event) => event.type === "compaction" && event.kind === kind)).toBe(true);

      // What continue-as-new carries is the compacted form: far smaller than the baseline's, and bounded.
      const states = await carriedStates(session.sessionId);
      const sizes = states.map(
        (state) => JSON.stringify(state.activeRun?.snapshot.messages ?? state.messages).length,
      );
      // Mid-run too: a run continued as new with its conversation already compacted.
      const midRun = states.filter((state) => state.activeRun !== undefined);
      const mark = COMPACTED_MARK[agentName]!;
      expect(midRun.some((state) => JSON.stringify(state.activeRun!.snapshot.messages).includes(mark))).toBe(
        true,
      );
      expect(Math.max(...sizes)).toBeLessThan(Math.max(...baseline.carried) / 2);
      const last = states.at(-1)!;
      expect(last.transcript?.segments.length).toBeGreaterThan(0);
      expect(last.transcript!.archivedCount).toBeLessThanOrEqual(last.messages.length);

      // The archive holds the segments under the session's own folder; the transcript is the baseline's.
      const folder = path.join(storageDir, "default", "sessions", session.sessionId);
      expect(readdirSync(folder).length).toBeGreaterThanOrEqual(last.transcript!.segments.length);
      const transcript = await client.session(session.sessionId).transcript();
      expect(transcript).toEqual(baseline.transcript);
      expect(JSON.stringify(transcript)).not.toContain(SUMMARY_HEADER);

      // The summary never reaches the client's stream, nor a run's result.
      expect(JSON.stringify(session.events)).not.toContain(SUMMARY);
      expect(JSON.stringify(session.results)).not.toContain(SUMMARY);
      // Each run's done carries its own messages from the first one its last compaction kept (a long run's prompt
      // may be in a summary): they end with its answer, and every page they show is one the run asked for.
      for (const [index, result] of session.results.entries()) {
        const answer = result.messages.at(-1)!;
        expect([answer.role, messageText(answer)]).toEqual(["assistant", PROMPTS[index]]);
        const [first, last] = PROMPTS[index]!.match(/\d+/g)!.map(Number);
        for (const n of pagesIn(result.messages)) expect(n >= first! && n <= last!).toBe(true);
      }
    },
    120_000,
  );

  it("compact-llm: each summary is a callModel activity of the summary model, with the summary request, never streamed", async () => {
    const session = await played("compact-llm");
    const calls = await modelCalls(session.sessionId);
    const summaries = calls.filter((call) => call.model === "summarizer");
    expect(summaries.length).toBeGreaterThan(0);
    for (const call of summaries) {
      expect(call.requestKey).toMatch(/\/summary:\d+$/);
      expect(call.stream).toBe(false);
    }
    // The run's own calls are the agent's model, keyed apart from the summaries.
    expect(
      calls.filter((call) => call.model === "reader").every((call) => !call.requestKey.includes("/summary")),
    ).toBe(true);
    expect(session.summaryRequests.length).toBeGreaterThanOrEqual(summaries.length);
    for (const request of session.summaryRequests) {
      expect(request.system).toBe(DEFAULT_SUMMARY_PROMPT);
      expect(request.model).toBe("summarizer");
      expect(String(request.messages[0]?.content)).toContain("Summarize the conversation above.");
    }
  }, 120_000);

  it("lite-agent transcript prints the whole conversation (as text, or the same messages as JSON), summaries left out", async () => {
    const session = await played("compact-llm");
    const saved = process.env.LITE_AGENT_STORAGE_DIR;
    process.env.LITE_AGENT_STORAGE_DIR = storageDir; // the CLI takes the environment's storage, as the worker's
    try {
      const cli = (...argv: string[]) =>
        runTranscriptCli([
          "--address",
          inject("temporalAddress"),
          "--namespace",
          inject("temporalNamespace"),
          "--task-queue",
          taskQueue,
          "transcript",
          ...argv,
        ]);
      const text = await cli(session.sessionId);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain("User: read pages 1-5");
      expect(text.stdout).toContain("[result of p-1] 1:ppp");
      expect(text.stdout).toContain("Assistant: read pages 15-18");
      expect(text.stdout).not.toContain(SUMMARY);
      expect(text.stderr).toContain(`${baseline.transcript.length} messages in session ${session.sessionId}`);
      const json = await cli(session.sessionId, "--json");
      expect(JSON.parse(json.stdout)).toEqual(baseline.transcript);
    } finally {
      if (saved === undefined) delete process.env.LITE_AGENT_STORAGE_DIR;
      else process.env.LITE_AGENT_STORAGE_DIR = saved;
    }
  }, 120_000);
});

/** Runs the CLI in-process on buffers. */
const runTranscriptCli = (argv: string[]) => runCliInProcess(argv);
