import { getEventListeners } from "node:events";
import type { Client } from "@temporalio/client";
import { describe, expect, it } from "vitest";
import { SessionStreamReader, nextPause } from "../../../src/runtime/session-stream-reader.js";
import type { ReadStreamResult } from "../../../src/workflows/stream-messages.js";

/** A client whose session answers every read with `page`. */
function clientAnswering(page: ReadStreamResult): Client {
  return {
    workflow: { getHandle: () => ({ query: async () => page }) },
    connection: { withDeadline: (_deadline: number, read: () => Promise<unknown>) => read() },
  } as unknown as Client;
}

const closedSession: ReadStreamResult = { base: 0, end: 0, items: [], deltas: [], closed: true };

describe("SessionStreamReader and the client that reads", () => {
  it("unsubscribes from the client's close signal when its stream ends (one client reads many streams)", async () => {
    const clientClosed = new AbortController();
    for (let index = 0; index < 20; index++) {
      const reader = new SessionStreamReader(clientAnswering(closedSession), `s${index}`, {
        from: 0,
        withDeltas: true,
        clientClosed: clientClosed.signal,
      });
      for await (const item of reader.items) void item;
      expect(reader.failure).toBeUndefined();
    }
    expect(getEventListeners(clientClosed.signal, "abort")).toHaveLength(0);
  });

  it("ends with an error that says so when the client closes while it reads", async () => {
    const clientClosed = new AbortController();
    const open: ReadStreamResult = { ...closedSession, closed: false };
    const reader = new SessionStreamReader(clientAnswering(open), "busy", {
      from: 0,
      withDeltas: false,
      clientClosed: clientClosed.signal,
    });
    clientClosed.abort();
    for await (const item of reader.items) void item;
    expect(String(reader.failure)).toMatch(/AgentClient was closed while reading session 'busy'/);
    expect(getEventListeners(clientClosed.signal, "abort")).toHaveLength(0);
  });

  it("reads again soon while live output comes, later after events only, and less and less while nothing comes", () => {
    expect(nextPause("output", 200)).toBe(25);
    expect(nextPause("events", 25)).toBe(100);
    expect(nextPause("nothing", 100)).toBe(150);
    const idle = [nextPause("nothing", 50)];
    while (idle.length < 6) idle.push(nextPause("nothing", idle.at(-1)!));
    expect(idle).toEqual([75, 113, 170, 200, 200, 200]);
  });
});
