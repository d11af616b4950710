import { describe, expect, it } from "vitest";
import { runCliInProcess } from "../../support/cli-in-process.js";

/** Runs the CLI in-process on buffers; none of these cases reaches a server. */
const run = (...argv: string[]) => runCliInProcess(argv);

describe("runCli", () => {
  it("prints help with exit 0 when asked, and with exit 2 when no command is given", async () => {
    const help = await run("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: lite-agent \[options\] \[command\]/);
    for (const command of [
      "dev",
      "worker",
      "run",
      "watch",
      "approve",
      "deny",
      "answer",
      "steer",
      "interrupt",
      "cancel",
      "list",
      "show",
      "history",
      "replay",
      "close",
    ]) {
      expect(help.stdout).toMatch(new RegExp(`\\n  ${command} `));
    }
    const none = await run();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("Usage: lite-agent");
  });

  it("exits 2 with the reason for every misuse of the command line", async () => {
    const cases: [string[], RegExp][] = [
      [["frobnicate"], /error: unknown command 'frobnicate'/],
      [["run", "agent"], /error: missing required argument 'prompt'/],
      [["run", "agent", "  "], /error: the prompt is empty/],
      [
        ["run", "agent", "hi", "--yes", "--no"],
        /error: option '-y, --yes' cannot be used with option '--no'/,
      ],
      [["run", "agent", "hi", "--bogus"], /error: unknown option '--bogus'/],
      [
        ["run", "agent", "hi", "--detach", "--yes"],
        /error: option '-d, --detach' cannot be used with option '-y, --yes'/,
      ],
      [["answer", "s", "c"], /error: give the answer's text, or --select/],
      [["answer", "s", "c", "--select", ","], /error: option '--select <options>' argument ',' is invalid/],
      [["show", "s", "--events", "many"], /expected a whole number/],
      [["steer", "s", " "], /error: the message is empty/],
      [["close", "a", "b"], /error: too many arguments for 'close'/],
      [["replay", "/no/such/history.json"], /error: cannot read \/no\/such\/history\.json/],
      [["dev", "--port", "99999"], /expected a port between 1 and 65535/],
      [["worker", "--build-id", "b1"], /needs both a deployment name .* and a build id/],
    ];
    for (const [argv, message] of cases) {
      const result = await run(...argv);
      expect({ argv, code: result.code, stderr: result.stderr }).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(message),
      });
    }
  });
});
