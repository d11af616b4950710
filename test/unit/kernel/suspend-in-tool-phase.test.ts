import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { askUserTool } from "../../../src/kernel/builtin-tools/ask-user-tool.js";
import { nativeCodec } from "../../../src/kernel/codecs/index.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import { permission, policy } from "../../../src/kernel/permission/index.js";
import type { ApprovalHandler, InputHandler } from "../../../src/kernel/permission/types.js";
import type { OpenToolPhase, RunSnapshot } from "../../../src/kernel/vocabulary/run-snapshot.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { conversationScript } from "../../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { collect } from "../../support/collect.js";

// A turn asks for three calls: `quick` runs at once, `publish` waits for an approval, `ask_user` for an answer.
// The driver leaves the run while the last two wait (as the workflow does when another build becomes its target),
// and another process resumes it from the phase's snapshot, where the person's decision and answer arrive.

const ran: string[] = [];
const quick = defineTool({
  name: "quick",
  description: "runs at once",
  schema: z.object({}),
  execute: () => (ran.push("quick"), "quick done"),
});
const publish = defineTool({
  name: "publish",
  description: "needs an approval",
  schema: z.object({}),
  execute: () => (ran.push("publish"), "published"),
});

const script = () =>
  conversationScript([
    toolCallTurn([
      { id: "q1", name: "quick", input: {} },
      { id: "p1", name: "publish", input: {} },
      { id: "u1", name: "ask_user", input: { question: "colour?" } },
    ]),
    textTurn("all done"),
  ]);

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
const allow: ApprovalHandler = { request: () => ({ decision: "allow", by: "user", actor: "ann" }) };
const blue: InputHandler = { request: () => ({ text: "blue" }) };

function agent(approval: ApprovalHandler, input: InputHandler) {
  return createAgent({
    model: script(),
    codec: nativeCodec(),
    tools: [quick, publish, askUserTool()],
    use: [permission(policy({ ask: ["publish"] }))],
    approval,
    input,
  });
}

/** Reads the run's events until `enough` holds, then leaves the run waiting where it is. */
async function readUntil(
  run: AsyncGenerator<AgentEvent, unknown>,
  enough: (events: AgentEvent[]) => boolean,
): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  while (!enough(events)) {
    const next = await run.next();
    if (next.done) throw new Error("the run ended");
    events.push(next.value);
  }
  return events;
}

const callOf = (event: AgentEvent): string | undefined =>
  event.type === "tool_call_start" ||
  event.type === "approval_request" ||
  event.type === "input_request" ||
  event.type === "permission_decision"
    ? event.call.id
    : event.type === "tool_result"
      ? event.result.id
      : undefined;

/** A run whose person never answers, and the last tool phase it showed its driver (read it once the run waits). */
function runNobodyAnswers() {
  let phase: OpenToolPhase | undefined;
  const first = agent({ request: never }, { request: never }).run("go", {
    sessionId: "s",
    suspend: {
      requested: () => false,
      suspend: () => undefined,
      toolPhase: (opened) => void (phase = opened),
    },
  });
  return { first, phase: () => phase };
}

describe("leaving a run in its tool phase and resuming it elsewhere", () => {
  it("keeps the finished call's result, runs only the waiting calls, and ends as one uninterrupted run", async () => {
    ran.length = 0;
    const whole = await collect(agent(allow, blue).run("go", { sessionId: "s" }));
    expect(ran.sort()).toEqual(["publish", "quick"]);

    ran.length = 0;
    const { first, phase: lastPhase } = runNobodyAnswers();
    const before = await readUntil(first, (events) =>
      ["q1", "p1", "u1"].every((id) =>
        events.some(
          (event) =>
            callOf(event) === id &&
            event.type === (id === "q1" ? "tool_result" : id === "p1" ? "approval_request" : "input_request"),
        ),
      ),
    );
    expect(lastPhase()?.open()).toEqual(["p1", "u1"]);
    expect(ran).toEqual(["quick"]);
    // Through JSON, as continue-as-new carries it.
    const snapshot = JSON.parse(JSON.stringify(lastPhase()!.snapshot())) as RunSnapshot;
    expect(snapshot.turn).toBe(1);
    expect(snapshot.toolPhase?.calls.map((call) => call.id)).toEqual(["q1", "p1", "u1"]);
    expect(snapshot.toolPhase?.results).toEqual([{ id: "q1", name: "quick", content: "quick done" }]);
    expect(snapshot.messages.at(-1)?.role).toBe("assistant");

    const shown: (string[] | undefined)[] = [];
    const second = await collect(
      agent(allow, blue).run("go", {
        sessionId: "s",
        resume: snapshot,
        suspend: {
          requested: () => false,
          suspend: () => undefined,
          toolPhase: (opened) => void shown.push(opened?.open()),
        },
      }),
    );
    // The quick call ran once, before the pause; the approved one once, after it.
    expect(ran).toEqual(["quick", "publish"]);
    expect(second.result.text).toBe("all done");
    expect(second.result.messages).toEqual(whole.result.messages);
    // The resumed half starts in the tool phase: no second turn 1, no second answer, nothing more of the quick call;
    // the waiting calls start again from their start (the driver drops what it published before).
    const types = second.events.map((event) => event.type);
    expect(types.slice(0, 1)).toEqual(["tool_call_start"]);
    expect(second.events.filter((event) => event.type === "turn_start").map((event) => event.turn)).toEqual([
      2,
    ]);
    expect(second.events.some((event) => event.type === "tool_use")).toBe(false);
    expect(second.events.filter((event) => callOf(event) === "q1")).toEqual([]);
    expect(
      second.events
        .filter((event) => event.type === "tool_result")
        .map(callOf)
        .sort(),
    ).toEqual(["p1", "u1"]);
    expect(second.events.filter((event) => event.type === "turn_end").map((event) => event.turn)).toEqual([
      1, 2,
    ]);
    // Both halves together: every event of the uninterrupted run, once the waiting calls' events up to their wait
    // (told before the pause, and again by the resumed run) are dropped from the second half.
    const waiting = new Set(["p1", "u1"]);
    const retold = (event: AgentEvent) => {
      const id = callOf(event);
      if (!id || !waiting.has(id)) return false;
      if (event.type === "approval_request" || event.type === "input_request") waiting.delete(id);
      return true;
    };
    const joined = [...before, ...second.events.filter((event) => !retold(event))];
    const typesOf = (events: AgentEvent[]) => events.map((event) => event.type).sort();
    expect(typesOf(joined)).toEqual(typesOf(whole.events));
    // The resumed phase was shown to its driver, and closed once all its calls finished.
    expect(shown).toEqual([["p1", "u1"], undefined]);
  });

  it("a run resumed in its tool phase after it was aborted ends aborted, with its finished results kept", async () => {
    const { first, phase: lastPhase } = runNobodyAnswers();
    await readUntil(first, (events) => events.some((event) => event.type === "input_request"));
    const snapshot = JSON.parse(JSON.stringify(lastPhase()!.snapshot())) as RunSnapshot;
    ran.length = 0;
    const controller = new AbortController();
    controller.abort("cancelled");
    const resumed = await collect(
      agent(allow, blue).run("go", { sessionId: "s", resume: snapshot, signal: controller.signal }),
    );
    expect(ran).toEqual([]);
    expect(resumed.result.stopReason).toBe("aborted");
    const results = resumed.result.messages.at(-1)?.content;
    expect(
      Array.isArray(results) && results.map((block) => block.type === "tool_result" && block.id),
    ).toEqual(["q1", "p1", "u1"]);
    expect(resumed.events.at(-1)).toMatchObject({ type: "done", reason: "aborted" });
  });
});
