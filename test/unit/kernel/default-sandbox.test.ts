import { MockActivityEnvironment } from "@temporalio/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentRegistry } from "../../../src/activities/agent-registry.js";
import { createExecuteTool } from "../../../src/activities/execute-tool.js";
import { createAgent } from "../../../src/agent.js";
import { defineAgent } from "../../../src/define-agent.js";
import { nativeCodec } from "../../../src/kernel/codecs/index.js";
import { noopSandbox } from "../../../src/kernel/vocabulary/noop-sandbox.js";
import { defineTool, type Sandbox } from "../../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";

/** A tool that reports how the sandbox it was given wraps `ls`. */
const wrapping = defineTool({
  name: "wrapping",
  description: "shows the sandbox",
  schema: z.object({}),
  execute: async (_input, ctx) => `${ctx.sandbox?.id}:${await ctx.sandbox?.wrap("ls", { cwd: "/" })}`,
});

async function inProcess(sandbox?: Sandbox): Promise<string> {
  const model = fakeProvider([toolCallTurn([{ id: "t1", name: "wrapping", input: {} }]), textTurn("ok")]);
  const agent = createAgent({
    model,
    codec: nativeCodec(),
    tools: [wrapping],
    ...(sandbox ? { sandbox } : {}),
  });
  const result = await agent.send("go");
  const block = result.messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content));
  const found = block.find((b) => b.type === "tool_result");
  return found?.type === "tool_result" ? String(found.content) : "";
}

describe("noopSandbox", () => {
  it("wraps nothing: the command comes back as given", async () => {
    const sandbox = noopSandbox();
    expect(sandbox.id).toBe("noop");
    expect(await sandbox.wrap("rm -rf build", { cwd: "/tmp" })).toBe("rm -rf build");
  });

  it("is what an in-process tool gets when the agent configures no sandbox", async () => {
    expect(await inProcess()).toBe("noop:ls");
  });

  it("gives way to the agent's own sandbox", async () => {
    expect(await inProcess({ id: "jail", wrap: (command) => `jail -- ${command}` })).toBe("jail:jail -- ls");
  });

  it("is what a durable tool gets in the executeTool activity", async () => {
    const registry = new AgentRegistry([defineAgent({ name: "a", model: "m", tools: [wrapping] })], {});
    const executeTool = createExecuteTool(registry);
    const input = {
      agent: "a",
      sessionId: "s",
      runId: "r",
      turn: 1,
      call: { id: "c", name: "wrapping", input: {} },
    };
    expect(await new MockActivityEnvironment().run(executeTool, input)).toEqual({ content: "noop:ls" });
  });
});
