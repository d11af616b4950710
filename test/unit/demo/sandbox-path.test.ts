import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSandboxPath, SandboxPathError } from "../../../src/demo/sandbox-path.js";

describe("resolveSandboxPath", () => {
  let base: string;
  let root: string;

  beforeAll(() => {
    base = mkdtempSync(path.join(tmpdir(), "sandbox-path-"));
    root = path.join(base, "sandbox");
    mkdirSync(path.join(root, "notes"), { recursive: true });
    writeFileSync(path.join(root, "notes", "a.txt"), "a");
    writeFileSync(path.join(base, "secret.txt"), "secret");
    symlinkSync(path.join(base, "secret.txt"), path.join(root, "leak.txt"));
    symlinkSync(path.join(root, "notes", "a.txt"), path.join(root, "inner-link.txt"));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("resolves relative paths inside the sandbox, including '.' and harmless '..' segments", () => {
    expect(resolveSandboxPath(root, "notes/a.txt")).toBe(path.join(root, "notes", "a.txt"));
    expect(resolveSandboxPath(root, ".")).toBe(root);
    expect(resolveSandboxPath(root, "notes/../notes/a.txt")).toBe(path.join(root, "notes", "a.txt"));
    expect(resolveSandboxPath(root, "not-yet-there.txt")).toBe(path.join(root, "not-yet-there.txt"));
  });

  it("refuses paths that climb out of the sandbox", () => {
    expect(() => resolveSandboxPath(root, "../secret.txt")).toThrow(SandboxPathError);
    expect(() => resolveSandboxPath(root, "notes/../../secret.txt")).toThrow(
      "'notes/../../secret.txt' is outside the sandbox folder",
    );
  });

  it("refuses absolute paths, even ones inside the sandbox", () => {
    expect(() => resolveSandboxPath(root, path.join(root, "notes", "a.txt"))).toThrow("is an absolute path");
    expect(() => resolveSandboxPath(root, "/etc/passwd")).toThrow(SandboxPathError);
  });

  it("refuses a symbolic link that leads outside, and follows one that stays inside", () => {
    expect(() => resolveSandboxPath(root, "leak.txt")).toThrow(
      "'leak.txt' links to a place outside the sandbox",
    );
    expect(resolveSandboxPath(root, "inner-link.txt")).toBe(path.join(root, "inner-link.txt"));
  });

  it("refuses a NUL character", () => {
    expect(() => resolveSandboxPath(root, "a\0b")).toThrow("NUL");
  });
});
