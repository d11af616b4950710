import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCliInProcess } from "../../support/cli-in-process.js";

const run = (...argv: string[]) => runCliInProcess(argv);
const manifest = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

describe("lite-agent --version and --help", () => {
  it("prints the package's version with --version and -V, exit 0", async () => {
    for (const flag of ["--version", "-V"]) {
      const result = await run(flag);
      expect({ flag, ...result }).toEqual({ flag, code: 0, stdout: `${manifest.version}\n`, stderr: "" });
    }
  });

  it("leaves -v to `dev --verbose`", async () => {
    const help = await run("dev", "--help");
    expect(help.stdout).toContain("-v, --verbose");
  });

  it("shows the global options in every command's help, and the footer only on the program's", async () => {
    const top = await run("--help");
    expect(top.stdout).toContain("Exit codes:");
    expect(top.stdout.match(/Exit codes:/g)).toHaveLength(1);
    for (const command of ["show", "list", "history", "approve", "run", "worker"]) {
      const help = await run(command, "--help");
      expect({ command, code: help.code }).toEqual({ command, code: 0 });
      expect(help.stdout).toMatch(/Global Options:[\s\S]*--address <host:port>[\s\S]*--namespace <name>/);
      expect(help.stdout).toContain("--task-queue <name>");
      expect(help.stdout).not.toContain("Exit codes:");
      expect(help.stdout).not.toContain("Environment:");
    }
  });
});
