import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../src/agent.js";
import { defineAgent, toAgentPlan } from "../../src/define-agent.js";
import { localAgentConfig } from "../../src/local-agent-config.js";
import { askUserTool } from "../../src/kernel/builtin-tools/ask-user-tool.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { collect } from "../support/collect.js";

const refund = defineTool({
  name: "refund",
  description: "refunds",
  schema: z.object({ order: z.number() }),
  execute: ({ order }) => `refunded ${order}`,
  retry: "idempotent",
  timeoutMs: 5_000,
});
const support = defineAgent({
  name: "support",
  model: "m-1",
  tools: [refund, askUserTool()],
  permission: { ask: ["refund"] },
  system: "help",
});
const script = () =>
  fakeProvider([toolCallTurn([{ id: "r", name: "refund", input: { order: 7 } }]), textTurn("ok")]);

describe("defineAgent", () => {
  it("gives a serialisable plan with tool specs, retry classes and defaults", () => {
    const plan = toAgentPlan(support);
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
    expect(plan).toMatchObject({
      name: "support",
      model: "m-1",
      codec: "native",
      maxTurns: 50,
      maxParallelTools: 10,
      system: "help",
    });
    expect(plan.tools[0]).toMatchObject({
      name: "refund",
      retry: "idempotent",
      timeoutMs: 5_000,
      parameters: { type: "object" },
    });
    expect(plan.tools[1]).toMatchObject({ name: "ask_user", retry: "at-most-once", builtin: "ask_user" });
  });

  it("refuses bad names and duplicate tools", () => {
    expect(() => defineAgent({ name: "has space", model: "m" })).toThrow(/must start with a letter or digit/);
    expect(() => defineAgent({ name: "twice", model: "m", tools: [refund, refund] })).toThrow(
      /two tools named 'refund'/,
    );
  });

  it("runs in-process with the same permission rules: the approval handler decides", async () => {
    const asked: string[] = [];
    const approval = {
      request: (call: { name: string }) => (
        asked.push(call.name),
        { decision: "allow" as const, actor: "me" }
      ),
    };
    const { events, result } = await collect(
      createAgent(localAgentConfig(support, script(), { approval })).run("refund 7"),
    );
    expect(asked).toEqual(["refund"]);
    expect(events.find((e) => e.type === "approval_resolved")).toMatchObject({
      decision: "allow",
      actor: "me",
    });
    expect(result.messages.at(-2)).toMatchObject({
      content: [{ type: "tool_result", content: "refunded 7" }],
    });
  });

  it("without an approval handler, ask verdicts are denied", async () => {
    const { events } = await collect(createAgent(localAgentConfig(support, script())).run("refund 7"));
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({
      result: { content: "Error: denied by user", isError: true },
    });
  });

  it("ask_user uses the input handler in-process", async () => {
    const model = fakeProvider([
      toolCallTurn([{ id: "q", name: "ask_user", input: { question: "Name?" } }]),
      textTurn("hi"),
    ]);
    const input = { request: () => ({ text: "Ada" }) };
    const { events } = await collect(
      createAgent(localAgentConfig(support, model, { input })).run("greet me"),
    );
    const types = events.map((e: AgentEvent) => e.type);
    expect(types.indexOf("input_request")).toBeLessThan(types.indexOf("input_resolved"));
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ result: { content: "Ada" } });
  });
});
