import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { nativeCodec } from "../../../src/kernel/codecs/index.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import type { ToolResultBlock } from "../../../src/kernel/vocabulary/messages.js";
import type { Middleware } from "../../../src/kernel/middleware/middleware.js";
import { defineTool, type ToolContext } from "../../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { collect } from "../../support/collect.js";

/** A tool whose calls finish when the test releases them, so completion order is under the test's control. */
function gatedTool() {
  const gates = new Map<string, () => void>();
  let running = 0;
  let maxRunning = 0;
  const started: string[] = [];
  const tool = defineTool({
    name: "wait",
    description: "waits for the test",
    schema: z.object({ key: z.string() }),
    async execute({ key }) {
      started.push(key);
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise<void>((resolve) => gates.set(key, resolve));
      running--;
      return `done ${key}`;
    },
  });
  const release = async (key: string) => {
    while (!gates.has(key)) await new Promise((r) => setTimeout(r, 1));
    gates.get(key)!();
  };
  return { tool, release, started, maxRunning: () => maxRunning };
}

const calls = (keys: string[]) => keys.map((key) => ({ id: `id-${key}`, name: "wait", input: { key } }));

describe("tool phase", () => {
  it("streams events in completion order and feeds results back in call order", async () => {
    const gated = gatedTool();
    const model = fakeProvider([toolCallTurn(calls(["a", "b", "c"])), textTurn("end")]);
    const run = collect(createAgent({ model, codec: nativeCodec(), tools: [gated.tool] }).run("go"));
    await gated.release("c");
    await gated.release("a");
    await gated.release("b");
    const { events } = await run;
    const uses = events
      .filter((e) => e.type === "tool_use")
      .map((e) => (e as Extract<AgentEvent, { type: "tool_use" }>).call.id);
    expect(uses).toEqual(["id-a", "id-b", "id-c"]);
    const order = events
      .filter((e) => e.type === "tool_result")
      .map((e) => (e as Extract<AgentEvent, { type: "tool_result" }>).result.id);
    expect(order).toEqual(["id-c", "id-a", "id-b"]);
    const fedBack = model.requests[1]!.messages.at(-1)!.content as ToolResultBlock[];
    expect(fedBack.map((block) => block.id)).toEqual(["id-a", "id-b", "id-c"]);
    expect(fedBack.map((block) => block.content)).toEqual(["done a", "done b", "done c"]);
  });

  it("never runs more calls at once than maxParallelTools", async () => {
    const gated = gatedTool();
    const keys = ["a", "b", "c", "d", "e"];
    const model = fakeProvider([toolCallTurn(calls(keys)), textTurn("end")]);
    const run = collect(
      createAgent({ model, codec: nativeCodec(), tools: [gated.tool], maxParallelTools: 2 }).run("go"),
    );
    for (const key of keys) await gated.release(key);
    await run;
    expect(gated.maxRunning()).toBe(2);
    expect(gated.started).toEqual(keys);
  });

  it("maxParallelTools 1 runs the calls one after another, in order", async () => {
    const gated = gatedTool();
    const model = fakeProvider([toolCallTurn(calls(["a", "b", "c"])), textTurn("end")]);
    const run = collect(
      createAgent({ model, codec: nativeCodec(), tools: [gated.tool], maxParallelTools: 1 }).run("go"),
    );
    for (const key of ["a", "b", "c"]) await gated.release(key);
    const { events } = await run;
    expect(gated.maxRunning()).toBe(1);
    const starts = events
      .filter((e) => e.type === "tool_call_start" || e.type === "tool_call_end")
      .map((e) => e.type);
    expect(starts).toEqual([
      "tool_call_start",
      "tool_call_end",
      "tool_call_start",
      "tool_call_end",
      "tool_call_start",
      "tool_call_end",
    ]);
  });

  it("an unknown tool, invalid arguments, a throwing and a rejecting tool become error results; the run goes on", async () => {
    const strict = defineTool({
      name: "add",
      description: "adds",
      schema: z.object({ a: z.number() }),
      execute: ({ a }) => String(a + 1),
    });
    const broken = defineTool({
      name: "broken",
      description: "throws",
      schema: z.object({}),
      execute: () => {
        throw new Error("kaput");
      },
    });
    const rejecting = defineTool({
      name: "rejecting",
      description: "rejects",
      schema: z.object({}),
      execute: () => Promise.reject(new Error("later")),
    });
    const model = fakeProvider([
      toolCallTurn([
        { id: "1", name: "missing", input: {} },
        { id: "2", name: "add", input: { a: "not a number" } },
        { id: "3", name: "broken", input: {} },
        { id: "4", name: "add", input: { a: 1 } },
        { id: "5", name: "rejecting", input: {} },
      ]),
      textTurn("recovered"),
    ]);
    const result = await createAgent({
      model,
      codec: nativeCodec(),
      tools: [strict, broken, rejecting],
    }).send("go");
    expect(result.stopReason).toBe("stop");
    const blocks = model.requests[1]!.messages.at(-1)!.content as ToolResultBlock[];
    expect(blocks[0]).toEqual({
      type: "tool_result",
      id: "1",
      content: "Error: unknown tool 'missing'",
      isError: true,
    });
    expect(blocks[1]!.isError).toBe(true);
    expect(blocks[1]!.content).toMatch(/^Error: invalid arguments for tool 'add': /);
    expect(blocks[1]!.content).toContain("a");
    expect(blocks[2]).toEqual({ type: "tool_result", id: "3", content: "Error: kaput", isError: true });
    expect(blocks[3]).toEqual({ type: "tool_result", id: "4", content: "2" });
    expect(blocks[4]).toEqual({ type: "tool_result", id: "5", content: "Error: later", isError: true });
  });

  it.each([
    ["a sync tool that returns nothing", () => undefined as unknown as string],
    ["an async tool that resolves to nothing", () => Promise.resolve(undefined as unknown as string)],
  ])("%s becomes an error result, alone in its turn (the run goes on)", async (_, execute) => {
    const empty = defineTool({
      name: "empty",
      description: "returns nothing",
      schema: z.object({}),
      execute,
    });
    const model = fakeProvider([
      toolCallTurn([{ id: "e", name: "empty", input: {} }]),
      textTurn("recovered"),
    ]);
    const result = await createAgent({ model, codec: nativeCodec(), tools: [empty] }).send("go");
    expect(result.stopReason).toBe("stop");
    const [block] = model.requests[1]!.messages.at(-1)!.content as ToolResultBlock[];
    expect(block!.isError).toBe(true);
    expect(block!.content).toMatch(/^Error: /);
  });

  it("a schema whose refinement throws becomes an error result and the tool does not run", async () => {
    let ran = false;
    const picky = defineTool({
      name: "picky",
      description: "refines",
      schema: z.object({ a: z.number() }).refine(() => {
        throw new Error("refinement broke");
      }),
      execute: () => {
        ran = true;
        return "ran";
      },
    });
    const model = fakeProvider([toolCallTurn([{ id: "p", name: "picky", input: { a: 1 } }]), textTurn("ok")]);
    const result = await createAgent({ model, codec: nativeCodec(), tools: [picky] }).send("go");
    expect(result.stopReason).toBe("stop");
    const [block] = model.requests[1]!.messages.at(-1)!.content as ToolResultBlock[];
    expect(block).toEqual({
      type: "tool_result",
      id: "p",
      content: "Error: refinement broke",
      isError: true,
    });
    expect(ran).toBe(false);
  });

  it("a throwing wrapToolCall becomes an error result", async () => {
    const throwing: Middleware = { name: "t", wrapToolCall: () => Promise.reject(new Error("layer failed")) };
    const tool = defineTool({ name: "x", description: "x", schema: z.object({}), execute: () => "never" });
    const model = fakeProvider([toolCallTurn([{ id: "1", name: "x", input: {} }]), textTurn("ok")]);
    const { events } = await collect(
      createAgent({ model, codec: nativeCodec(), tools: [tool], use: [throwing] }).run("go"),
    );
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({
      result: { content: "Error: layer failed", isError: true },
    });
    expect(events.find((e) => e.type === "tool_call_end")).toMatchObject({ isError: true });
  });

  // The tool phase takes synchronous and asynchronous hooks apart (no promise for the former): both shapes of each.
  const failing: [string, Middleware][] = [
    ["a beforeToolCall hook that throws", { name: "f", beforeToolCall: () => failNow() }],
    [
      "a beforeToolCall hook that rejects",
      { name: "f", beforeToolCall: () => Promise.reject(new Error("boom")) },
    ],
    ["a wrapToolCall layer that throws", { name: "f", wrapToolCall: () => failNow() }],
  ];
  it.each(failing)("%s becomes an error result, which the afterToolCall hooks see", async (_name, layer) => {
    const seen: string[] = [];
    const after: Middleware = {
      name: "after",
      afterToolCall: (_ctx, result) => void seen.push(result.content),
    };
    const tool = defineTool({ name: "x", description: "x", schema: z.object({}), execute: () => "never" });
    const model = fakeProvider([toolCallTurn([{ id: "1", name: "x", input: {} }]), textTurn("ok")]);
    const { events, result } = await collect(
      createAgent({ model, codec: nativeCodec(), tools: [tool], use: [layer, after] }).run("go"),
    );
    expect(seen).toEqual(["Error: boom"]);
    expect(events.find((e) => e.type === "tool_call_end")).toMatchObject({
      id: "1",
      name: "x",
      isError: true,
    });
    expect(model.requests[1]!.messages.at(-1)!.content).toEqual([
      { type: "tool_result", id: "1", content: "Error: boom", isError: true },
    ]);
    expect(result.stopReason).toBe("stop");
  });

  it("tools receive the session id, the signal, emit and the call", async () => {
    let seen: ToolContext | undefined;
    const tool = defineTool({
      name: "probe",
      description: "probe",
      schema: z.object({}),
      execute: (_input, ctx) => {
        seen = ctx;
        ctx.emit({ type: "diagnostic", level: "info", code: "from-tool", message: "" });
        return "ok";
      },
    });
    const model = fakeProvider([toolCallTurn([{ id: "p1", name: "probe", input: {} }]), textTurn("ok")]);
    const { events } = await collect(
      createAgent({ model, codec: nativeCodec(), tools: [tool] }).run("go", { sessionId: "s-1" }),
    );
    expect(seen?.sessionId).toBe("s-1");
    expect(seen?.call).toEqual({ id: "p1", name: "probe", input: {} });
    expect(seen?.signal.aborted).toBe(false);
    const types = events.map((e) => (e.type === "diagnostic" ? e.code : e.type));
    expect(types.indexOf("from-tool")).toBeGreaterThan(types.indexOf("tool_call_start"));
    expect(types.indexOf("from-tool")).toBeLessThan(types.indexOf("tool_call_end"));
  });

  const skip = { action: "skip" as const, result: "prefilled" };
  it.each([
    ["a beforeToolCall hook", () => skip],
    ["an asynchronous beforeToolCall hook", () => Promise.resolve(skip)],
  ])("%s can skip a call with a result, which the afterToolCall hooks see", async (_name, beforeToolCall) => {
    const seen: string[] = [];
    let ran = false;
    const tool = defineTool({
      name: "x",
      description: "x",
      schema: z.object({}),
      execute: () => ((ran = true), "real"),
    });
    const skipper: Middleware = {
      name: "skip",
      beforeToolCall,
      afterToolCall: (_ctx, result) => void seen.push(result.content),
    };
    const model = fakeProvider([toolCallTurn([{ id: "1", name: "x", input: {} }]), textTurn("ok")]);
    await createAgent({ model, codec: nativeCodec(), tools: [tool], use: [skipper] }).send("go");
    expect(ran).toBe(false);
    expect(seen).toEqual(["prefilled"]);
    expect(model.requests[1]!.messages.at(-1)!.content).toEqual([
      { type: "tool_result", id: "1", content: "prefilled" },
    ]);
  });

  it("a beforeToolCall hook can abort the run; calls not yet run are not executed", async () => {
    const executed: string[] = [];
    const tool = defineTool({
      name: "x",
      description: "x",
      schema: z.object({ k: z.string() }),
      execute: ({ k }) => (executed.push(k), k),
    });
    const aborter: Middleware = {
      name: "abort",
      beforeToolCall: (ctx) =>
        (ctx.call.input as { k: string }).k === "stop" ? { action: "abort", reason: "dangerous" } : undefined,
    };
    const model = fakeProvider([
      toolCallTurn([
        { id: "1", name: "x", input: { k: "stop" } },
        { id: "2", name: "x", input: { k: "later" } },
      ]),
    ]);
    const { events, result } = await collect(
      createAgent({ model, codec: nativeCodec(), tools: [tool], use: [aborter], maxParallelTools: 1 }).run(
        "go",
      ),
    );
    expect(executed).toEqual([]);
    expect(result.stopReason).toBe("aborted");
    const contents = events
      .filter((e) => e.type === "tool_result")
      .map((e) => (e as Extract<AgentEvent, { type: "tool_result" }>).result.content);
    expect(contents).toEqual(["not executed: x", "not executed: x"]);
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "aborted" });
    expect(result.messages.at(-1)!.role).toBe("user");
  });
});

function failNow(): never {
  throw new Error("boom");
}
