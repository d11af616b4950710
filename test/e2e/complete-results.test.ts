import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentClient } from "../../src/client.js";
import { createAgent, defineAgent, defineTool, fakeProvider, type AgentEvent } from "../../src/index.js";
import { localAgentConfig } from "../../src/local-agent-config.js";
import type { RunResult } from "../../src/kernel/vocabulary/events.js";
import { messageText, type Message } from "../../src/kernel/vocabulary/messages.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import {
  connectTestClient,
  startTestWorker,
  uniqueTaskQueue,
  type RunningWorker,
} from "../support/temporal.js";

/** Text of `length` characters that differs all along, so any cut or splice shows. */
function longText(label: string, length: number): string {
  let text = `${label}:`;
  for (let line = 0; text.length < length; line++) text += ` ${line.toString(36)}-${(line * 7919) % 1000}\n`;
  return text.slice(0, length);
}

const ANSWER = longText("answer", 100_000);
const TOOL_RESULT = longText("report", 200_000);
const PROGRESS = longText("progress", 150_000);

/** Emits one long progress note while it works (relayed live), then returns a long report. */
const report = defineTool({
  name: "report",
  description: "returns a long report",
  schema: z.object({}),
  execute: (_input, ctx) => {
    ctx.emit({ type: "diagnostic", level: "info", code: "progress", message: PROGRESS });
    return TOOL_RESULT;
  },
});

const verbose = defineAgent({ name: "verbose", model: "verbose", tools: [report] });

/** Calls `report` for a user's message, and answers with the long answer once it has the report. */
const model = () =>
  fakeProvider(
    [
      (request) =>
        typeof request.messages.at(-1)?.content === "string"
          ? toolCallTurn([{ id: `r-${request.messages.length}`, name: "report", input: {} }])
          : textTurn(ANSWER),
    ],
    { onExhausted: "repeat-last" },
  );

async function collect(events: AsyncGenerator<AgentEvent, RunResult>): Promise<[AgentEvent[], RunResult]> {
  const seen: AgentEvent[] = [];
  for (;;) {
    const next = await events.next();
    if (next.done) return [seen, next.value];
    seen.push(next.value);
  }
}

/** "whole" when `actual` is `expected`, else what it is instead (short, so a failure reads at a glance). */
function whole(actual: string | undefined, expected: string): string {
  if (actual === expected) return "whole";
  if (actual === undefined) return "missing";
  return `${actual.length} of ${expected.length} characters, ending ${JSON.stringify(actual.slice(-70))}`;
}

/** Whether a run's events carry each value whole: the tool's result, its progress note, the answer, `done`'s text. */
function eventValues(events: AgentEvent[]) {
  const toolResult = events.find((event) => event.type === "tool_result");
  const progress = events.find((event) => event.type === "diagnostic" && event.code === "progress");
  const answer = events.findLast((event) => event.type === "message");
  const done = events.at(-1);
  return {
    toolResult: whole(
      toolResult?.type === "tool_result" ? toolResult.result.content : undefined,
      TOOL_RESULT,
    ),
    progress: whole(progress?.type === "diagnostic" ? progress.message : undefined, PROGRESS),
    answer: whole(answer?.type === "message" ? messageText(answer.message) : undefined, ANSWER),
    doneText: whole(done?.type === "done" ? done.result.text : undefined, ANSWER),
  };
}

/** Every text of a run's (or a transcript's) messages, each as {@link whole} sees it against `expected`. */
function texts(messages: Message[], expected: string[]): string[] {
  const found = allTexts(messages);
  const count = Math.max(found.length, expected.length);
  return Array.from({ length: count }, (_, index) => whole(found[index], expected[index] ?? ""));
}

function allTexts(messages: Message[]): string[] {
  const out: string[] = [];
  for (const message of messages) {
    if (typeof message.content === "string") out.push(message.content);
    else
      for (const block of message.content)
        if (block.type === "text") out.push(block.text);
        else if (block.type === "tool_result")
          out.push(typeof block.content === "string" ? block.content : JSON.stringify(block.content));
  }
  return out;
}

const WHOLE = { toolResult: "whole", progress: "whole", answer: "whole", doneText: "whole" };
const RUN_TEXTS = ["write the report", TOOL_RESULT, ANSWER];

describe("a client gets every value whole, however large", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  let follower: AgentClient;
  const taskQueue = uniqueTaskQueue("complete");

  beforeAll(async () => {
    // The environment's storage for all three, as a user's processes: large payloads go by reference.
    worker = await startTestWorker({ taskQueue, agents: [verbose], providers: { verbose: model() } });
    client = await connectTestClient(taskQueue);
    follower = await connectTestClient(taskQueue);
  });
  afterAll(async () => {
    await client?.close();
    await follower?.close();
    await worker?.stop();
  });

  it("a 100,000-character answer and a 200,000-character tool result: run(), send(), a follower and the transcript get them exactly", async () => {
    const sessionId = `complete-${Date.now()}`;
    const runId = `run-${Date.now()}`;
    const running = client.run("verbose", "write the report", { sessionId, runId });
    const first = await running.next();
    expect(first.done).toBe(false);
    // A second client follows the same run from its start, as another person's screen would.
    const [[rest, result], [followerEvents, followerResult]] = await Promise.all([
      collect(running),
      collect(follower.session(sessionId).events(runId, { fromOffset: 0 })),
    ]);
    const again = await client.send("verbose", "once more", { sessionId });
    const transcript = await client.session(sessionId).transcript();

    expect([result.stopReason, again.stopReason]).toEqual(["stop", "stop"]);
    const allWhole = (count: number) => Array.from({ length: count }, () => "whole");
    const transcriptTexts = [...RUN_TEXTS, "once more", TOOL_RESULT, ANSWER];
    // One comparison, so a failure shows every value that is not whole at once.
    expect({
      runText: whole(result.text, ANSWER),
      runMessages: texts(result.messages, RUN_TEXTS),
      runEvents: eventValues([first.value as AgentEvent, ...rest]),
      followerText: whole(followerResult.text, ANSWER),
      followerMessages: texts(followerResult.messages, RUN_TEXTS),
      followerEvents: eventValues(followerEvents),
      sendText: whole(again.text, ANSWER),
      sendMessages: texts(again.messages, ["once more", TOOL_RESULT, ANSWER]),
      transcript: texts(transcript, transcriptTexts),
    }).toEqual({
      runText: "whole",
      runMessages: allWhole(3),
      runEvents: WHOLE,
      followerText: "whole",
      followerMessages: allWhole(3),
      followerEvents: WHOLE,
      sendText: "whole",
      sendMessages: allWhole(3),
      transcript: allWhole(transcriptTexts.length),
    });
  }, 120_000);

  it("in process, the same run gives the same whole values", async () => {
    const [events, result] = await collect(
      createAgent(localAgentConfig(verbose, model())).run("write the report"),
    );
    expect({
      text: whole(result.text, ANSWER),
      messages: texts(result.messages, RUN_TEXTS),
      events: eventValues(events),
    }).toEqual({ text: "whole", messages: ["whole", "whole", "whole"], events: WHOLE });
  });
});
