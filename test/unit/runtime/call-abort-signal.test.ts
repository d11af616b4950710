import { getEventListeners } from "node:events";
import { Connection } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withCallAbortSignal } from "../../../src/runtime/call-abort-signal.js";
import { temporalAddress } from "../../support/temporal.js";

const abortListeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;

describe("withCallAbortSignal", () => {
  let connection: Connection;
  beforeAll(async () => {
    connection = await Connection.connect({ address: temporalAddress() });
  });
  afterAll(async () => {
    await connection?.close();
  });

  it("leaves no listener on a long-lived signal, however many real calls ran under it", async () => {
    const following = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      for (let call = 0; call < 15; call++) {
        const info = await withCallAbortSignal(connection, following.signal, () =>
          connection.workflowService.getSystemInfo({}),
        );
        expect(info.serverVersion).toBeTruthy();
      }
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(abortListeners(following.signal)).toBe(0);
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
  });

  it("cancels the call in flight when the long-lived signal aborts, with its reason", async () => {
    const following = new AbortController();
    let seen: AbortSignal | undefined;
    const connectionSpy = {
      withAbortSignal: <T>(signal: AbortSignal, fn: () => Promise<T>) => {
        seen = signal;
        return fn();
      },
    };
    const call = withCallAbortSignal(connectionSpy, following.signal, async () => {
      following.abort(new Error("client closed"));
      return seen!.aborted ? (seen!.reason as Error).message : "not aborted";
    });
    await expect(call).resolves.toBe("client closed");
    expect(abortListeners(following.signal)).toBe(0);
  });

  it("starts a call already cancelled when the long-lived signal has aborted", async () => {
    const following = new AbortController();
    following.abort();
    const aborted = await withCallAbortSignal(
      { withAbortSignal: (signal, fn) => (signal.aborted ? Promise.resolve(true as never) : fn()) },
      following.signal,
      async () => false,
    );
    expect(aborted).toBe(true);
  });

  it("unlinks the call's signal when the call fails", async () => {
    const following = new AbortController();
    await expect(
      withCallAbortSignal(connection, following.signal, () => Promise.reject(new Error("refused"))),
    ).rejects.toThrow("refused");
    expect(abortListeners(following.signal)).toBe(0);
  });
});
