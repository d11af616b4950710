import { getEventListeners } from "node:events";
import type { Client } from "@temporalio/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionStreamReader, nextPause } from "../../../src/client/events/session-stream-reader.js";
import type { LoggedEntry } from "../../../src/contract/stream/stream-entry.js";
import type { ReadStreamResult } from "../../../src/contract/stream/stream-messages.js";

/** How the fake sessions describe themselves: no model call in flight, so no live output. */
const describeSession = async () => ({ raw: { pendingActivities: [] } });

/** A client whose session answers every read with `page`. */
function clientAnswering(page: ReadStreamResult): Client {
  return {
    workflow: { getHandle: () => ({ query: async () => page, describe: describeSession }) },
    connection: { withDeadline: (_deadline: number, read: () => Promise<unknown>) => read() },
  } as unknown as Client;
}

/** A client whose busy session has one more event at every read (never quiet, never closed); notes when it is read. */
function busyClient(readAt: number[]): Client {
  let end = 0;
  const read = async (): Promise<ReadStreamResult> => {
    readAt.push(Date.now());
    const entry = { runId: "r", event: { type: "turn_start", turn: end + 1 } } as LoggedEntry["entry"];
    return {
      base: 0,
      end: end + 1,
      items: [{ offset: end++, entry }],
      deltas: [],
      closed: false,
      quiet: false,
    };
  };
  return {
    workflow: { getHandle: () => ({ query: read, describe: describeSession }) },
    connection: { withDeadline: (_deadline: number, run: () => Promise<unknown>) => run() },
  } as unknown as Client;
}

const closedSession: ReadStreamResult = { base: 0, end: 0, items: [], deltas: [], closed: true };

describe("SessionStreamReader and the client that reads", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

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

  it("reads a busy session (every read brings events) less often, and soon again once a burst begins or output comes", () => {
    const busy = [nextPause("events", 25, "output")];
    while (busy.length < 4) busy.push(nextPause("events", busy.at(-1)!, "events"));
    expect(busy).toEqual([100, 200, 200, 200]);
    expect(nextPause("events", 200, "nothing")).toBe(100);
    expect(nextPause("output", 200, "events")).toBe(25);
  });

  it("spaces its reads of a session that has new events at every read: 100 ms, then 200 ms while it stays busy", async () => {
    vi.useFakeTimers();
    const readAt: number[] = [];
    const reader = new SessionStreamReader(busyClient(readAt), "busy", { from: 0, withDeltas: true });
    await vi.advanceTimersByTimeAsync(1_000);
    await reader.stop();
    const gaps = readAt.slice(1).map((at, index) => at - readAt[index]!);
    expect(gaps).toEqual([100, 200, 200, 200, 200]);
  });
});
