import { describe, expect, it } from "vitest";
import { CircuitBreaker } from "../../../src/mcp/mcp-breaker.js";
import { McpBreakers, McpServerUnavailableError } from "../../../src/mcp/mcp-breakers.js";
import { NEVER_ABORTED } from "../../../src/kernel/vocabulary/ports.js";
import type { McpServerConfig } from "../../../src/plan/mcp-servers.js";
import { McpConnectionPool } from "../../../src/mcp/mcp-connection-pool.js";
import { callMcpTool } from "../../../src/mcp/mcp-call.js";

/** A clock the test moves by hand. */
function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const BACKOFF = { backoffMs: 30_000, maxBackoffMs: 300_000 };

describe("CircuitBreaker", () => {
  it("closed lets every attempt through", () => {
    const breaker = new CircuitBreaker(BACKOFF, clock().now);
    expect(breaker.admit()).toEqual({ pass: true, probe: false });
    expect(breaker.admit()).toEqual({ pass: true, probe: false });
    expect(breaker.state()).toEqual({ state: "closed" });
  });

  it("a failure opens it for the window; after it one probe goes through, the rest wait for it", () => {
    const time = clock();
    const breaker = new CircuitBreaker(BACKOFF, time.now);
    breaker.fail("timeout after 15 s");
    const open = {
      state: "open",
      retryAt: time.now() + 30_000,
      lastError: "timeout after 15 s",
      failures: 1,
    };
    expect(breaker.admit()).toEqual({ pass: false, state: open });
    time.advance(29_999);
    expect(breaker.admit().pass).toBe(false);
    time.advance(1);
    expect(breaker.state().state).toBe("half_open");
    expect(breaker.admit()).toEqual({ pass: true, probe: true });
    expect(breaker.admit()).toMatchObject({ pass: false, state: { state: "half_open" } });
  });

  it("a failed probe doubles the window up to the cap; a success closes it and starts over", () => {
    const time = clock();
    const breaker = new CircuitBreaker(BACKOFF, time.now);
    const windows: number[] = [];
    for (let failure = 0; failure < 6; failure++) {
      const state = breaker.fail("down");
      windows.push(state.state === "closed" ? 0 : state.retryAt - time.now());
      time.advance(windows.at(-1)!);
      expect(breaker.admit()).toEqual({ pass: true, probe: true });
    }
    expect(windows).toEqual([30_000, 60_000, 120_000, 240_000, 300_000, 300_000]);
    breaker.succeed();
    expect(breaker.state()).toEqual({ state: "closed" });
    const again = breaker.fail("down again");
    expect(again).toMatchObject({ retryAt: time.now() + 30_000, failures: 1 });
  });
});

describe("McpBreakers", () => {
  const config: McpServerConfig = { command: "broken-server" };

  it("concurrent listings share one attempt; while open they are refused at once, without an attempt", async () => {
    const time = clock();
    const logged: string[] = [];
    const breakers = new McpBreakers({
      ...BACKOFF,
      now: time.now,
      log: (_, message) => logged.push(message),
    });
    let attempts = 0;
    let fail!: (error: Error) => void;
    const attempt = () => {
      attempts++;
      return new Promise<string[]>((_, reject) => (fail = reject));
    };
    const first = breakers.listing("broken", config, NEVER_ABORTED, attempt);
    const second = breakers.listing("broken", config, NEVER_ABORTED, attempt);
    fail(new Error("timeout after 15 s: no answer to initialize"));
    for (const listing of [first, second]) {
      const error: unknown = await listing.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpServerUnavailableError);
      expect((error as McpServerUnavailableError).unavailable()).toEqual({
        server: "broken",
        breaker: "open",
        retryAt: time.now() + 30_000,
        lastError: "timeout after 15 s: no answer to initialize",
        failures: 1,
      });
    }
    await expect(breakers.listing("broken", config, NEVER_ABORTED, attempt)).rejects.toThrow(
      /MCP server 'broken' is unavailable \(breaker open until .*Z, last error: timeout after 15 s/,
    );
    expect(attempts).toBe(1);
    expect(logged).toEqual([expect.stringMatching(/^MCP server 'broken' is unavailable \(breaker open/)]);

    time.advance(30_000);
    await expect(
      breakers.listing("broken", config, NEVER_ABORTED, () => Promise.resolve(["t"])),
    ).resolves.toEqual(["t"]);
    expect(breakers.state(config)).toEqual({ state: "closed" });
    expect(logged.slice(1)).toEqual([
      "MCP server 'broken': breaker half-open, trying again",
      "MCP server 'broken': breaker closed, the server answers again",
    ]);
  });

  it("keys breakers by the server's whole configuration", () => {
    const breakers = new McpBreakers({ now: clock().now });
    breakers.failed("a", config, new Error("down"));
    expect(breakers.state(config).state).toBe("open");
    expect(breakers.state({ command: "broken-server", args: ["--other"] }).state).toBe("closed");
    expect(() => breakers.admit("a", { ...config })).toThrow(McpServerUnavailableError);
  });

  it("a caller that gives up leaves the shared attempt to the others", async () => {
    const breakers = new McpBreakers({ now: clock().now });
    let answer!: (tools: string[]) => void;
    const controller = new AbortController();
    const attempt = () => new Promise<string[]>((resolve) => (answer = resolve));
    const leaving = breakers.listing("s", config, controller.signal, attempt);
    const staying = breakers.listing("s", config, NEVER_ABORTED, attempt);
    controller.abort(new Error("cancelled"));
    await expect(leaving).rejects.toThrow("cancelled");
    answer(["t"]);
    await expect(staying).resolves.toEqual(["t"]);
  });

  it("a tool call to a server whose breaker is open is a tool error at once, with no connection", async () => {
    const pool = new McpConnectionPool({ now: clock().now });
    const missing: McpServerConfig = { command: "/no/such/mcp-server" };
    pool.breakers.failed("gone", missing, new Error("timeout after 15 s: no answer to initialize"));
    const output = await callMcpTool(
      pool,
      "gone",
      missing,
      "echo",
      {},
      { signal: NEVER_ABORTED, timeoutMs: 60_000 },
    );
    expect(output).toEqual({
      content: expect.stringMatching(
        /^Error: MCP server 'gone' is unavailable \(breaker open until \S+Z, last error: timeout after 15 s/,
      ),
      isError: true,
    });
    await pool.close();
  });
});
