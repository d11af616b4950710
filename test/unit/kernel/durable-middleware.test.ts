import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { defineAgent, middlewareModules, toAgentPlan, workflowModulesOf } from "../../../src/define-agent.js";
import { localAgentConfig } from "../../../src/local-agent-config.js";
import { reactiveCompaction } from "../../../src/kernel/compaction/reactive-compaction.js";
import {
  UnknownMiddlewareError,
  defineMiddleware,
  middlewareFromRef,
  unknownMiddlewareIn,
} from "../../../src/kernel/middleware/durable-middleware.js";
import { defineEffect, implementEffect } from "../../../src/kernel/vocabulary/effects.js";
import { permission } from "../../../src/kernel/permission/gate.js";
import { policy } from "../../../src/kernel/permission/policy.js";
import { nonPlainPath } from "../../../src/kernel/vocabulary/plain-data.js";
import "../../../src/kernel/middleware/register-builtin-middleware.js";
import { retry } from "../../../src/kernel/middleware/retry-middleware.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { collect } from "../../support/collect.js";

const echo = defineTool({
  name: "echo",
  description: "echoes",
  schema: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

describe("durable middleware references", () => {
  it("defineMiddleware tags what it makes with its id, options and module, and the registry makes it again", () => {
    const tagged = defineMiddleware(
      { id: "unit/tagger", module: "file:///x/tagger.ts" },
      (o: { tag: string }) => ({
        name: `tagger-${o.tag}`,
      }),
    );
    const made = tagged({ tag: "a" });
    expect(made.durable).toEqual({ id: "unit/tagger", options: { tag: "a" }, module: "file:///x/tagger.ts" });
    expect(middlewareFromRef({ id: "unit/tagger", options: { tag: "b" } }).name).toBe("tagger-b");
  });

  it("an id the workflow code does not know fails with a message that says how to register it", () => {
    expect(() => middlewareFromRef({ id: "unit/nowhere" })).toThrow(UnknownMiddlewareError);
    // A replay's failure carries the message as text: the id is found in it.
    const text = `Replay failed: ${new UnknownMiddlewareError("unit/nowhere").message} (stack…)`;
    expect(unknownMiddlewareIn(text)).toBe("unit/nowhere");
    expect(unknownMiddlewareIn("some other failure")).toBeUndefined();
    expect(() => middlewareFromRef({ id: "unit/nowhere" })).toThrow(/defineMiddleware\(\{ id, module/);
  });

  it("built-ins with plain options carry a reference; with functions they stay in-process", () => {
    expect(retry({ maxRetries: 3 }).durable).toEqual({ id: "lite-agent/retry", options: { maxRetries: 3 } });
    expect(retry({ retryOn: () => true }).durable).toBeUndefined();
    expect(reactiveCompaction().durable).toEqual({ id: "lite-agent/reactive-compaction", options: {} });
    expect(permission(policy({ ask: ["echo"] }), undefined, { audit: true }).durable).toEqual({
      id: "lite-agent/permission",
      options: { policy: { ask: ["echo"] }, audit: true },
    });
    // An own approver, a custom redactor or a `where` condition cannot travel.
    expect(permission(policy({ ask: ["echo"] }), { request: () => "allow" }).durable).toBeUndefined();
    expect(permission(policy({ rules: [{ effect: "ask", where: () => true }] })).durable).toBeUndefined();
    // Each built-in reference makes the same middleware again.
    expect(middlewareFromRef(retry({ maxRetries: 3 }).durable!).name).toBe("retry");
    expect(middlewareFromRef(permission(policy({ ask: ["echo"] })).durable!).name).toBe("permission");
  });

  it("nonPlainPath names where a value stops being plain data", () => {
    expect(nonPlainPath({ a: [1, "x", { b: null }] })).toBeUndefined();
    expect(nonPlainPath({ a: [1, { b: () => 1 }] }, "options")).toBe("options.a[1].b");
    expect(nonPlainPath({ when: new Date(0) })).toBe("value.when");
    expect(nonPlainPath({ n: Number.NaN })).toBe("value.n");
  });
});

describe("a definition's use and effects", () => {
  it("the plan lists the middleware by reference, in order, and the worker bundles their modules", () => {
    const note = defineMiddleware({ id: "unit/note", module: "file:///x/note.ts" }, () => ({ name: "note" }));
    const agent = defineAgent({ name: "a", model: "m", use: [note(), retry({ maxRetries: 1 })] });
    expect(toAgentPlan(agent).use).toEqual([
      { id: "unit/note" },
      { id: "lite-agent/retry", options: { maxRetries: 1 } },
    ]);
    expect(middlewareModules(agent)).toEqual(["file:///x/note.ts"]);
    const other = defineAgent({ name: "b", model: "m", use: [note()] });
    expect(workflowModulesOf([agent, other, defineAgent({ name: "c", model: "m" })])).toEqual([
      "file:///x/note.ts",
    ]);
  });

  it("a middleware that cannot run durably is refused for the plan with the reason, but runs in-process", () => {
    const agent = defineAgent({ name: "a", model: "m", use: [retry({ retryOn: () => true })] });
    expect(() => toAgentPlan(agent)).toThrow(/agent 'a': middleware 'retry' cannot run durably/);
    expect(() => localAgentConfig(agent, fakeProvider([textTurn("hi")]))).not.toThrow();
    const bad = defineMiddleware({ id: "unit/bad", module: "file:///x/bad.ts" }, (_: { at: Date }) => ({
      name: "bad",
    }));
    expect(() =>
      toAgentPlan(defineAgent({ name: "b", model: "m", use: [bad({ at: new Date(0) })] })),
    ).toThrow(/options\.at is not plain data/);
  });

  it("two effects of one name are refused", () => {
    const ref = defineEffect<string>("same");
    const effects = [implementEffect(ref, () => undefined), implementEffect(ref, () => undefined)];
    expect(() => defineAgent({ name: "a", model: "m", effects })).toThrow(/two effects are named 'same'/);
  });

  it("in-process, ctx.effect calls the definition's implementation; a missing one rejects clearly", async () => {
    const shout = defineEffect<{ text: string }, string>("shout");
    const seen: string[] = [];
    const loud = defineMiddleware({ id: "unit/loud", module: "file:///x/loud.ts" }, () => ({
      name: "loud",
      async afterToolCall(ctx, result) {
        return { ...result, content: await ctx.effect(shout, { text: result.content }) };
      },
    }));
    const model = () =>
      fakeProvider([toolCallTurn([{ id: "c1", name: "echo", input: { text: "hi" } }]), textTurn("ok")]);
    const agent = defineAgent({
      name: "loud",
      model: "m",
      tools: [echo],
      use: [loud()],
      effects: [
        implementEffect(shout, ({ text }, ctx) => {
          seen.push(ctx.sessionId);
          return text.toUpperCase();
        }),
      ],
    });
    const { events } = await collect(
      createAgent(localAgentConfig(agent, model())).run("go", { sessionId: "s1" }),
    );
    expect(events.find((event) => event.type === "tool_result")).toMatchObject({ result: { content: "HI" } });
    expect(seen).toEqual(["s1"]);

    const bare = defineAgent({ name: "bare", model: "m", tools: [echo], use: [loud()] });
    const failed = await collect(createAgent(localAgentConfig(bare, model())).run("go"));
    expect(failed.events.find((event) => event.type === "tool_result")).toMatchObject({
      result: {
        isError: true,
        content: expect.stringContaining("effect 'shout' is not implemented for agent 'bare'"),
      },
    });
  });

  it("a gate without its own approver asks the run's", async () => {
    const asked: string[] = [];
    const agent = createAgent({
      ...localAgentConfig(
        defineAgent({ name: "g", model: "m", tools: [echo] }),
        fakeProvider([toolCallTurn([{ id: "c1", name: "echo", input: { text: "hi" } }]), textTurn("ok")]),
      ),
      use: [permission(policy({ ask: ["echo"] }))],
      approval: {
        request: (call) => {
          asked.push(call.id);
          return "allow";
        },
      },
    });
    const { events } = await collect(agent.run("go"));
    expect(asked).toEqual(["c1"]);
    expect(events.find((event) => event.type === "tool_result")).toMatchObject({ result: { content: "hi" } });
  });
});
