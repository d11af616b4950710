import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { prepareSandbox, SANDBOX_SEED_DIR } from "../../../src/demo/prepare-sandbox.js";

let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

describe("prepareSandbox", () => {
  it("copies the seed files into a new sandbox folder", () => {
    dir = mkdtempSync(path.join(tmpdir(), "prepare-sandbox-"));
    const sandbox = path.join(dir, "demo", "sandbox");
    expect(prepareSandbox(sandbox)).toBe(3);
    expect(readFileSync(path.join(sandbox, "sales.csv"), "utf8")).toBe(
      readFileSync(path.join(SANDBOX_SEED_DIR, "sales.csv"), "utf8"),
    );
    expect(existsSync(path.join(sandbox, "notes", "targets.txt"))).toBe(true);
  });

  it("keeps files the user changed and adds the missing ones", () => {
    dir = mkdtempSync(path.join(tmpdir(), "prepare-sandbox-"));
    writeFileSync(path.join(dir, "sales.csv"), "mine\n");
    prepareSandbox(dir);
    expect(readFileSync(path.join(dir, "sales.csv"), "utf8")).toBe("mine\n");
    expect(existsSync(path.join(dir, "README.txt"))).toBe(true);
  });
});
