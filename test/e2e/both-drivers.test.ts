import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../src/agent.js";
import type { AgentClient, DurableEvent } from "../../src/client.js";
import { defineAgent, type AgentDefinition } from "../../src/define-agent.js";
import { localAgentConfig } from "../../src/local-agent-config.js";
import { askUserTool } from "../../src/kernel/builtin-tools/ask-user-tool.js";
import type { AgentEvent, RunResult } from "../../src/kernel/vocabulary/events.js";
import type { ModelRequest } from "../../src/kernel/vocabulary/model.js";
import type { ApprovalAnswer, UserAnswer } from "../../src/kernel/permission/types.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { fakeProvider, type FakeProvider, type FakeStaticTurn } from "../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { eventShape } from "../support/event-shape.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

// The kernel's behaviours, run by both drivers: each case is one agent definition and one scripted conversation,
// run in-process (`createAgent().run()`) and durably (a session on the dev server). The two must give the same
// events, the same model requests and the same result; the case's own expectation pins the behaviour itself.

const add = defineTool({
  name: "add",
  description: "adds two numbers",
  schema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});
const echo = defineTool({
  name: "echo",
  description: "repeats a text",
  schema: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});
const explode = defineTool({
  name: "explode",
  description: "always fails",
  schema: z.object({}),
  execute: () => {
    throw new Error("the fuse was wet");
  },
});

const readPage = defineTool({
  name: "read_page",
  description: "reads a long page",
  schema: z.object({ n: z.number() }),
  execute: ({ n }) => `page ${n}: ${"lorem ipsum ".repeat(120)}`,
});

/** Scouts a question in a fork of the agent that may only add, and answers with how the fork ended. */
const scout = defineTool({
  name: "scout",
  description: "scouts a question in a fork of the agent",
  schema: z.object({ question: z.string() }),
  retry: "idempotent",
  async execute({ question }, ctx) {
    const result = await ctx.fork!(`Scout: ${question}`, { forkId: "scout", tools: [add] });
    return `${result.stopReason}: ${result.text}`;
  },
});

/**
 * The model of the fork case, for the parent and its fork alike (a fork starts from the parent's conversation, so
 * a script counting answers cannot tell them apart): the parent sends a scout, then answers; the fork adds, then
 * answers.
 */
function scoutModel(): FakeProvider {
  return fakeProvider(
    [
      (request) => {
        const scouting = request.messages.findIndex(
          (message) => typeof message.content === "string" && message.content.startsWith("Scout:"),
        );
        const own = request.messages.slice(Math.max(scouting, 0));
        const answers = own.filter((message) => message.role === "assistant").length;
        const turn =
          scouting >= 0
            ? answers === 0
              ? toolCallTurn([{ id: "k1", name: "add", input: { a: 2, b: 2 } }])
              : textTurn("4")
            : answers === 0
              ? toolCallTurn([{ id: "s1", name: "scout", input: { question: "2 + 2" } }])
              : textTurn("The scout says 4.");
        return { ...turn, usage: usage(1, 1) };
      },
    ],
    { onExhausted: "repeat-last" },
  );
}

/** What a case decides when the run asks a person: an approval by call id, or an answer to a question. */
interface Person {
  approve?(callId: string): ApprovalAnswer & object;
  answer?(callId: string): UserAnswer;
}

interface DriverCase {
  name: string;
  definition: Omit<AgentDefinition, "name" | "model">;
  turns: FakeStaticTurn[];
  /** A model computed from each request, instead of `turns` (a fresh one per driver). */
  model?: () => FakeProvider;
  /**
   * The run forks (`ctx.fork`): a durable fork is a child session, whose start and end the stream marks with
   * `subagent` events; an in-process fork runs inline. Everything else must match.
   */
  forks?: boolean;
  prompt: string;
  person?: Person;
  /** The behaviour itself, checked on the (shared) outcome. */
  expect(outcome: Outcome): void;
}

interface Outcome {
  events: AgentEvent[];
  result: RunResult;
  requests: ModelRequest[];
}

function usage(inputTokens: number, outputTokens: number) {
  return { inputTokens, outputTokens };
}
const results = ({ events }: Outcome) =>
  events.flatMap((event) => (event.type === "tool_result" ? [event.result] : []));

const CASES: DriverCase[] = [
  {
    name: "parallel-and-sequential",
    definition: { tools: [echo, add], system: "Be exact.", temperature: 0.2, maxTokens: 300 },
    turns: [
      toolCallTurn([
        { id: "p1", name: "add", input: { a: 2, b: 3 } },
        { id: "p2", name: "echo", input: { text: "hi" } },
      ]),
      toolCallTurn([{ id: "p3", name: "add", input: { a: 5, b: 10 } }], "Now the rest."),
      textTurn("15 and hi."),
    ],
    prompt: "add and echo",
    expect: (outcome) => {
      expect(outcome.result).toMatchObject({ stopReason: "stop", text: "15 and hi." });
      // Parallel calls report as they complete; the conversation keeps them in call order.
      expect(
        results(outcome)
          .map((result) => result.content)
          .sort(),
      ).toEqual(["15", "5", "hi"]);
      const answers = outcome.result.messages.flatMap((message) =>
        typeof message.content === "string"
          ? []
          : message.content.flatMap((block) => (block.type === "tool_result" ? [block.id] : [])),
      );
      expect(answers).toEqual(["p1", "p2", "p3"]);
      // Tools reach the model sorted by name, with the definition's settings.
      expect(outcome.requests[0]).toMatchObject({ system: "Be exact.", temperature: 0.2, maxTokens: 300 });
      expect(outcome.requests[0]!.tools?.map((tool) => tool.name)).toEqual(["add", "echo"]);
    },
  },
  {
    name: "malformed-arguments",
    definition: { tools: [add] },
    turns: [
      toolCallTurn([{ id: "m1", name: "add", input: { a: "two", b: 3 } }]),
      textTurn("I fixed my call."),
    ],
    prompt: "add badly",
    expect: (outcome) => {
      const [result] = results(outcome);
      expect(result).toMatchObject({ id: "m1", isError: true });
      expect(result!.content).toMatch(/a/);
      expect(outcome.result.stopReason).toBe("stop");
    },
  },
  {
    name: "unknown-tool",
    definition: { tools: [add] },
    turns: [toolCallTurn([{ id: "u1", name: "subtract", input: { a: 1, b: 1 } }]), textTurn("No such tool.")],
    prompt: "subtract",
    expect: (outcome) => {
      expect(results(outcome)).toEqual([expect.objectContaining({ id: "u1", isError: true })]);
      expect(results(outcome)[0]!.content).toContain("subtract");
    },
  },
  {
    name: "tool-throws",
    definition: { tools: [explode] },
    turns: [toolCallTurn([{ id: "t1", name: "explode", input: {} }]), textTurn("It failed.")],
    prompt: "light it",
    expect: (outcome) => {
      expect(results(outcome)).toEqual([expect.objectContaining({ id: "t1", isError: true })]);
      expect(results(outcome)[0]!.content).toContain("the fuse was wet");
    },
  },
  {
    name: "max-turns",
    definition: { tools: [add], maxTurns: 2 },
    turns: [
      toolCallTurn([{ id: "x1", name: "add", input: { a: 1, b: 1 } }]),
      toolCallTurn([{ id: "x2", name: "add", input: { a: 2, b: 2 } }]),
      textTurn("never reached"),
    ],
    prompt: "keep adding",
    expect: (outcome) => {
      expect(outcome.result.stopReason).toBe("max_turns");
      expect(outcome.requests).toHaveLength(2);
    },
  },
  {
    name: "cut-off-answer",
    definition: {},
    turns: [{ ...textTurn("The answer was cut"), stopReason: "max_tokens" }],
    prompt: "say a lot",
    expect: ({ events }) => {
      expect(events.find((event) => event.type === "turn_end")).toMatchObject({ stopReason: "max_tokens" });
    },
  },
  {
    name: "permission-policy-and-approval",
    definition: { tools: [add, explode], permission: { deny: ["explode"], ask: ["add"] } },
    turns: [
      toolCallTurn([
        { id: "a1", name: "add", input: { a: 4, b: 4 } },
        { id: "a2", name: "explode", input: {} },
      ]),
      textTurn("8, and the other was refused."),
    ],
    prompt: "add and explode",
    person: { approve: () => ({ decision: "allow", actor: "alice", reason: "fine" }) },
    expect: (outcome) => {
      const decisions = outcome.events.flatMap((event) =>
        event.type === "permission_decision" ? [[event.call.id, event.decision, event.by]] : [],
      );
      expect(decisions).toEqual(
        expect.arrayContaining([
          ["a1", "allow", "user"],
          ["a2", "deny", "policy"],
        ]),
      );
      expect(results(outcome).find((result) => result.id === "a1")?.content).toBe("8");
      expect(results(outcome).find((result) => result.id === "a2")?.isError).toBe(true);
    },
  },
  {
    name: "denied-by-a-person",
    definition: { tools: [add], permission: { ask: ["add"] } },
    turns: [toolCallTurn([{ id: "d1", name: "add", input: { a: 1, b: 2 } }]), textTurn("Understood.")],
    prompt: "add if allowed",
    person: { approve: () => ({ decision: "deny", actor: "bob", reason: "not today" }) },
    expect: (outcome) => {
      const [result] = results(outcome);
      expect(result).toMatchObject({ id: "d1", isError: true });
      expect(result!.content).toContain("not today");
    },
  },
  {
    name: "question",
    definition: { tools: [askUserTool()] },
    turns: [
      toolCallTurn([
        { id: "q1", name: "ask_user", input: { question: "Which colour?", options: ["red", "blue"] } },
      ]),
      textTurn("Blue it is."),
    ],
    prompt: "pick a colour",
    person: { answer: () => ({ selected: ["blue"] }) },
    expect: (outcome) => {
      expect(outcome.events.find((event) => event.type === "input_request")).toMatchObject({
        question: { question: "Which colour?" },
      });
      expect(results(outcome)[0]!.content).toContain("blue");
    },
  },
  {
    name: "run-budget",
    definition: { tools: [add], budget: { maxRunTokens: 100 } },
    turns: [
      { ...toolCallTurn([{ id: "b1", name: "add", input: { a: 1, b: 1 } }]), usage: usage(50, 10) },
      { ...toolCallTurn([{ id: "b2", name: "add", input: { a: 2, b: 2 } }]), usage: usage(50, 10) },
      textTurn("never reached"),
    ],
    prompt: "spend",
    expect: (outcome) => {
      expect(outcome.result.stopReason).toBe("budget");
      expect(outcome.requests).toHaveLength(2);
      expect(outcome.events.find((event) => event.type === "budget_exceeded")).toMatchObject({
        limit: "run_tokens",
        used: 120,
        max: 100,
      });
    },
  },
  {
    name: "json-codec-and-repair",
    definition: { tools: [add], codec: "json" },
    turns: [
      textTurn('{"type":"tool_calls","calls":[{"name":"add","input":{"a":1,"b":2}}]}'),
      textTurn('{"type":"tool_calls","calls":[{"name":"add","input":'),
      textTurn('{"type":"final","text":"It is 3."}'),
    ],
    prompt: "add in JSON",
    expect: (outcome) => {
      expect(results(outcome).map((result) => result.content)).toEqual(["3"]);
      expect(outcome.result).toMatchObject({ stopReason: "stop", text: "It is 3." });
      // The broken answer was sent back for repair: one request more than answers used.
      expect(outcome.requests).toHaveLength(3);
    },
  },
  {
    name: "one-tool-at-a-time",
    definition: { tools: [add], maxParallelTools: 1 },
    turns: [
      toolCallTurn([
        { id: "s1", name: "add", input: { a: 1, b: 1 } },
        { id: "s2", name: "add", input: { a: 2, b: 2 } },
        { id: "s3", name: "add", input: { a: 3, b: 3 } },
      ]),
      textTurn("2, 4, 6."),
    ],
    prompt: "add three times",
    expect: (outcome) => {
      // Serial calls report in call order.
      expect(results(outcome).map((result) => result.id)).toEqual(["s1", "s2", "s3"]);
    },
  },
  {
    name: "context-engine",
    definition: { tools: [readPage], context: { windowTokens: 1_200 } },
    turns: [
      toolCallTurn([{ id: "r1", name: "read_page", input: { n: 1 } }]),
      toolCallTurn([{ id: "r2", name: "read_page", input: { n: 2 } }]),
      textTurn("Two pages of lorem ipsum."),
    ],
    prompt: "read two pages",
    expect: (outcome) => {
      // The engine acted: the last request no longer carries the first page whole.
      const last = JSON.stringify(outcome.requests.at(-1)!.messages);
      expect(last.split("lorem ipsum").length - 1).toBeLessThan(240);
    },
  },
  {
    name: "tool-fork",
    definition: { tools: [add, scout] },
    turns: [],
    model: scoutModel,
    forks: true,
    prompt: "scout a sum",
    expect: (outcome) => {
      expect(outcome.result).toMatchObject({ stopReason: "stop", text: "The scout says 4." });
      // The fork's two model calls count toward the run.
      expect(outcome.result.usage).toEqual(usage(4, 4));
      const forked = outcome.events.filter((event) => event.forkId === "scout" && event.type !== "subagent");
      expect(forked.find((event) => event.type === "tool_result")).toMatchObject({
        result: { id: "k1", content: "4" },
      });
      expect(forked.at(-1)).toMatchObject({ type: "done", reason: "stop" });
      expect(results(outcome).find((result) => result.id === "s1")).toMatchObject({ content: "stop: 4" });
      // The fork starts from the conversation before the call, with only the tools it was given.
      expect(outcome.requests[1]!.messages).toEqual([
        { role: "user", content: "scout a sum" },
        { role: "user", content: "Scout: 2 + 2" },
      ]);
      expect(outcome.requests[1]!.tools?.map((tool) => tool.name)).toEqual(["add"]);
    },
  },
];

/** The name of a case's agent and model. */
const agentName = (name: string) => `drivers-${name}`;

function definitionOf(driverCase: DriverCase): AgentDefinition {
  const name = agentName(driverCase.name);
  return defineAgent({ name, model: name, ...driverCase.definition });
}

/** What the model saw, as it travels (JSON): a field set to undefined and an absent one compare equal. */
function requestShape(request: ModelRequest): unknown {
  return JSON.parse(JSON.stringify(request)) as unknown;
}

/**
 * Events as compared: the shared shape, with when a person decided reduced to whether it is known (the clock
 * in-process, workflow time durably), and errors to their name and message (what a durable stream carries of an
 * error).
 */
function comparable(events: AgentEvent[]): unknown[] {
  return eventShape(events).map((shaped) => {
    const event = shaped as { type: string; at?: number; error?: Error };
    if (event.type === "error" && event.error)
      return { ...event, error: { name: event.error.name, message: event.error.message } };
    if (!("at" in event)) return event;
    const { at, ...rest } = event;
    return { ...rest, at: typeof at === "number" && at > 0 };
  });
}

/** A case's model: computed from each request, or its scripted turns. */
function modelOf(driverCase: DriverCase): FakeProvider {
  return driverCase.model?.() ?? conversationScript(driverCase.turns);
}

async function runInProcess(driverCase: DriverCase, sessionId: string): Promise<Outcome> {
  const model = modelOf(driverCase);
  const person = driverCase.person;
  const agent = createAgent(
    localAgentConfig(definitionOf(driverCase), model, {
      ...(person?.approve ? { approval: { request: (call) => person.approve!(call.id) } } : {}),
      ...(person?.answer
        ? { input: { request: (_question, ctx) => person.answer!(ctx?.call?.id ?? "") } }
        : {}),
    }),
  );
  const events: AgentEvent[] = [];
  const run = agent.run(driverCase.prompt, { sessionId });
  for (;;) {
    const next = await run.next();
    if (next.done) return { events, result: next.value, requests: model.requests };
    events.push(next.value);
  }
}

async function runDurably(
  client: AgentClient,
  driverCase: DriverCase,
  model: FakeProvider,
  sessionId: string,
): Promise<Outcome> {
  const person = driverCase.person;
  const events: DurableEvent[] = [];
  const run = client.run(agentName(driverCase.name), driverCase.prompt, { sessionId });
  for (;;) {
    const next = await run.next();
    if (next.done) return { events, result: next.value, requests: model.requests };
    const event = next.value;
    events.push(event);
    if (event.type === "approval_request" && person?.approve) {
      const answer = person.approve(event.call.id);
      const options = {
        ...(answer.actor ? { actor: answer.actor } : {}),
        ...(answer.reason ? { reason: answer.reason } : {}),
      };
      if (answer.decision === "allow") await client.session(sessionId).approve(event.call.id, options);
      else await client.session(sessionId).deny(event.call.id, options);
    }
    if (event.type === "input_request" && person?.answer)
      await client.session(sessionId).answer(event.call.id, person.answer(event.call.id));
  }
}

describe("the kernel's behaviours give the same outcome in both drivers", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("drivers");
  const durableModels = new Map(CASES.map((driverCase) => [driverCase.name, modelOf(driverCase)]));

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: CASES.map(definitionOf),
      providers: Object.fromEntries(
        CASES.map((driverCase) => [agentName(driverCase.name), durableModels.get(driverCase.name)!]),
      ),
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  for (const driverCase of CASES) {
    it(driverCase.name, async () => {
      // One session id for both, as events that name their session must match.
      const sessionId = `drivers-${driverCase.name}-${Date.now()}`;
      const local = await runInProcess(driverCase, sessionId);
      const durable = await runDurably(client, driverCase, durableModels.get(driverCase.name)!, sessionId);
      driverCase.expect(local);
      driverCase.expect(durable);
      const marksChildren = (event: AgentEvent) => driverCase.forks === true && event.type === "subagent";
      if (driverCase.forks)
        expect(durable.events.filter(marksChildren).map((event) => event.type)).toEqual([
          "subagent",
          "subagent",
        ]);
      expect(comparable(durable.events.filter((event) => !marksChildren(event)))).toEqual(
        comparable(local.events),
      );
      expect(durable.requests.map(requestShape)).toEqual(local.requests.map(requestShape));
      expect({ ...durable.result, messages: durable.result.messages.length }).toEqual({
        ...local.result,
        messages: local.result.messages.length,
      });
    });
  }
});
