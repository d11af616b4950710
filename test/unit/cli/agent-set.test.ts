import { describe, expect, it } from "vitest";
import { agentSetOf } from "../../../src/cli/serve/agent-set.js";
import type { CliError } from "../../../src/cli/cli-error.js";
import { defineAgent } from "../../../src/define-agent.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";

const agent = defineAgent({ name: "a", model: "m" });
const provider = fakeProvider([]);

function failure(module: Record<string, unknown>): CliError {
  try {
    agentSetOf(module, "agents.ts");
  } catch (error) {
    return error as CliError;
  }
  throw new Error("no error");
}

describe("agentSetOf", () => {
  it("takes a default export { agents, providers }, or the named exports", () => {
    expect(agentSetOf({ default: { agents: [agent], providers: { m: provider } } }, "x.ts")).toEqual({
      agents: [agent],
      providers: { m: provider },
    });
    expect(agentSetOf({ agents: [agent], providers: { "*": () => provider } }, "x.ts").agents).toEqual([
      agent,
    ]);
  });

  it("says what is wrong with a module that does not fit, as misuse", () => {
    expect(failure({ default: {} })).toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^agents\.ts exports no agents: its default export/),
    });
    expect(failure({ agents: [{ name: "x" }], providers: { m: provider } }).message).toBe(
      "agents.ts: agents[0] is not an agent definition (it needs a name and a model)",
    );
    expect(failure({ agents: [agent], providers: {} }).message).toMatch(/^agents\.ts exports no providers/);
    expect(failure({ agents: [agent], providers: { m: {} } }).message).toBe(
      "agents.ts: providers['m'] is not a ModelProvider (it needs a stream() method)",
    );
  });
});
