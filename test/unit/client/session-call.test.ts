import { WorkflowNotFoundError } from "@temporalio/client";
import { describe, expect, it } from "vitest";
import { sessionCall, sessionStream } from "../../../src/client/session-call.js";
import { SessionError } from "../../../src/client/client-errors.js";

const notFound = () => new WorkflowNotFoundError("workflow not found", "s1", undefined);

describe("sessionCall: the one error wrapper of session operations", () => {
  it("returns what the call returns", async () => {
    await expect(sessionCall("s1", "describe", async () => 42)).resolves.toBe(42);
  });

  it("maps a Temporal error to a SessionError naming the operation and the session", async () => {
    const error = await sessionCall("s1", "approve", () => Promise.reject(notFound())).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SessionError);
    expect(error).toMatchObject({
      message: "approve: session 's1' not found",
      sessionId: "s1",
      reason: "not_found",
      operation: "approve",
    });
  });

  it("passes a SessionError through as it is (a subagent session's keeps its own id)", async () => {
    const inner = new SessionError("steer: session 'child' not found", "child", "not_found");
    await expect(sessionCall("s1", "steer", () => Promise.reject(inner))).rejects.toBe(inner);
  });
});

describe("sessionStream", () => {
  async function* numbers(fail: boolean, closed: string[]): AsyncGenerator<number, string> {
    try {
      yield 1;
      yield 2;
      if (fail) throw notFound();
      return "end";
    } finally {
      closed.push("closed");
    }
  }

  it("yields the stream's items and returns its result", async () => {
    const stream = sessionStream("s1", "read events", numbers(false, []));
    const items: number[] = [];
    let next = await stream.next();
    for (; !next.done; next = await stream.next()) items.push(next.value);
    expect(items).toEqual([1, 2]);
    expect(next.value).toBe("end");
  });

  it("maps an error thrown mid-stream", async () => {
    const seen: number[] = [];
    const reading = (async () => {
      for await (const item of sessionStream("s1", "read events", numbers(true, []))) seen.push(item);
    })();
    await expect(reading).rejects.toThrow("read events: session 's1' not found");
    expect(seen).toEqual([1, 2]);
  });

  it("closes the stream it reads when the reader stops early", async () => {
    const closed: string[] = [];
    for await (const item of sessionStream("s1", "read events", numbers(false, closed)))
      if (item === 1) break;
    expect(closed).toEqual(["closed"]);
  });
});
