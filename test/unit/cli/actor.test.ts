import { describe, expect, it } from "vitest";
import { resolveActor } from "../../../src/cli/options/actor.js";
import { CliError } from "../../../src/cli/cli-error.js";

const osUser = () => "os-alice";
const noOsUser = () => undefined;

describe("resolveActor", () => {
  it("takes --actor first, then LITE_AGENT_ACTOR, then the OS user name", () => {
    const env = { LITE_AGENT_ACTOR: "env-bob" };
    expect(resolveActor("flag-carol", env, osUser)).toBe("flag-carol");
    expect(resolveActor(undefined, env, osUser)).toBe("env-bob");
    expect(resolveActor(undefined, {}, osUser)).toBe("os-alice");
  });

  it("skips blank values and ignores $USER, which the OS user name replaces", () => {
    expect(resolveActor("  ", { LITE_AGENT_ACTOR: " ", USER: "shell-dave" }, osUser)).toBe("os-alice");
  });

  it("never makes a name up: with none found it fails saying how to give one", () => {
    const attempt = () => resolveActor(undefined, { USER: "shell-dave" }, noOsUser);
    expect(attempt).toThrow(CliError);
    expect(attempt).toThrow(/pass --actor <name> or set LITE_AGENT_ACTOR/);
  });
});
