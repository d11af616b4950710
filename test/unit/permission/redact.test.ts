import { describe, expect, it } from "vitest";
import { defaultRedactor, redactString } from "../../../src/kernel/permission/redact.js";

describe("defaultRedactor", () => {
  it("masks bearer tokens but keeps the scheme", () => {
    const out = redactString("curl -H 'Authorization: Bearer abcDEF123.456-xyz' https://x");
    expect(out).toBe("curl -H 'Authorization: Bearer [redacted]' https://x");
  });

  it("masks sk- keys", () => {
    expect(redactString("OPENAI=sk-proj-abcdefghijklmnop1234 run")).not.toContain(
      "sk-proj-abcdefghijklmnop1234",
    );
    expect(redactString("use sk-abcdefghijklmnopqrst now")).toBe("use [redacted] now");
  });

  it("masks JWTs", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    expect(redactString(`cookie ${jwt}`)).toBe("cookie [redacted]");
  });

  it("masks email addresses", () => {
    expect(redactString("mail alice.smith+x@example.co.uk now")).toBe("mail [redacted] now");
  });

  it("masks key=value secrets and keeps the key", () => {
    expect(redactString("api_key=abc123456 token: qwerty99 password=hunter2")).toBe(
      "api_key=[redacted] token: [redacted] password=[redacted]",
    );
    expect(redactString("export GITHUB_TOKEN=ghp_abcdef")).toBe("export GITHUB_TOKEN=[redacted]");
    expect(redactString('{"secret": "s3cr3t-value"}')).toBe('{"secret": "[redacted]"}');
  });

  it("leaves ordinary text alone", () => {
    expect(redactString("ls -la /tmp && echo done")).toBe("ls -la /tmp && echo done");
  });

  it("walks every string of a JSON value and returns a new value", () => {
    const input = { cmd: "echo password=hunter2", nested: [{ to: "bob@example.com" }, 3, null, true] };
    const out = defaultRedactor(input);
    expect(out).toEqual({ cmd: "echo password=[redacted]", nested: [{ to: "[redacted]" }, 3, null, true] });
    expect(input.cmd).toBe("echo password=hunter2");
  });

  it("masks string values of keys named like secrets", () => {
    expect(defaultRedactor({ password: "hunter2", apiKey: "abc", user: "bob" })).toEqual({
      password: "[redacted]",
      apiKey: "[redacted]",
      user: "bob",
    });
  });

  it("passes primitives through and survives cycles", () => {
    expect(defaultRedactor(42)).toBe(42);
    const cyclic: Record<string, unknown> = { a: "x" };
    cyclic.self = cyclic;
    expect(defaultRedactor(cyclic)).toEqual({ a: "x", self: "[circular]" });
  });
});
