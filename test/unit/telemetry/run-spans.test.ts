import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import type { TelemetryEvent } from "../../../src/wire/telemetry-event.js";
import type { AgentMetrics } from "../../../src/telemetry/agent-metrics.js";
import { createAgentTracing } from "../../../src/telemetry/agent-tracing.js";
import { RunSpans } from "../../../src/telemetry/run-spans.js";
import { runSpanIds, turnSpanIds } from "../../../src/telemetry/run-span-ids.js";

const session = { workflowId: "session-1" };
const usage = { inputTokens: 10, outputTokens: 4 };

/** A RunSpans on an in-memory exporter, with a clock the test moves and the metrics it records. */
async function setup() {
  const exporter = new InMemorySpanExporter();
  let now = 1_000;
  const recorded: string[] = [];
  const metrics = {
    turnEnded: (agent: string) => recorded.push(`turn ${agent}`),
    runEnded: (agent: string, reason: string) => recorded.push(`ended ${agent} ${reason}`),
    approvalRequested: (agent: string) => recorded.push(`asked ${agent}`),
    approvalResolved: (agent: string, decision: string, waited?: number) =>
      recorded.push(`resolved ${agent} ${decision} ${waited}`),
  } as unknown as AgentMetrics;
  const spans = new RunSpans(await createAgentTracing({ exporter }), metrics, () => now);
  const send = (runId: string, ...events: TelemetryEvent[]) =>
    events.forEach((event) => spans.event(session, "agent", runId, event));
  const finished = () => exporter.getFinishedSpans();
  const byName = (name: string): ReadableSpan => finished().find((span) => span.name === name)!;
  return { spans, send, finished, byName, recorded, advance: (ms: number) => (now += ms) };
}

describe("RunSpans", () => {
  it("changes and counts nothing for events told again (a workflow task that ran live twice)", async () => {
    const { spans, send, finished, recorded } = await setup();
    const turn1 = [
      { type: "turn_start", turn: 1 },
      { type: "approval_request", id: "c1", tool: "refund" },
    ] as const;
    send("run-a", ...turn1, ...turn1);
    const settle = [
      { type: "approval_resolved", id: "c1", decision: "allow" },
      { type: "turn_end", turn: 1, stopReason: "tool_use" },
    ] as const;
    send("run-a", ...settle, ...turn1, ...settle);
    const done = { type: "done", reason: "stop", usage } as const;
    send(
      "run-a",
      { type: "turn_start", turn: 2 },
      { type: "turn_end", turn: 2, stopReason: "stop" },
      done,
      done,
    );
    send("run-a", { type: "turn_end", turn: 2, stopReason: "stop" }, done);
    const names = finished().map((span) => span.name);
    expect(names.sort()).toEqual(["approval refund", "invoke_agent agent", "turn 1", "turn 2"]);
    expect(recorded).toEqual([
      "asked agent",
      "resolved agent allow 0",
      "turn agent",
      "turn agent",
      "ended agent stop",
    ]);
    expect(spans.openRuns).toBe(0);
  });

  it("makes a run span, its turns and approval waits under the ids every worker derives", async () => {
    const { spans, send, byName, recorded, advance } = await setup();
    send("run-a", { type: "turn_start", turn: 1 }, { type: "approval_request", id: "c1", tool: "refund" });
    advance(2_500);
    send(
      "run-a",
      { type: "approval_resolved", id: "c1", decision: "allow" },
      { type: "turn_end", turn: 1, stopReason: "tool_use" },
      { type: "turn_start", turn: 2 },
      { type: "turn_end", turn: 2, stopReason: "stop" },
      { type: "done", reason: "stop", usage },
    );
    const run = byName("invoke_agent agent");
    expect(run.spanContext()).toMatchObject(runSpanIds("session-1", "run-a"));
    expect(run.attributes).toMatchObject({
      "lite_agent.stop_reason": "stop",
      "gen_ai.usage.input_tokens": 10,
    });
    expect(run.attributes["lite_agent.resumed"]).toBeUndefined();
    for (const turn of [1, 2]) {
      const span = byName(`turn ${turn}`);
      expect(span.spanContext()).toMatchObject(turnSpanIds("session-1", "run-a", turn));
      expect(span.parentSpanId).toBe(run.spanContext().spanId);
    }
    expect(byName("approval refund").parentSpanId).toBe(byName("turn 1").spanContext().spanId);
    expect(recorded).toEqual([
      "asked agent",
      "resolved agent allow 2500",
      "turn agent",
      "turn agent",
      "ended agent stop",
    ]);
    expect(spans.openRuns).toBe(0);
  });

  it("carries on a run another worker began (a crash): same ids, marked resumed, no wait time it did not see", async () => {
    const { send, byName, recorded } = await setup();
    send(
      "run-b",
      { type: "approval_resolved", id: "c9", decision: "deny" },
      { type: "turn_end", turn: 3, stopReason: "tool_use" },
      { type: "done", reason: "stop", usage },
    );
    const run = byName("invoke_agent agent");
    expect(run.spanContext()).toMatchObject(runSpanIds("session-1", "run-b"));
    expect(run.attributes["lite_agent.resumed"]).toBe(true);
    const turn = byName("turn 3");
    expect(turn.spanContext()).toMatchObject(turnSpanIds("session-1", "run-b", 3));
    expect(turn.attributes["lite_agent.resumed"]).toBe(true);
    expect(recorded).toEqual(["resolved agent deny undefined", "turn agent", "ended agent stop"]);
  });

  it("ends what a run left open when it ends (an aborted run mid-approval)", async () => {
    const { send, finished, byName } = await setup();
    send(
      "run-c",
      { type: "turn_start", turn: 1 },
      { type: "approval_request", id: "c1", tool: "refund" },
      { type: "done", reason: "aborted", usage },
    );
    expect(finished().map((span) => span.name)).toEqual(["turn 1", "approval refund", "invoke_agent agent"]);
    expect(byName("approval refund").attributes["lite_agent.approval.decision"]).toBe("cancelled");
  });

  it("counts without tracing", () => {
    const recorded: string[] = [];
    const metrics = {
      turnEnded: () => recorded.push("turn"),
      runEnded: (_agent: string, reason: string) => recorded.push(`ended ${reason}`),
    } as unknown as AgentMetrics;
    const spans = new RunSpans(undefined, metrics);
    spans.event(session, "agent", "run-d", { type: "turn_start", turn: 1 });
    spans.event(session, "agent", "run-d", { type: "turn_end", turn: 1, stopReason: "stop" });
    spans.event(session, "agent", "run-d", { type: "done", reason: "stop", usage });
    expect(recorded).toEqual(["turn", "ended stop"]);
    expect(spans.openRuns).toBe(0);
  });
});
