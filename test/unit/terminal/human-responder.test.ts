import { PassThrough } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { HumanResponder, type HumanResponderOptions } from "../../../src/terminal/human-responder.js";
import { InlinePrompter } from "../../../src/terminal/inline-prompter.js";
import { shownToolInput, toolInputView } from "../../../src/terminal/tool-input-view.js";
import type { SessionHandle } from "../../../src/client.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";

const call = { id: "c1", name: "delete_file", input: { path: "a.txt" } };
const request: AgentEvent = { type: "approval_request", call };
const question: AgentEvent = {
  type: "input_request",
  call: { id: "q1", name: "ask_user", input: {} },
  question: { question: "Which?", options: ["red", "blue"] },
};

/** A session ("s1") that records decisions; the given calls are pending. */
function fakeSession(pending: string[]) {
  const sent: unknown[] = [];
  const sessionId = "s1";
  const session = {
    sessionId,
    describe: async () => ({
      pendingApprovals: pending.map((callId) => ({ callId })),
      pendingQuestions: pending.map((callId) => ({ callId })),
    }),
    approve: async (callId: string, options: unknown) =>
      void sent.push(["approve", sessionId, callId, options]),
    deny: async (callId: string, options: unknown) => void sent.push(["deny", sessionId, callId, options]),
    answer: async (callId: string, answer: unknown, options: unknown) =>
      void sent.push(["answer", sessionId, callId, answer, options]),
  };
  return { session: session as unknown as SessionHandle, sent };
}

function responder(session: SessionHandle, options: Partial<HumanResponderOptions> = {}) {
  const said: string[] = [];
  const instance = new HumanResponder({
    session,
    actor: "ann",
    commandPrefix: "lite-agent",
    say: (line) => said.push(line),
    beforePrompt: () => undefined,
    ...options,
  });
  return { instance, said };
}

function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = "";
  output.on("data", (chunk: Buffer) => (shown += chunk.toString()));
  const prompted = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => (shown.includes(text) ? resolve() : setImmediate(check));
      check();
    });
  return { prompter: new InlinePrompter({ input, output, onInterrupt: () => undefined }), input, prompted };
}

describe("HumanResponder", () => {
  it("--yes and --no decide every pending approval as the actor", async () => {
    for (const approvals of ["allow", "deny"] as const) {
      const { session, sent } = fakeSession(["c1"]);
      const { instance } = responder(session, { approvals });
      instance.onEvent(request);
      await instance.settle();
      expect(sent).toEqual([[approvals === "allow" ? "approve" : "deny", "s1", "c1", { actor: "ann" }]]);
    }
  });

  it("leaves an approval that is no longer pending alone (a watch replaying old requests)", async () => {
    const { session, sent } = fakeSession([]);
    const { instance, said } = responder(session, { approvals: "allow" });
    instance.onEvent(request);
    await instance.settle();
    expect(sent).toEqual([]);
    expect(said).toEqual([]);
  });

  it("without a terminal or a flag, prints the commands that answer approvals and questions", async () => {
    const { session, sent } = fakeSession(["c1", "q1"]);
    const { instance, said } = responder(session);
    instance.onEvent(request);
    instance.onEvent(question);
    await instance.settle();
    expect(sent).toEqual([]);
    expect(said).toEqual([
      "waiting for a decision on c1: lite-agent approve s1 c1  (or deny … --reason '…')",
      "waiting for an answer to q1: lite-agent answer s1 q1 '<text>'",
    ]);
  });

  it("asks at the terminal and sends the decision with its reason, then the answer to a question", async () => {
    const { session, sent } = fakeSession(["c1", "q1"]);
    const { prompter, input, prompted } = terminal();
    const { instance } = responder(session, { prompter });
    instance.onEvent(request);
    instance.onEvent(question);
    await prompted('Allow delete_file {"path":"a.txt"}?');
    input.write("maybe\n");
    await prompted("Please answer y or n (e.g. 'n not now'), or ? to see the input.");
    input.write("n not that file\n");
    await prompted("  2) blue");
    input.write("2\n");
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    await instance.settle();
    expect(sent).toEqual([
      ["deny", "s1", "c1", { actor: "ann", reason: "not that file" }],
      ["answer", "s1", "q1", { selected: ["blue"] }, { actor: "ann" }],
    ]);
  });

  it("shows a long input in full before asking (a file's content as lines), and again on ?", async () => {
    const { session, sent } = fakeSession(["w1"]);
    const { prompter, input, prompted } = terminal();
    const { instance } = responder(session, { prompter });
    const content = Array.from({ length: 30 }, (_, i) => `line ${i + 1} of the new config`).join("\n");
    instance.onEvent({
      type: "approval_request",
      call: { id: "w1", name: "write_file", input: { path: "app.conf", content } },
    });
    await prompted(
      "Allow write_file with this input?\n  path: app.conf\n  content:\n    │ line 1 of the new config\n",
    );
    await prompted("    │ line 30 of the new config\nAllow write_file? [y/n");
    input.write("?\n");
    await prompted("The input of write_file, in full:\n  path: app.conf");
    input.write("y\n");
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent).toEqual([["approve", "s1", "w1", { actor: "ann" }]]);
  });

  it("cuts a huge input past 4,000 characters, says how much is left, and ? shows all of it", () => {
    const view = shownToolInput({ content: "x".repeat(10_000) });
    expect(view).toMatch(/\n {2}… 6\d{3} more characters: type \? to see all of it$/);
    expect(toolInputView({ content: "x".repeat(10_000) })).toHaveLength("  content: ".length + 10_000);
  });

  it("drops the prompt when the request is resolved elsewhere", async () => {
    const { session, sent } = fakeSession(["c1"]);
    const { prompter, prompted } = terminal();
    const { instance } = responder(session, { prompter });
    instance.onEvent(request);
    await prompted("Allow delete_file");
    instance.onEvent({ type: "approval_resolved", id: "c1", decision: "allow", by: "user", actor: "bob" });
    await instance.settle();
    expect(sent).toEqual([]);
  });

  it("--answer answers every question without asking", async () => {
    const { session, sent } = fakeSession(["q1"]);
    const { instance, said } = responder(session, { answer: "red" });
    instance.onEvent(question);
    await instance.settle();
    expect(sent).toEqual([["answer", "s1", "q1", { selected: ["red"] }, { actor: "ann" }]]);
    expect(said).toEqual(["answered q1: red"]);
  });
});
