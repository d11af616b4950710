import { describe, expect, it } from "vitest";
import { currentDetails } from "../../../src/workflows/session/current-details.js";
import type { SessionStatus } from "../../../src/contract/session-status.js";

const base: SessionStatus = {
  sessionId: "s-1",
  agent: "support",
  status: "awaiting_approval",
  currentRun: { runId: "run-1", turn: 2 },
  pendingApprovals: [],
  pendingQuestions: [],
  queuedRuns: [],
  runsCompleted: 3,
  turns: 7,
  usage: { inputTokens: 100, outputTokens: 20 },
  messageCount: 9,
  offset: 40,
  rejectedSignals: [],
};

describe("current details", () => {
  it("shows status, run and totals", () => {
    const text = currentDetails({ ...base, status: "running" });
    expect(text).toContain("**Agent** support · **Status** running · run `run-1`, turn 2");
    expect(text).toContain("**Runs** 3 completed, 0 queued · **Turns** 7 · **Tokens** 120");
    expect(text).not.toContain("Pending");
  });

  it("says why the last run failed", () => {
    const text = currentDetails({
      ...base,
      status: "failed",
      failure: { runId: "run-9", message: "unknown agent 'ghost'" },
    });
    expect(text).toContain("**Status** ✖ failed");
    expect(text).toContain("**Last run failed** (run `run-9`): unknown agent 'ghost'");
  });

  it("gives each pending approval the exact signal and commands that answer it", () => {
    const text = currentDetails({
      ...base,
      pendingApprovals: [
        {
          callId: "c1",
          runId: "run-1",
          tool: "refund",
          input: { order: 42 },
          reason: "money",
          requestedAt: 0,
          expiresAt: 86_400_000,
        },
      ],
    });
    expect(text).toContain("### Pending approvals (1)");
    expect(text).toContain(
      '- **refund** `{"order":42}` — money · call `c1`, waiting since 1970-01-01T00:00:00.000Z, times out 1970-01-02T00:00:00.000Z',
    );
    expect(text).toContain(
      `temporal workflow signal --workflow-id s-1 --name approve --input '{"callId":"c1"}'`,
    );
    expect(text).toContain(
      `temporal workflow signal --workflow-id s-1 --name deny --input '{"callId":"c1"}'`,
    );
    expect(text).toContain("lite-agent approve s-1 c1");
  });

  it("lists pending questions with how to answer", () => {
    const text = currentDetails({
      ...base,
      status: "awaiting_input",
      pendingQuestions: [
        {
          callId: "q1",
          runId: "run-1",
          question: "Which colour?",
          options: ["red", "blue"],
          requestedAt: 0,
          expiresAt: 1000,
        },
      ],
    });
    expect(text).toContain("⏸ awaiting an answer");
    expect(text).toContain("- Which colour? (options: red, blue) · call `q1`");
    expect(text).toContain("lite-agent answer s-1 q1 <text>");
  });

  it("names who may decide an approval, and lists recent decisions and ignored decision signals", () => {
    const text = currentDetails({
      ...base,
      pendingApprovals: [
        {
          callId: "c1",
          runId: "run-1",
          tool: "refund",
          input: {},
          requestedAt: 0,
          expiresAt: 1_000,
          approvers: { actors: ["alice"], groups: { finance: ["bob"] } },
        },
      ],
      recentDecisions: [
        { callId: "c0", tool: "refund", decision: "deny", actor: "bob", reason: "dup", at: 0, via: "update" },
      ],
      rejectedDecisions: [
        { callId: "c1", tool: "refund", decision: "allow", actor: "eve", at: 0, why: "not hers" },
      ],
    });
    expect(text).toContain("· may be decided by alice, group finance (bob)");
    expect(text).toContain(`--name approve --input '{"callId":"c1","actor":"<your name>"}'`);
    expect(text).toContain(
      "### Recent decisions (1)\n- denied **refund** call `c0` by bob at 1970-01-01T00:00:00.000Z (update) — dup",
    );
    expect(text).toContain(
      "### Ignored decision signals (1)\n- ignored approve of **refund** call `c1` from eve at 1970-01-01T00:00:00.000Z: not hers",
    );
  });

  it("names each skill file the last run's plan skipped, with its error", () => {
    const text = currentDetails({
      ...base,
      skillDiagnostics: [{ file: "/skills/bad/SKILL.md", error: "'name' must be a string" }],
    });
    expect(text).toContain("### Skipped skill files (1)\n- `/skills/bad/SKILL.md`: 'name' must be a string");
    expect(currentDetails(base)).not.toContain("Skipped skill files");
  });

  it("names each MCP server the last run went without, with its breaker", () => {
    const retryAt = Date.UTC(2026, 11, 7, 12, 5);
    const text = currentDetails({
      ...base,
      mcpUnavailable: [
        { server: "github", breaker: "open", retryAt, lastError: "timeout after 15 s", failures: 1 },
      ],
    });
    expect(text).toContain(
      "### MCP servers unavailable to the last run (1)\n" +
        "- **github** unavailable (breaker open until 2026-12-07T12:05:00.000Z, last error: timeout after 15 s)",
    );
    expect(currentDetails(base)).not.toContain("MCP servers");
  });
});
