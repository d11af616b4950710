import { describe, expect, it } from "vitest";
import { CliError } from "../../../src/cli/cli-error.js";
import { listQuery } from "../../../src/cli/options/list-query.js";

describe("listQuery", () => {
  it("leaves out executions closed by continue-as-new, and nothing else, by default", () => {
    expect(listQuery({})).toBe('ExecutionStatus != "ContinuedAsNew"');
    expect(listQuery({ all: true })).toBeUndefined();
  });

  it("filters on the AgentStatus and AgentName search attributes and ANDs a raw query in parentheses", () => {
    expect(
      listQuery({
        status: "awaiting_approval",
        agent: "refunds",
        query: "AgentTokens > 10 OR AgentTurns > 2",
        all: true,
      }),
    ).toBe(
      'AgentStatus = "awaiting_approval" AND AgentName = "refunds" AND (AgentTokens > 10 OR AgentTurns > 2)',
    );
  });

  it("escapes quotes and backslashes in values", () => {
    expect(listQuery({ agent: 'a"b\\c', all: true })).toBe('AgentName = "a\\"b\\\\c"');
  });

  it("rejects an unknown status as misuse (exit 2), naming the valid ones", () => {
    let caught: unknown;
    try {
      listQuery({ status: "waiting" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CliError);
    expect(caught).toMatchObject({
      exitCode: 2,
      message:
        "unknown status 'waiting'; one of: idle, running, awaiting_approval, awaiting_input, failed, closed",
    });
  });
});
