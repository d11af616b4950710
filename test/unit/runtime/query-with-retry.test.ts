import { ServiceError } from "@temporalio/client";
import { describe, expect, it, vi } from "vitest";
import { WorkflowTaskFailingError, queryWithRetry } from "../../../src/runtime/query-with-retry.js";

const grpcError = (code: number, message = "context canceled") =>
  new ServiceError("Failed to query Workflow", {
    cause: Object.assign(new Error(message), { code }),
  });
/** What the server answers from a workflow task's third attempt on (failQueryWorkflowTaskAttemptCount). */
const taskRetrying = () =>
  grpcError(9, "9 FAILED_PRECONDITION: Unable to query workflow due to Workflow Task in failed state.");

describe("queryWithRetry", () => {
  it("asks again while the server says 'not now' (cancelled, deadline, unavailable), then answers", async () => {
    const failures = [grpcError(1), grpcError(4), grpcError(14)];
    let calls = 0;
    const answer = await queryWithRetry(async () => {
      calls++;
      const failure = failures.shift();
      if (failure) throw failure;
      return "status";
    });
    expect(answer).toBe("status");
    expect(calls).toBe(4);
  });

  it("asks again once after a 'not now' that outlasted its patience (a query dropped at an eviction), not twice", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const slowFailure = () => (vi.setSystemTime(Date.now() + 31_000), grpcError(4));
      let calls = 0;
      const answer = await queryWithRetry(async () => {
        if (++calls === 1) throw slowFailure();
        return "status";
      });
      expect([answer, calls]).toEqual(["status", 2]);
      calls = 0;
      const failing = queryWithRetry(async () => {
        calls++;
        throw slowFailure();
      });
      await expect(failing).rejects.toThrow("Failed to query Workflow");
      expect(calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not ask again when the answer is 'no' (not found, invalid argument, any other error)", async () => {
    let calls = 0;
    await expect(
      queryWithRetry(async () => {
        calls++;
        throw grpcError(5);
      }),
    ).rejects.toThrow("Failed to query Workflow");
    expect(calls).toBe(1);
    await expect(queryWithRetry(() => Promise.reject(new TypeError("bad")))).rejects.toThrow("bad");
  });

  it("asks again while a workflow task retries after timing out (a dead worker held it), then answers", async () => {
    let calls = 0;
    let asked = 0;
    const answer = await queryWithRetry(
      async () => {
        if (++calls < 3) throw taskRetrying();
        return "status";
      },
      async () => (asked++, undefined),
    );
    expect(answer).toBe("status");
    expect(calls).toBe(3);
    expect(asked).toBe(2);
  });

  it("fails at once, saying why, when the workflow task fails for good", async () => {
    let calls = 0;
    const failing = queryWithRetry(
      async () => {
        calls++;
        throw taskRetrying();
      },
      async () => "[TMPRL1100] Nondeterminism error: no command scheduled",
    );
    await expect(failing).rejects.toThrow(WorkflowTaskFailingError);
    await expect(failing).rejects.toThrow("its workflow task fails: [TMPRL1100] Nondeterminism error");
    expect(calls).toBe(1);
  });

  it("does not take other failed preconditions for a retrying task", async () => {
    let calls = 0;
    await expect(
      queryWithRetry(
        async () => {
          calls++;
          throw grpcError(9, "9 FAILED_PRECONDITION: something else");
        },
        async () => undefined,
      ),
    ).rejects.toThrow("Failed to query Workflow");
    expect(calls).toBe(1);
  });
});
