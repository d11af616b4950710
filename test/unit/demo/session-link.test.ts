import { describe, expect, it } from "vitest";
import { sessionUiLink, webUiBase } from "../../../src/demo/session-link.js";

describe("sessionUiLink", () => {
  it("points at the workflow page of the session, escaping the parts", () => {
    expect(sessionUiLink("http://127.0.0.1:8233/", "default", "demo-1")).toBe(
      "http://127.0.0.1:8233/namespaces/default/workflows/demo-1",
    );
    expect(sessionUiLink("http://ui", "team a", "s/1")).toBe("http://ui/namespaces/team%20a/workflows/s%2F1");
  });
});

describe("webUiBase", () => {
  it("prefers the configured URL, then the one the embedded server reported", () => {
    expect(webUiBase("http://configured", "http://reported", "127.0.0.1:7233")).toBe("http://configured");
    expect(webUiBase(undefined, "http://reported", "127.0.0.1:40000")).toBe("http://reported");
  });

  it("guesses the CLI's default UI port only for a local server on the default gRPC port", () => {
    expect(webUiBase(undefined, undefined, "localhost:7233")).toBe("http://localhost:8233");
    expect(webUiBase(undefined, undefined, "127.0.0.1:40000")).toBeUndefined();
    expect(webUiBase(undefined, undefined, "temporal.example.com:7233")).toBeUndefined();
  });
});
