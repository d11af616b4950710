import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { nativeCodec } from "../../../src/kernel/codecs/native-codec.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import type { ToolSource } from "../../../src/kernel/vocabulary/tool-source.js";
import { defineTool, type AnyTool } from "../../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { collect } from "../../support/collect.js";

const named = (name: string, answer = name): AnyTool =>
  defineTool({ name, description: name, schema: z.object({}), execute: () => answer });

/** A source that lists the given tools and counts its listings and closes. */
function countingSource(tools: AnyTool[]): ToolSource & { listings: number; closes: number } {
  const source = {
    listings: 0,
    closes: 0,
    tools: async () => {
      source.listings++;
      return tools;
    },
    close: async () => void source.closes++,
  };
  return source;
}

const diagnostics = (events: AgentEvent[]) =>
  events.flatMap((event) => (event.type === "diagnostic" ? [`${event.code}: ${event.message}`] : []));

describe("tool sources (tools listed at run time)", () => {
  it("are listed once per run, after the configured tools, and their tools run like any other", async () => {
    const source = countingSource([named("listed", "from the source")]);
    const model = fakeProvider([
      toolCallTurn([{ id: "c1", name: "listed", input: {} }]),
      textTurn("one"),
      textTurn("two"),
    ]);
    const agent = createAgent({ model, codec: nativeCodec(), tools: [named("own")], toolSources: [source] });
    const first = await collect(agent.run("go"));
    await collect(agent.run("again"));
    expect(source.listings).toBe(2);
    expect(model.requests.map((request) => request.tools?.map((tool) => tool.name))).toEqual([
      ["listed", "own"],
      ["listed", "own"],
      ["listed", "own"],
    ]);
    expect(first.events).toContainEqual(
      expect.objectContaining({
        type: "tool_result",
        result: { id: "c1", name: "listed", content: "from the source" },
      }),
    );
  });

  it("cost only their own tools when they fail or list a name already taken: a diagnostic says which", async () => {
    const failing: ToolSource = { tools: () => Promise.reject(new Error("server down")) };
    const clashing = countingSource([named("own", "not this one"), named("extra")]);
    const model = fakeProvider([textTurn("done")]);
    const agent = createAgent({
      model,
      codec: nativeCodec(),
      tools: [named("own")],
      toolSources: [failing, clashing],
    });
    const { events, result } = await collect(agent.run("go"));
    expect(result.stopReason).toBe("stop");
    expect(model.requests[0]!.tools!.map((tool) => tool.name)).toEqual(["extra", "own"]);
    expect(diagnostics(events)).toEqual([
      "tool_source_failed: a tool source could not list its tools: server down",
      "tool_name_taken: a listed tool named 'own' was left out: the agent already has a tool of that name",
    ]);
  });

  it("are closed by agent.close()", async () => {
    const source = countingSource([]);
    const agent = createAgent({ model: fakeProvider([]), codec: nativeCodec(), toolSources: [source] });
    await agent.close();
    expect(source.closes).toBe(1);
  });

  it("are not asked in a fork given tools of its own", async () => {
    const source = countingSource([named("listed")]);
    const model = fakeProvider([textTurn("forked")]);
    const agent = createAgent({ model, codec: nativeCodec(), toolSources: [source] });
    await collect(agent.fork([], "go", { tools: [named("only")] }));
    expect(source.listings).toBe(0);
    expect(model.requests[0]!.tools!.map((tool) => tool.name)).toEqual(["only"]);
  });
});
