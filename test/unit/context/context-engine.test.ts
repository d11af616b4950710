import { describe, expect, it } from "vitest";
import { createContextEngine } from "../../../src/kernel/context/context-engine.js";
import { prefixFingerprint } from "../../../src/kernel/context/prefix-fingerprint.js";
import type { ContextView } from "../../../src/kernel/context/types.js";
import type { SessionEvent } from "../../../src/kernel/vocabulary/session-events.js";
import type { ToolSpec } from "../../../src/kernel/vocabulary/tools.js";
import { assistant, fakePorts, fakeProvider, recorder, text, user } from "./fixtures.js";

const small = [user("goal"), assistant("hi")];
const tools: ToolSpec[] = [{ name: "read_file", description: "Reads", parameters: { type: "object" } }];

function views(events: SessionEvent[]): { view: ContextView; throughSeq: number }[] {
  return events.flatMap((event) => (event.type === "context_view" ? [event] : []));
}

describe("ContextEngine", () => {
  it("passes messages through at level 0 without committing", async () => {
    const { record, events } = recorder();
    const engine = createContextEngine({ sessionId: "s", ports: fakePorts().ports, record });
    const prepared = await engine.prepare(small);
    expect(prepared.messages).toBe(small);
    expect(prepared.status).toMatchObject({ level: 0, generation: 0, retry: false });
    expect(prepared.edits).toEqual({});
    expect(events).toEqual([]);
    expect(engine.status).toBeUndefined();
  });

  it("commits a context_view with the next generation each time it acts", async () => {
    const { record, events } = recorder();
    const staticPrefix = { system: "You are helpful.", tools, codec: "native" };
    const engine = createContextEngine({ sessionId: "s-1", ports: fakePorts().ports, record, staticPrefix });
    const first = await engine.compact("manual", small);
    const second = await engine.compact("manual", small);
    expect([first.status.generation, second.status.generation]).toEqual([1, 2]);
    const committed = views(events);
    expect(committed.map(({ view, throughSeq }) => [view.generation, throughSeq])).toEqual([
      [1, 0],
      [2, 0],
    ]);
    expect(committed[1]!.view.messages).toEqual(second.messages);
    expect(committed[1]!.view.prefixFingerprint).toBe(prefixFingerprint(staticPrefix));
    expect(engine.status).toEqual(second.status);
    expect(second.status).toMatchObject({ sessionId: "s-1", reason: "manual", plannerUsed: false });
  });

  it("restores generation, facts and working state from the latest context_view in history", async () => {
    const old: ContextView = {
      generation: 7,
      facts: [{ kind: "constraint", text: "Never push to main." }],
      workingState: { nextStep: "tests" },
      segments: [],
      archiveRefs: ["ctx_old"],
      messages: [],
      prefixFingerprint: "x",
    };
    const history: SessionEvent[] = [
      { type: "context_view", view: { ...old, generation: 3 }, throughSeq: 0 },
      { type: "context_view", view: old, throughSeq: 0 },
      { type: "artifact_verified", path: "dist/app.js", command: "npm test", result: "pass", turn: 2 },
    ];
    const { record, events } = recorder();
    const engine = createContextEngine({ sessionId: "s", ports: fakePorts().ports, history, record });
    const prepared = await engine.compact("manual", small);
    expect(prepared.status).toMatchObject({ generation: 8, archiveRefs: ["ctx_old"] });
    const view = views(events)[0]!.view;
    expect(view.facts).toEqual([
      { kind: "constraint", text: "Never push to main." },
      { kind: "artifact", text: "dist/app.js verified by `npm test`: pass" },
      { kind: "goal", text: "goal" },
    ]);
    expect(view.workingState).toEqual({ nextStep: "tests" });
    expect(prepared.messages[0]!.content).toContain("- constraint: Never push to main.");
  });

  it("returns nothing to do for an empty compaction", async () => {
    const { record, events } = recorder();
    const engine = createContextEngine({ sessionId: "s", ports: fakePorts().ports, record });
    const prepared = await engine.compact("overflow", []);
    expect(prepared.status.level).toBe(0);
    expect(events).toEqual([]);
  });

  it("asks for the native edits of its level that the provider supports", async () => {
    const provider = fakeProvider({
      contextWindow: 1000,
      clearToolUses: true,
      clearThinking: true,
      compact: true,
    });
    const engine = createContextEngine({ sessionId: "s", ports: fakePorts().ports, provider });
    const at = (fraction: number) => [user("goal"), assistant(text(Math.round(fraction * 4000) - 4))];
    expect((await engine.prepare(at(0.5))).edits).toEqual({});
    expect((await engine.prepare(at(0.7))).edits).toEqual({ clearToolUses: true });
    expect((await engine.prepare(at(0.8))).edits).toEqual({ clearToolUses: true, clearThinking: true });
    expect((await engine.prepare(at(0.97))).edits).toEqual({
      clearToolUses: true,
      clearThinking: true,
      compact: true,
    });
    const plain = createContextEngine({
      sessionId: "s",
      ports: fakePorts().ports,
      provider: fakeProvider({ contextWindow: 1000 }),
    });
    expect((await plain.prepare(at(0.97))).edits).toEqual({});
  });
});
