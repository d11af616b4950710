import { describe, expect, it } from "vitest";
import { sessionReport } from "../../../src/cli/render/session-report.js";
import type { SessionStatus } from "../../../src/contract/session-status.js";

const NOW = Date.parse("2026-01-01T12:00:00Z");

const waiting: SessionStatus = {
  sessionId: "s 1",
  agent: "refunds",
  status: "awaiting_approval",
  currentRun: { runId: "r1", turn: 2 },
  pendingApprovals: [
    {
      callId: "c1",
      runId: "r1",
      tool: "refund",
      input: { order: 42 },
      reason: "money",
      requestedAt: NOW - 120_000,
      expiresAt: NOW + 3_600_000,
    },
  ],
  pendingQuestions: [
    {
      callId: "q1",
      runId: "r1",
      question: "Which?",
      options: ["full", "half"],
      requestedAt: NOW - 5_000,
      expiresAt: NOW + 60_000,
    },
  ],
  queuedRuns: ["r2"],
  runsCompleted: 3,
  turns: 7,
  usage: { inputTokens: 1200, outputTokens: 80 },
  messageCount: 14,
  offset: 99,
  rejectedSignals: ["approve: malformed payload"],
};

describe("sessionReport", () => {
  it("shows the status, the run, the queue, usage, and each pending request with the exact command that answers it", () => {
    const report = sessionReport(waiting, {
      now: NOW,
      commandPrefix: "lite-agent --address h:1",
      events: [],
    });
    expect(report.split("\n")).toEqual([
      "Session  s 1 · agent refunds",
      "Status   awaiting_approval",
      "Run      r1 · turn 2",
      "Queued   1 run: r2",
      "Usage    tokens 1200 in / 80 out · 7 turns · 3 runs completed · 14 messages",
      "Pending approvals (1):",
      '  c1  refund {"order":42} — money',
      "      waiting 2m, times out in 1h · run r1",
      "      allow: lite-agent --address h:1 approve 's 1' c1",
      "      deny:  lite-agent --address h:1 deny 's 1' c1 --reason '…'",
      "Pending questions (1):",
      "  q1  Which? [full, half]",
      "      waiting 5s, times out in 1m · run r1",
      "      answer: lite-agent --address h:1 answer 's 1' q1 '<text>'   or: lite-agent --address h:1 answer 's 1' q1 --select full",
      "Rejected signals (1):",
      "  approve: malformed payload",
      "Recent events: none",
      "",
    ]);
  });

  it("says which build the session runs on when its workers are versioned", () => {
    const report = sessionReport(waiting, { now: NOW, commandPrefix: "lite-agent", events: undefined });
    expect(report).not.toContain("Build");
    const versioned = sessionReport(waiting, {
      now: NOW,
      commandPrefix: "lite-agent",
      events: undefined,
      build: "lite-agent:b2, pinned",
    });
    expect(versioned.split("\n").slice(0, 3)).toEqual([
      "Session  s 1 · agent refunds",
      "Build    lite-agent:b2, pinned",
      "Status   awaiting_approval",
    ]);
  });

  it("lists the recent events by offset, or says why they are missing", () => {
    const idle: SessionStatus = {
      ...waiting,
      status: "idle",
      pendingApprovals: [],
      pendingQuestions: [],
      queuedRuns: [],
      rejectedSignals: [],
    };
    delete idle.currentRun;
    const events = [
      { type: "turn_start" as const, turn: 1, offset: 4, runId: "r1" },
      {
        type: "tool_result" as const,
        result: { id: "c1", name: "refund", content: "ok" },
        offset: 9,
        runId: "r1",
      },
    ];
    const report = sessionReport(idle, { now: NOW, commandPrefix: "lite-agent", events });
    expect(report).toContain("Run      none\nQueued   none\n");
    expect(report).toContain("Recent events (2):\n  #4 ── turn 1 ──\n  #9 ← refund: ok\n");
    expect(
      sessionReport(idle, { now: NOW, commandPrefix: "lite-agent", events: { unavailable: "closed" } }),
    ).toContain("Recent events: unavailable (closed)");
    expect(sessionReport(idle, { now: NOW, commandPrefix: "lite-agent", events: undefined })).not.toContain(
      "Recent events",
    );
  });

  it("shows who may decide, the recent decisions and the ignored decision signals", () => {
    const text = sessionReport(
      {
        ...waiting,
        pendingApprovals: [
          { ...waiting.pendingApprovals[0]!, approvers: { actors: ["alice"], groups: { finance: ["bob"] } } },
        ],
        recentDecisions: [
          {
            callId: "c0",
            tool: "refund",
            decision: "allow",
            actor: "bob",
            reason: "ok",
            at: NOW,
            via: "update",
          },
        ],
        rejectedDecisions: [
          { callId: "c1", tool: "refund", decision: "deny", actor: "eve", at: NOW, why: "not hers" },
        ],
      },
      { now: NOW, commandPrefix: "lite-agent", events: undefined },
    );
    expect(text).toContain("      may be decided by: alice, group finance (bob)\n");
    expect(text).toContain(
      "Recent decisions (1):\n  allowed refund c0 by bob at 2026-01-01T12:00:00.000Z (update) — ok\n",
    );
    expect(text).toContain(
      "Ignored decision signals (1):\n  deny refund c1 from eve at 2026-01-01T12:00:00.000Z: not hers\n",
    );
  });

  it("lists running subagents and background tasks, and the cost when the agent's model is priced", () => {
    const text = sessionReport(
      {
        ...waiting,
        cost: 0.0018,
        budgetStop: { runId: "r9", limit: "session_cost", used: 0.0021, max: 0.002 },
        subagents: [{ sessionId: "s 1/task-c1-1", agent: "researcher", forkId: "task-c1-1" }],
        backgroundTasks: [
          { id: "bg_0_abc123", label: "Subagent group: tides", done: false },
          { id: "bg_1_def456", label: "Subagent group: maps", done: true },
        ],
      },
      { now: NOW, commandPrefix: "lite-agent", events: undefined },
    );
    expect(text).toContain("tokens 1200 in / 80 out · cost 0.0018 ·");
    expect(text).toContain("\nBudget   run r9 stopped at session cost 0.0021 of 0.002\n");
    expect(text).toContain("Subagents (1):\n  s 1/task-c1-1 · agent researcher\n");
    expect(text).toContain(
      "Background tasks (2):\n  bg_0_abc123 · Subagent group: tides · running\n  bg_1_def456 · Subagent group: maps · done",
    );
    expect(sessionReport(waiting, { now: NOW, commandPrefix: "lite-agent", events: undefined })).not.toMatch(
      /cost|Budget|Subagents|Background/,
    );
  });

  it("says where a forked session comes from, and the model it runs on instead of its agent's", () => {
    const text = sessionReport(
      { ...waiting, forkedFrom: { sessionId: "source 1", turn: 4 }, model: "gpt-4.1" },
      { now: NOW, commandPrefix: "lite-agent", events: undefined },
    );
    expect(text.split("\n").slice(0, 2)).toEqual([
      "Session  s 1 · agent refunds · model gpt-4.1",
      "Forked   from source 1 at the end of turn 4",
    ]);
    expect(sessionReport(waiting, { now: NOW, commandPrefix: "lite-agent", events: undefined })).not.toMatch(
      /Forked|model/,
    );
  });

  it("names the skill files the last run's plan skipped, with their errors", () => {
    const text = sessionReport(
      { ...waiting, skillDiagnostics: [{ file: "/skills/bad/SKILL.md", error: "'name' must be a string" }] },
      { now: NOW, commandPrefix: "lite-agent", events: undefined },
    );
    expect(text).toContain("\nSkipped skill files (1):\n  /skills/bad/SKILL.md: 'name' must be a string\n");
    expect(
      sessionReport(waiting, { now: NOW, commandPrefix: "lite-agent", events: undefined }),
    ).not.toContain("Skipped skill files");
  });

  it("names the MCP servers the last run went without, with their breaker, when it retries and the last error", () => {
    const unavailable = {
      server: "github",
      retryAt: NOW + 250_000,
      lastError: "timeout after 15 s",
      failures: 2,
    };
    const text = sessionReport(
      {
        ...waiting,
        mcpUnavailable: [
          { ...unavailable, breaker: "open" },
          { ...unavailable, server: "fs", breaker: "half_open", retryAt: NOW - 1 },
        ],
      },
      { now: NOW, commandPrefix: "lite-agent", events: undefined },
    );
    expect(text).toContain(
      "\nMCP      github unavailable (breaker open, retry in 4m 10s, last error: timeout after 15 s)\n" +
        "MCP      fs unavailable (breaker half-open, retry at the next run, last error: timeout after 15 s)\n",
    );
  });
});
