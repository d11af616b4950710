import { ServiceError } from "@temporalio/client";
import { describe, expect, it } from "vitest";
import { queryWithRetry } from "../../../src/runtime/query-with-retry.js";

const grpcError = (code: number) =>
  new ServiceError("Failed to query Workflow", {
    cause: Object.assign(new Error("context canceled"), { code }),
  });

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
});
