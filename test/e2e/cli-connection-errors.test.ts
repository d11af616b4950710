import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../src/dev-server/free-port.js";

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, "..", "..", "bin", "lite-agent.js");
const dir = mkdtempSync(path.join(tmpdir(), "cli-profile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI with only Temporal's config file (no TEMPORAL_ADDRESS): the address is the profile's. */
async function cliWithProfile(env: Record<string, string>, ...args: string[]) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(TEMPORAL_|LITE_AGENT_)/.test(key)),
  );
  return run(process.execPath, [bin, ...args], { env: { ...clean, NO_COLOR: "1", ...env } }).then(
    () => ({ code: 0, stderr: "" }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
}

describe("a server the CLI cannot reach", () => {
  it("is named by the address actually used: the config-file profile's, not the default 7233", async () => {
    const first = await findFreePort();
    const second = await findFreePort("127.0.0.1", [first]);
    const file = path.join(dir, "temporal.toml");
    writeFileSync(
      file,
      `[profile.default]\naddress = "127.0.0.1:${first}"\n\n[profile.staging]\naddress = "127.0.0.1:${second}"\n`,
    );
    const [byDefault, named] = await Promise.all([
      cliWithProfile({ TEMPORAL_CONFIG_FILE: file }, "list"),
      cliWithProfile({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: "staging" }, "show", "s"),
    ]);
    expect(byDefault).toMatchObject({ code: 1 });
    expect(byDefault.stderr).toContain(
      `error: cannot reach the Temporal server at 127.0.0.1:${first} (profile 'default' of ${file})`,
    );
    expect(named.stderr).toContain(`at 127.0.0.1:${second} (profile 'staging' of ${file})`);
    expect(`${byDefault.stderr}${named.stderr}`).not.toContain("7233");
  }, 60_000);
});
