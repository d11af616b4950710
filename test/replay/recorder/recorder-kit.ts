import { z } from "zod";
import type { ProviderMap } from "../../../src/activities/index.js";
import { defineAgent, type AgentDefinition } from "../../../src/define-agent.js";
import { AbortError, ProviderError } from "../../../src/kernel/vocabulary/errors.js";
import type { ModelChunk, ModelProvider, ModelRequest } from "../../../src/kernel/vocabulary/model.js";
import { defineTool, type ToolContext } from "../../../src/kernel/vocabulary/tools.js";
import { DEFAULT_SUMMARY_PROMPT } from "../../../src/kernel/compaction/llm-compactor.js";
import { askUserTool } from "../../../src/kernel/builtin-tools/ask-user-tool.js";
import type { Message } from "../../../src/kernel/vocabulary/messages.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { conversationScript } from "../../../src/testing/conversation-script.js";
import { Gate } from "./gate.js";
import { implementEffect } from "../../../src/kernel/vocabulary/effects.js";
import { retry } from "../../../src/kernel/middleware/retry-middleware.js";
import { delegateTool } from "../../../src/subagents/delegate-tool.js";
import { recordCall, recordCalls, systemNote } from "../../e2e/fixtures/middleware/audit-middleware.js";
import { everythingServer } from "../../support/mcp-servers.js";
import { restTool } from "../../support/rest-tool.js";

/** The workflow-safe middleware modules the recorder's agents use: the replay bundle must hold them too. */
export const RECORDER_MIDDLEWARE_MODULES = [
  new URL("../../e2e/fixtures/middleware/audit-middleware.ts", import.meta.url).href,
];

/** The subagent scenario's delegated task. */
export const SUBAGENT_TASK = {
  display_name: "sum",
  subagent_type: "replay-subagent-child",
  prompt: "Add 2 and 2.",
};

/** The background-limits scenario's delegated task. */
const LIMITS_TASK = { ...SUBAGENT_TASK, subagent_type: "replay-background-limits-child" };

/** The background-limits scenario's detached group: its child waits for the recorder's approval of this call. */
export const LIMITS_CHILD_CALL_ID = "s1";

/** The longest a slow tool waits for its cancellation before giving up (so a broken cancel cannot hang the recorder). */
const SLOW_TOOL_CEILING_MS = 30_000;

/** The gates a scenario uses to act while a tool is running on the worker. */
export interface RecorderGates {
  /** `hold` entered; it returns once `holdRelease` opens. */
  holdEntered: Gate;
  holdRelease: Gate;
  /** `slow` entered; it returns once cancelled (`slowExited`). */
  slowEntered: Gate;
  slowExited: Gate;
  /** The interrupt scenario's first model call started; it ends once cancelled (`modelExited`). */
  modelEntered: Gate;
  modelExited: Gate;
}

/** What the interrupt scenario steers in; the scripted model answers once it sees it. */
export const INTERRUPT_MESSAGE = "new direction";

/** The size of the stored-payload scenario's tool result: above the 128 KiB storage threshold, one blob. */
export const LARGE_RESULT_CHARS = 300 * 1024;

/** The agents, scripted models and gates of the recording scenarios. */
export interface RecorderKit {
  agents: AgentDefinition[];
  /** Agents served by a worker without live output (`deltas: false`), on the same base task queue. */
  quietAgents: AgentDefinition[];
  providers: ProviderMap;
  gates: RecorderGates;
}

const add = defineTool({
  name: "add",
  description: "Adds two numbers.",
  schema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});

/** Asks a fork of the agent (a child session that may only add) for a sum, and answers with what it said. */
const forkAdd = defineTool({
  name: "fork_add",
  description: "Has a fork of the agent add two numbers.",
  schema: z.object({ a: z.number(), b: z.number() }),
  retry: "idempotent",
  async execute({ a, b }, ctx) {
    const result = await ctx.fork!(`${FORK_PROMPT} ${a} and ${b}.`, { tools: [add] });
    return `the fork says: ${result.text}`;
  },
});

/** Emits an event while it works: its result carries the window of its events (docs/decisions/0021). */
const shout = defineTool({
  name: "shout",
  description: "Upper-cases a text.",
  schema: z.object({ text: z.string() }),
  execute: ({ text }, ctx) => {
    ctx.emit({ type: "diagnostic", level: "info", code: "shouting", message: text });
    return text.toUpperCase();
  },
});

/** A page of about 1,500 characters: two of them fill the context-engine scenario's window. */
const readPage = defineTool({
  name: "read_page",
  description: "Reads a page.",
  schema: z.object({ n: z.number() }),
  execute: ({ n }) => `page ${n}: ${"lorem ipsum ".repeat(120)}`,
});

/** The context-engine scenario's window, in tokens. */
const CONTEXT_WINDOW_TOKENS = 1_200;

/** Resolves when the signal aborts, or after `ms`; true when it aborted. */
function abortedWithin(signal: ToolContext["signal"] | undefined, ms: number): Promise<boolean> {
  if (!signal) return new Promise((resolve) => setTimeout(() => resolve(false), ms));
  if (signal.aborted) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve(true)), { once: true });
  });
}

function gatedTools(gates: RecorderGates) {
  const hold = defineTool({
    name: "hold",
    description: "Looks something up (waits for the recorder).",
    schema: z.object({ topic: z.string() }),
    execute: async ({ topic }) => {
      gates.holdEntered.open();
      await gates.holdRelease.opened;
      return `found: ${topic}`;
    },
  });
  const slow = defineTool({
    name: "slow",
    description: "A long job that runs until cancelled.",
    schema: z.object({ seconds: z.number() }),
    execute: async (_input, ctx) => {
      gates.slowEntered.open();
      const aborted = await abortedWithin(ctx.signal, SLOW_TOOL_CEILING_MS);
      gates.slowExited.open();
      return aborted ? { content: "cancelled", isError: true } : "finished without a cancel";
    },
  });
  const fetchPage = defineTool({
    name: "fetch_page",
    description: "Fetches a long page.",
    schema: z.object({ url: z.string() }),
    // Deterministic and compressible, so the committed blob costs the repository little.
    execute: ({ url }) => largePage(url),
  });
  return { hold, slow, fetchPage };
}

/** A page of LARGE_RESULT_CHARS characters: numbered lines. */
function largePage(url: string): string {
  const lines: string[] = [`page ${url}`];
  let length = lines[0]!.length;
  for (let line = 1; length < LARGE_RESULT_CHARS; line++) {
    const text = `line ${String(line).padStart(6, "0")}: the quick brown fox jumps over the lazy dog`;
    lines.push(text);
    length += text.length + 1;
  }
  return lines.join("\n").slice(0, LARGE_RESULT_CHARS);
}

/**
 * The interrupt scenario's model: the first call runs until it is cancelled (opening `modelEntered`, then
 * `modelExited`); once the conversation holds the interrupt's steer, it answers at once.
 */
function interruptibleModel(gates: RecorderGates): ModelProvider {
  const steered = (request: ModelRequest) =>
    request.messages.some(
      (message) => message.role === "user" && JSON.stringify(message.content).includes(INTERRUPT_MESSAGE),
    );
  return {
    id: "script-interrupt",
    async *stream(request, signal): AsyncIterable<ModelChunk> {
      if (steered(request)) {
        yield* answer("Going in the new direction.");
        return;
      }
      gates.modelEntered.open();
      const aborted = await abortedWithin(signal, SLOW_TOOL_CEILING_MS);
      gates.modelExited.open();
      if (aborted) throw new AbortError("model call interrupted");
      yield* answer("Finished without an interrupt.");
    },
  };
}

async function* answer(text: string): AsyncIterable<ModelChunk> {
  yield { type: "text_delta", text };
  yield {
    type: "message_done",
    message: { role: "assistant", content: [{ type: "text", text }] },
    usage: { inputTokens: 1, outputTokens: 1 },
  };
}

/** A fresh kit: agents named `replay-<scenario>`, each with its own scripted model `script-<scenario>`. */
export function createRecorderKit(): RecorderKit {
  const gates: RecorderGates = {
    holdEntered: new Gate(),
    holdRelease: new Gate(),
    slowEntered: new Gate(),
    slowExited: new Gate(),
    modelEntered: new Gate(),
    modelExited: new Gate(),
  };
  const { hold, slow, fetchPage } = gatedTools(gates);
  const subagentChild = defineAgent({
    name: "replay-subagent-child",
    model: "script-subagent-child",
    tools: [add],
  });
  // The same child, asking for approval: its detached group runs until the recorder approves.
  const limitsChild = defineAgent({
    name: "replay-background-limits-child",
    model: "script-subagent-child",
    tools: [add],
    permission: { ask: ["add"] },
  });
  const agent = (name: string, rest: Omit<AgentDefinition, "name" | "model">) =>
    defineAgent({
      name: `replay-${name}`,
      model: `script-${name}`,
      system: "You are the replay recorder's agent.",
      ...rest,
    });
  return {
    gates,
    agents: [
      agent("tool-loop", { tools: [add, shout] }),
      agent("steer-follow-up", { tools: [hold] }),
      agent("cancel", { tools: [slow], durable: { toolHeartbeatTimeoutMs: 1_000 } }),
      agent("continue-as-new", { tools: [add], durable: { continueAsNew: { maxRunsPerExecution: 2 } } }),
      agent("mid-run-continue-as-new", {
        tools: [add],
        // One continue-as-new in the middle of the run (each execution also records its patch markers).
        durable: { continueAsNew: { maxHistoryEvents: 70 } },
      }),
      agent("provider-error", {}),
      agent("closed", { tools: [add] }),
      agent("approval-wait", { tools: [add], permission: { ask: ["add"] } }),
      agent("approval-deny", { tools: [add], permission: { ask: ["add"] } }),
      agent("approvers", {
        tools: [add],
        permission: { ask: ["add"], approvers: [{ tools: "add", actors: ["recorder"] }] },
      }),
      agent("question", { tools: [askUserTool()] }),
      agent("approval-timeout", {
        tools: [add],
        permission: { ask: ["add"], approvalTimeoutMs: APPROVAL_TIMEOUT_MS, onTimeout: "deny" },
      }),
      agent("interrupt", {}),
      agent("cancel-during-approval", { tools: [add], permission: { ask: ["add"] } }),
      agent("stored-payload", { tools: [fetchPage] }),
      // A window so small that two read pages reach the level where the engine externalises seen results.
      agent("context-engine", { tools: [readPage], context: { windowTokens: CONTEXT_WINDOW_TOKENS } }),
      agent("compaction", {
        tools: [add],
        compaction: {
          strategy: "llm",
          // Above it only when the third run starts (the first two answers are long): one compaction, after which
          // the third run's sums stay far below it.
          tokenThreshold: 200,
          keepRecentTurns: 1,
          summaryModel: "script-summary",
        },
        durable: { continueAsNew: { maxHistoryEvents: COMPACTION_HISTORY_EVENTS } },
      }),
      subagentChild,
      agent("subagent", { tools: [delegateTool({ agents: [subagentChild] })] }),
      agent("background", { tools: [delegateTool({ agents: [subagentChild], backgroundKind: "joinable" })] }),
      limitsChild,
      agent("background-limits", {
        tools: [
          delegateTool({ agents: [limitsChild], backgroundKind: "joinable" }),
          delegateTool({ agents: [limitsChild], backgroundKind: "detached", name: "Detach" }),
        ],
        backgroundLimits: { maxTotal: 1 },
      }),
      // Cancelled while it joins a group whose child waits for approval: done comes after the child stopped.
      agent("cancel-background-join", {
        tools: [delegateTool({ agents: [limitsChild], backgroundKind: "joinable" })],
      }),
      agent("budget", {
        tools: [add],
        budget: { maxSessionTokens: 1_000_000, prices: { "script-budget": BUDGET_PRICE } },
      }),
      // A real MCP server from npm; the history holds its listing, so replays need no server.
      agent("mcp", { mcpServers: { everything: everythingServer({ allow: ["echo"] }) } }),
      agent("fork", { tools: [add] }),
      agent("tool-fork", { tools: [add, forkAdd] }),
      agent("middleware", {
        tools: [add],
        use: [systemNote({ note: "[note] be brief" }), recordCalls(), retry({ maxRetries: 1 })],
        effects: [implementEffect(recordCall, () => ({ count: 1 }))],
      }),
    ],
    quietAgents: [agent("fewer-turn-commands", { tools: [add, restTool] })],
    providers: {
      ...scripts(),
      "script-interrupt": interruptibleModel(gates),
      "script-compaction": compactionModel(),
      "script-summary": compactionModel(),
    },
  };
}

/**
 * The compaction scenario's history budget: its third run continues as new after a few turns, and the next
 * execution (70-odd events, one patch marker more with each new patch) stays within it.
 */
const COMPACTION_HISTORY_EVENTS = 75;

/** The compaction scenario's third prompt: the model adds until the run holds this many sums. */
export const COMPACTION_SUMS = 4;

/**
 * The compaction scenario's model (and summary model), answering from the request alone, since compaction changes
 * what a counting script would count: a summary for the summary prompt, text for a short prompt, and sums
 * until the run's turn holds COMPACTION_SUMS results.
 */
function compactionModel() {
  const sumsAfterPrompt = (messages: Message[]) => {
    const prompt = messages.findLastIndex((message) => typeof message.content === "string");
    return messages.slice(prompt + 1).filter((message) => message.role === "user").length;
  };
  return fakeProvider(
    [
      (request) => {
        if (request.system === DEFAULT_SUMMARY_PROMPT) return textTurn("Two short runs: nothing to keep.");
        const last = request.messages.findLast((message) => typeof message.content === "string");
        if (!String(last?.content).startsWith("Add")) return textTurn(`Noted. ${"n".repeat(600)}`);
        const sums = sumsAfterPrompt(request.messages);
        if (sums >= COMPACTION_SUMS) return textTurn(`${COMPACTION_SUMS} sums done.`);
        return toolCallTurn([{ id: `k${sums}`, name: "add", input: { a: sums, b: 1 } }]);
      },
    ],
    { onExhausted: "repeat-last" },
  );
}

/** How `fork_add` opens its fork's input. */
const FORK_PROMPT = "Fork: add";

/**
 * The tool-fork scenario's model, for the parent and its fork alike (a fork starts from the parent's conversation,
 * so counting answers cannot tell them apart): the fork adds, then answers; the parent forks, then answers.
 */
function toolForkModel() {
  return fakeProvider(
    [
      (request) => {
        const forkInput = request.messages.findIndex(
          (message) => typeof message.content === "string" && message.content.startsWith(FORK_PROMPT),
        );
        const own = request.messages.slice(Math.max(forkInput, 0));
        const answers = own.filter((message) => message.role === "assistant").length;
        if (forkInput >= 0)
          return answers === 0
            ? toolCallTurn([{ id: "k1", name: "add", input: { a: 2, b: 2 } }])
            : textTurn("4");
        return answers === 0
          ? toolCallTurn([{ id: "t1", name: "fork_add", input: { a: 2, b: 2 } }])
          : textTurn("The fork says 4.");
      },
    ],
    { onExhausted: "repeat-last" },
  );
}

/** The tool call id the approval scenarios decide on. */
export const APPROVAL_CALL_ID = "p1";

/** The tool call id of the question scenario's `ask_user` call. */
export const QUESTION_CALL_ID = "q1";

/** The budget scenario's price of its model, so the session's cost is a search attribute. */
const BUDGET_PRICE = { inputPerMillion: 2, outputPerMillion: 8 };

/** The approval-timeout scenario's approval timeout. */
export const APPROVAL_TIMEOUT_MS = 1_000;

/** The scripted answers; a conversation script picks the answer by how many answers the session already holds. */
function scripts(): ProviderMap {
  return {
    "script-tool-fork": toolForkModel(),
    "script-tool-loop": conversationScript([
      toolCallTurn([
        { id: "c1", name: "add", input: { a: 2, b: 3 } },
        { id: "c2", name: "shout", input: { text: "hi" } },
      ]),
      toolCallTurn([{ id: "c3", name: "add", input: { a: 5, b: 10 } }]),
      textTurn("The answer is 15 and HI."),
    ]),
    "script-steer-follow-up": conversationScript([
      toolCallTurn([{ id: "h1", name: "hold", input: { topic: "rainfall" } }]),
      textTurn("Rainfall is 800 mm a year."),
      textTurn("In short: about 800 mm."),
      textTurn("The second run's answer."),
    ]),
    "script-cancel": conversationScript([
      toolCallTurn([{ id: "s1", name: "slow", input: { seconds: 600 } }]),
      // Whatever the cancelled run leaves in the conversation, the next run's first answer is text.
      textTurn("Fresh start after the cancel."),
      textTurn("Fresh start after the cancel."),
    ]),
    "script-continue-as-new": conversationScript([
      textTurn("First run."),
      toolCallTurn([{ id: "a1", name: "add", input: { a: 1, b: 2 } }]),
      textTurn("Second run: 3."),
      textTurn("Third run, in the next execution."),
    ]),
    "script-mid-run-continue-as-new": conversationScript([
      ...Array.from({ length: 6 }, (_, index) =>
        toolCallTurn([{ id: `m${index}`, name: "add", input: { a: index, b: 1 } }]),
      ),
      textTurn("Six sums later, done."),
    ]),
    "script-provider-error": conversationScript([{ error: new ProviderError("bad", 400) }]),
    "script-fork": conversationScript([
      toolCallTurn([{ id: "f1", name: "add", input: { a: 1, b: 2 } }]),
      textTurn("1 + 2 = 3."),
      textTurn("Briefly: 3."),
    ]),
    "script-closed": conversationScript([
      toolCallTurn([{ id: "a1", name: "add", input: { a: 4, b: 4 } }]),
      textTurn("8. Closing."),
    ]),
    "script-approval-wait": conversationScript([
      toolCallTurn([{ id: APPROVAL_CALL_ID, name: "add", input: { a: 2, b: 2 } }]),
      textTurn("Approved: 4."),
    ]),
    "script-approval-timeout": conversationScript([
      toolCallTurn([{ id: APPROVAL_CALL_ID, name: "add", input: { a: 3, b: 3 } }]),
      textTurn("Nobody approved the sum, so no answer."),
    ]),
    "script-approval-deny": conversationScript([
      toolCallTurn([{ id: APPROVAL_CALL_ID, name: "add", input: { a: 7, b: 7 } }]),
      textTurn("The sum was denied, so no answer."),
    ]),
    "script-subagent": conversationScript([
      toolCallTurn([{ id: "d1", name: "Agent", input: { tasks: [SUBAGENT_TASK] } }]),
      textTurn("The child says 4."),
    ]),
    "script-background": conversationScript([
      toolCallTurn([{ id: "g1", name: "Agent", input: { tasks: [SUBAGENT_TASK], run_in_background: true } }]),
      textTurn("Waiting for the child."),
      textTurn("The child's note says 4."),
    ]),
    // A detached group, then a joinable one that maxTotal refuses; the next run reads the detached group's note.
    "script-background-limits": conversationScript([
      toolCallTurn([{ id: "d1", name: "Detach", input: { tasks: [LIMITS_TASK], run_in_background: true } }]),
      toolCallTurn([{ id: "j1", name: "Agent", input: { tasks: [LIMITS_TASK], run_in_background: true } }]),
      textTurn("The limit refused the second group."),
      textTurn("The detached child's note says 4."),
    ]),
    "script-cancel-background-join": conversationScript([
      toolCallTurn([{ id: "j1", name: "Agent", input: { tasks: [LIMITS_TASK], run_in_background: true } }]),
      textTurn("Waiting for the child."),
    ]),
    "script-subagent-child": conversationScript([
      toolCallTurn([{ id: "s1", name: "add", input: { a: 2, b: 2 } }]),
      textTurn("4"),
    ]),
    "script-budget": conversationScript([
      toolCallTurn([{ id: "b1", name: "add", input: { a: 3, b: 4 } }]),
      textTurn("7, within budget."),
    ]),
    "script-middleware": conversationScript([
      toolCallTurn([{ id: "e1", name: "add", input: { a: 1, b: 1 } }]),
      textTurn("2, recorded."),
    ]),
    "script-mcp": conversationScript([
      toolCallTurn([{ id: "x1", name: "everything__echo", input: { message: "replay" } }]),
      textTurn("Echoed."),
    ]),
    "script-approvers": conversationScript([
      toolCallTurn([{ id: APPROVAL_CALL_ID, name: "add", input: { a: 8, b: 8 } }]),
      textTurn("The approver allowed it: 16."),
    ]),
    "script-question": conversationScript([
      toolCallTurn([
        {
          id: QUESTION_CALL_ID,
          name: "ask_user",
          input: { question: "Which colour?", options: ["red", "blue"] },
        },
      ]),
      textTurn("Blue it is."),
    ]),
    "script-context-engine": conversationScript([
      toolCallTurn([{ id: "r1", name: "read_page", input: { n: 1 } }]),
      toolCallTurn([{ id: "r2", name: "read_page", input: { n: 2 } }]),
      textTurn("Two pages of lorem ipsum."),
    ]),
    "script-cancel-during-approval": conversationScript([
      toolCallTurn([{ id: APPROVAL_CALL_ID, name: "add", input: { a: 5, b: 5 } }]),
      textTurn("Never reached: the run is cancelled while the approval waits."),
    ]),
    "script-fewer-turn-commands": conversationScript([
      toolCallTurn([{ id: "w1", name: "add", input: { a: 1, b: 1 } }]),
      toolCallTurn([{ id: "w2", name: "rest", input: {} }]),
      toolCallTurn([{ id: "w3", name: "add", input: { a: 2, b: 2 } }]),
      textTurn("2 and 4, after a rest."),
    ]),
    "script-stored-payload": conversationScript([
      toolCallTurn([{ id: "f1", name: "fetch_page", input: { url: "https://example.com/long" } }]),
      textTurn("The page is long: about 300 KB of numbered lines."),
    ]),
  };
}
