import { describe, expect, it } from "vitest";
import { createContextEngine } from "../../../src/kernel/context/context-engine.js";
import { PLANNER_TIMEOUT_MS } from "../../../src/kernel/context/edits/context-levels.js";
import { PINNED_FACTS_HEADER } from "../../../src/kernel/context/edits/pinned-facts.js";
import { SEGMENT_SUMMARY_HEADER } from "../../../src/kernel/context/apply-planner-proposal.js";
import type { ContextPlanner, ContextPlannerInput } from "../../../src/kernel/context/types.js";
import type { AbortSignalLike } from "../../../src/kernel/vocabulary/ports.js";
import { assistant, call, fakePorts, recorder, result, text, user } from "./fixtures.js";

/** Three segments (ids seg-0, seg-4, seg-6) filling ~90% of a 1000-token window. */
const conversation = [
  user("goal: port the parser"),
  call("c1"),
  result("c1", "ok"),
  assistant(text(1500, "o")),
  user("second request"),
  assistant(text(1000, "p")),
  user("latest request"),
  assistant(text(1000, "q")),
];

function planner(
  answer: (input: ContextPlannerInput) => Promise<Awaited<ReturnType<ContextPlanner["propose"]>>>,
) {
  const inputs: ContextPlannerInput[] = [];
  const signals: (AbortSignalLike | undefined)[] = [];
  const value: ContextPlanner = {
    propose(input, signal) {
      inputs.push(input);
      signals.push(signal);
      return answer(input);
    },
  };
  return { planner: value, inputs, signals };
}

const summarizeAll = () =>
  Promise.resolve({
    segments: ["seg-0", "seg-4", "seg-6"].map((id) => ({
      id,
      action: "summarize" as const,
      summary: `sum ${id}`,
    })),
    stateDelta: { nextStep: "write tests" },
  });

describe("L3 planner", () => {
  it("applies summaries to older segments, never the latest, and merges the state delta", async () => {
    const fake = fakePorts();
    const { planner: p, inputs } = planner(async () => {
      fake.advance(30);
      return summarizeAll();
    });
    const { record, events } = recorder();
    const engine = createContextEngine({
      sessionId: "s",
      ports: fake.ports,
      windowTokens: 1000,
      planner: p,
      record,
    });
    const prepared = await engine.prepare(conversation);
    expect(events[0]).toMatchObject({
      type: "context_view",
      view: { workingState: { nextStep: "write tests" } },
    });
    expect(prepared.status).toMatchObject({
      level: 3,
      plannerUsed: true,
      plannerFallback: false,
      plannerLatencyMs: 30,
    });
    expect(inputs[0]!.candidates.map((segment) => segment.id)).toEqual(["seg-0", "seg-4"]);
    expect(prepared.messages).toEqual([
      user(`${SEGMENT_SUMMARY_HEADER}\nsum seg-0`),
      user(`${SEGMENT_SUMMARY_HEADER}\nsum seg-4`),
      ...conversation.slice(6),
    ]);
    expect(fake.sleeps[0]!.ms).toBe(PLANNER_TIMEOUT_MS);
    expect(fake.sleeps[0]!.signal?.aborted).toBe(true);
  });

  it("falls back to L4 when the planner does not answer within the timeout", async () => {
    const fake = fakePorts((sleep) => sleep.resolve());
    const { planner: p, signals } = planner(() => new Promise(() => undefined));
    const engine = createContextEngine({ sessionId: "s", ports: fake.ports, windowTokens: 1000, planner: p });
    const prepared = await engine.prepare(conversation);
    expect(prepared.status).toMatchObject({ level: 4, plannerUsed: true, plannerFallback: true });
    expect(prepared.messages[0]!.content).toContain(PINNED_FACTS_HEADER);
    expect(prepared.messages.slice(-2)).toEqual(conversation.slice(6));
    expect(signals[0]?.aborted).toBe(true);
  });

  it("falls back when the planner throws", async () => {
    const { planner: p } = planner(() => Promise.reject(new Error("planner down")));
    const engine = createContextEngine({
      sessionId: "s",
      ports: fakePorts().ports,
      windowTokens: 1000,
      planner: p,
    });
    expect((await engine.prepare(conversation)).status).toMatchObject({ level: 4, plannerFallback: true });
  });

  it("never touches a segment it classified as verified, and keeps earlier summaries when it later times out", async () => {
    let timeOut = false;
    const fake = fakePorts((sleep) => {
      if (timeOut) sleep.resolve();
    });
    let call = 0;
    const { planner: p, inputs } = planner(() => {
      call++;
      if (call === 1) {
        return Promise.resolve({
          segments: [
            { id: "seg-0", action: "keep" as const, classification: "verified" as const },
            { id: "seg-4", action: "summarize" as const, summary: "sum seg-4" },
          ],
        });
      }
      if (call === 2) return summarizeAll();
      return new Promise(() => undefined);
    });
    const engine = createContextEngine({ sessionId: "s", ports: fake.ports, windowTokens: 1000, planner: p });
    await engine.prepare(conversation);
    const second = await engine.prepare(conversation);
    expect(inputs[1]!.candidates).toEqual([]);
    expect(second.messages.slice(0, 4)).toEqual(conversation.slice(0, 4));
    expect(second.messages[4]).toEqual(user(`${SEGMENT_SUMMARY_HEADER}\nsum seg-4`));
    timeOut = true;
    const third = await engine.prepare(conversation);
    expect(third.status.plannerFallback).toBe(true);
    expect(third.messages).toContainEqual(user(`${SEGMENT_SUMMARY_HEADER}\nsum seg-4`));
  });

  it("passes manual compaction instructions to the planner", async () => {
    const { planner: p, inputs } = planner(summarizeAll);
    const engine = createContextEngine({
      sessionId: "s",
      ports: fakePorts().ports,
      windowTokens: 100_000,
      planner: p,
    });
    await engine.compact("manual", conversation, "keep the API decisions");
    expect(inputs[0]).toMatchObject({ reason: "manual", instructions: "keep the API decisions" });
  });
});
