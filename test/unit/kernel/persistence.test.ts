import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { memoryCheckpointer } from "../../../src/kernel/checkpoint/index.js";
import { nativeCodec } from "../../../src/kernel/codecs/index.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import type { Checkpointer, SessionEvent } from "../../../src/kernel/vocabulary/session-events.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { collect } from "../../support/collect.js";

async function readLog(checkpointer: Checkpointer, sessionId: string): Promise<SessionEvent[]> {
  const events: SessionEvent[] = [];
  for await (const stored of checkpointer.read(sessionId)) events.push(stored.event);
  return events;
}

const counter = () => {
  const calls: string[] = [];
  const tool = defineTool({
    name: "count",
    description: "",
    schema: z.object({ n: z.number() }),
    execute: ({ n }) => (calls.push(String(n)), `n=${n}`),
  });
  return { tool, calls };
};

describe("persistence", () => {
  it("writes input, assistant responses and tool results to the session log", async () => {
    const checkpointer = memoryCheckpointer();
    const { tool } = counter();
    const model = fakeProvider([toolCallTurn([{ id: "c", name: "count", input: { n: 1 } }]), textTurn("ok")]);
    await createAgent({ model, codec: nativeCodec(), tools: [tool], checkpointer }).send("go", {
      sessionId: "s",
    });
    const log = await readLog(checkpointer, "s");
    expect(log.map((e) => e.type)).toEqual(["user", "assistant", "tool_result", "assistant"]);
    expect(log[2]).toEqual({
      type: "tool_result",
      result: { type: "tool_result", id: "c", content: "n=1" },
      turn: 1,
    });
  });

  it("a second run on the same session resumes the conversation from the log", async () => {
    const checkpointer = memoryCheckpointer();
    const model = fakeProvider([textTurn("first"), textTurn("second")]);
    const agent = createAgent({ model, codec: nativeCodec(), checkpointer });
    await agent.send("one", { sessionId: "s" });
    const result = await agent.send("two", { sessionId: "s" });
    expect(model.requests[1]!.messages.map((m) => m.content)).toEqual([
      "one",
      [{ type: "text", text: "first" }],
      "two",
    ]);
    expect(result.messages).toHaveLength(4);
  });

  it("a run without a sessionId starts a new session", async () => {
    const checkpointer = memoryCheckpointer();
    const model = fakeProvider([textTurn("a"), textTurn("b")]);
    const agent = createAgent({ model, codec: nativeCodec(), checkpointer });
    await agent.send("one");
    await agent.send("two");
    expect(model.requests[1]!.messages).toHaveLength(1);
    expect(await checkpointer.list()).toHaveLength(2);
  });

  it("crashRecovery safe: an interrupted tool gets the synthetic result, tool_recovered, and is never re-executed", async () => {
    const checkpointer = memoryCheckpointer();
    // The log a crash leaves behind: the call started, no result.
    await checkpointer.append("s", [
      { type: "user", message: { role: "user", content: "go" } },
      {
        type: "assistant",
        message: {
          role: "assistant",
          content: [{ type: "tool_call", id: "c1", name: "count", input: { n: 1 } }],
        },
      },
      { type: "tool_started", id: "c1", name: "count", turn: 1 },
    ]);
    const { tool, calls } = counter();
    const model = fakeProvider([textTurn("sorry, it was interrupted")]);
    const agent = createAgent({
      model,
      codec: nativeCodec(),
      tools: [tool],
      checkpointer,
      crashRecovery: "safe",
    });
    const { events } = await collect(agent.run("what happened?", { sessionId: "s" }));
    expect(events[0]).toEqual({ type: "tool_recovered", id: "c1", name: "count", turn: 1 });
    expect(calls).toEqual([]);
    const sent = model.requests[0]!.messages;
    expect(sent[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          id: "c1",
          content: "Error: interrupted before completion (count)",
          isError: true,
        },
      ],
    });
    expect(sent[3]).toEqual({ role: "user", content: "what happened?" });
    const log = await readLog(checkpointer, "s");
    expect(log[3]).toMatchObject({ type: "tool_result", turn: 1, result: { id: "c1", isError: true } });
  });

  it("crashRecovery safe records tool_started before each tool result", async () => {
    const checkpointer = memoryCheckpointer();
    const { tool } = counter();
    const model = fakeProvider([toolCallTurn([{ id: "c", name: "count", input: { n: 2 } }]), textTurn("ok")]);
    await createAgent({
      model,
      codec: nativeCodec(),
      tools: [tool],
      checkpointer,
      crashRecovery: "safe",
    }).send("go", { sessionId: "s" });
    const log = await readLog(checkpointer, "s");
    expect(log.map((e) => e.type)).toEqual(["user", "assistant", "tool_started", "tool_result", "assistant"]);
  });

  it("file snapshots are recorded before the tool result, within the session quota", async () => {
    const checkpointer = memoryCheckpointer();
    const writer = defineTool({
      name: "write",
      description: "",
      schema: z.object({ path: z.string(), before: z.string() }),
      execute: ({ path, before }, ctx) => (ctx.recordSnapshot?.(path, before), "written"),
    });
    const model = fakeProvider([
      toolCallTurn([{ id: "1", name: "write", input: { path: "a.txt", before: "12345" } }]),
      toolCallTurn([{ id: "2", name: "write", input: { path: "b.txt", before: "678901" } }]),
      textTurn("ok"),
    ]);
    await createAgent({
      model,
      codec: nativeCodec(),
      tools: [writer],
      checkpointer,
      maxSnapshotBytesPerSession: 8,
    }).send("go", { sessionId: "s" });
    const log = await readLog(checkpointer, "s");
    const snapshots = log.filter((e) => e.type === "file_snapshot");
    expect(snapshots).toEqual([
      { type: "file_snapshot", path: "a.txt", before: "12345", turn: 1 },
      { type: "file_snapshot", path: "b.txt", before: null, truncated: true, turn: 2 },
    ]);
    expect(log.findIndex((e) => e.type === "file_snapshot")).toBeLessThan(
      log.findIndex((e) => e.type === "tool_result"),
    );
  });

  it("tools get no recordSnapshot without a checkpointer", async () => {
    let seen: unknown = "unset";
    const tool = defineTool({
      name: "t",
      description: "",
      schema: z.object({}),
      execute: (_i, ctx) => ((seen = ctx.recordSnapshot), "ok"),
    });
    const model = fakeProvider([toolCallTurn([{ id: "1", name: "t", input: {} }]), textTurn("done")]);
    const { events } = await collect(createAgent({ model, codec: nativeCodec(), tools: [tool] }).run("go"));
    expect(seen).toBeUndefined();
    expect(events.filter((e: AgentEvent) => e.type === "tool_result")).toHaveLength(1);
  });
});
