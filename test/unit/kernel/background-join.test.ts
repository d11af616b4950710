import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { nativeCodec } from "../../../src/kernel/codecs/index.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { collect } from "../../support/collect.js";

function spawner(release: Promise<void>, kind: "joinable" | "detached" = "joinable") {
  return defineTool({
    name: "spawn",
    description: "starts background work",
    schema: z.object({}),
    execute: (_input, ctx) => {
      const task = ctx.background!.spawn({ label: "crunch", kind, run: async () => (await release, "42") });
      return `started ${task.id}`;
    },
  });
}

describe("background tasks in the loop", () => {
  it("a pending joinable task is joined: its completion is injected at the next turn start, without consuming maxTurns", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const model = fakeProvider([
      toolCallTurn([{ id: "1", name: "spawn", input: {} }]),
      textTurn("waiting"),
      textTurn("the answer is 42"),
    ]);
    const run = collect(
      createAgent({ model, codec: nativeCodec(), tools: [spawner(released)], maxTurns: 2 }).run("go"),
    );
    setTimeout(release, 5);
    const { events, result } = await run;
    expect(result.stopReason).toBe("stop");
    expect(result.text).toBe("the answer is 42");
    const completed = events.find((e) => e.type === "background_completed") as Extract<
      AgentEvent,
      { type: "background_completed" }
    >;
    expect(completed.completion).toMatchObject({
      label: "crunch",
      content: "42",
      status: "completed",
      isError: false,
    });
    const turns = events.filter((e) => e.type === "turn_start").map((e) => (e as { turn: number }).turn);
    expect(turns).toEqual([1, 2, 3]);
    const note = model.requests[2]!.messages.at(-1)!;
    expect(note.role).toBe("user");
    expect(String(note.content)).toMatch(
      /^<background-task-completed id="bg_[0-9a-z]+_[0-9a-f]{6}" label="crunch">\n42\n<\/background-task-completed>$/,
    );
  });

  it("detached tasks never gate the run and are cancelled when it ends", async () => {
    let cancelled = false;
    const tool = defineTool({
      name: "spawn",
      description: "",
      schema: z.object({}),
      execute: (_input, ctx) => {
        ctx.background!.spawn({
          label: "forever",
          kind: "detached",
          run: (signal) =>
            new Promise((resolve) =>
              signal.addEventListener("abort", () => ((cancelled = true), resolve("stopped"))),
            ),
        });
        return "ok";
      },
    });
    const model = fakeProvider([toolCallTurn([{ id: "1", name: "spawn", input: {} }]), textTurn("done")]);
    const result = await createAgent({ model, codec: nativeCodec(), tools: [tool] }).send("go");
    expect(result.stopReason).toBe("stop");
    expect(cancelled).toBe(true);
  });

  it("with background: false tools get no registry", async () => {
    let seen: unknown = "unset";
    const tool = defineTool({
      name: "t",
      description: "",
      schema: z.object({}),
      execute: (_i, ctx) => ((seen = ctx.background), "ok"),
    });
    const model = fakeProvider([toolCallTurn([{ id: "1", name: "t", input: {} }]), textTurn("done")]);
    await createAgent({ model, codec: nativeCodec(), tools: [tool], background: false }).send("go");
    expect(seen).toBeUndefined();
  });

  it("abort while joined ends the run with aborted", async () => {
    const controller = new AbortController();
    const never = new Promise<void>(() => undefined);
    const model = fakeProvider([toolCallTurn([{ id: "1", name: "spawn", input: {} }]), textTurn("waiting")]);
    const run = collect(
      createAgent({ model, codec: nativeCodec(), tools: [spawner(never)] }).run("go", {
        signal: controller.signal,
      }),
    );
    setTimeout(() => controller.abort(), 10);
    const { result } = await run;
    expect(result.stopReason).toBe("aborted");
  });
});

describe("a run that ends with joinable tasks still running", () => {
  /** A tool that starts a joinable task which stops 20 ms after it is cancelled, noting when. */
  function slowToStop(log: string[]) {
    return defineTool({
      name: "spawn",
      description: "",
      schema: z.object({}),
      execute: (_input, ctx) => {
        ctx.background!.spawn({
          label: "slow",
          run: (signal) =>
            new Promise((resolve) =>
              signal.addEventListener("abort", () =>
                setTimeout(() => (log.push("task stopped"), resolve("stopped")), 20),
              ),
            ),
        });
        return "ok";
      },
    });
  }
  // maxTurns 1 stops the run while it would join its task: the task is cancelled at the run's end.
  const script = () =>
    fakeProvider([toolCallTurn([{ id: "1", name: "spawn", input: {} }]), textTurn("waiting")]);

  it("by default emits done at once, while the cancelled task is still stopping", async () => {
    const log: string[] = [];
    const agent = createAgent({
      model: script(),
      codec: nativeCodec(),
      tools: [slowToStop(log)],
      maxTurns: 1,
    });
    for await (const event of agent.run("go")) if (event.type === "done") log.push("done");
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(log).toEqual(["done", "task stopped"]);
  });

  it("with awaitBackgroundStop emits done after the cancelled tasks stopped", async () => {
    const log: string[] = [];
    const asked: Promise<void>[] = [];
    const agent = createAgent({
      model: script(),
      codec: nativeCodec(),
      tools: [slowToStop(log)],
      maxTurns: 1,
      awaitBackgroundStop: (stopped) => (asked.push(stopped), stopped),
    });
    for await (const event of agent.run("go")) if (event.type === "done") log.push("done");
    expect(log).toEqual(["task stopped", "done"]);
    expect(asked).toHaveLength(1);
  });

  it("is not asked when no joinable task is left", async () => {
    let asked = 0;
    const model = fakeProvider([textTurn("nothing to do")]);
    const agent = createAgent({ model, codec: nativeCodec(), awaitBackgroundStop: () => void asked++ });
    expect((await agent.send("go")).stopReason).toBe("stop");
    expect(asked).toBe(0);
  });
});
