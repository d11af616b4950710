import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const cli = fileURLToPath(new URL("../../../bin/lite-agent.js", import.meta.url));

describe("a reader that stops early", () => {
  it("output into a pipe nobody reads (`lite-agent --help | true`) ends quietly with 0, not an EPIPE crash", async () => {
    // `true` exits at once, so the CLI's first write meets a closed pipe; pipefail reports the CLI's own status.
    const { stderr } = await run("bash", [
      "-o",
      "pipefail",
      "-c",
      `node ${JSON.stringify(cli)} --help | true`,
    ]);
    expect(stderr).not.toContain("EPIPE");
  }, 60_000);
});
