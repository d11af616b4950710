import { ServiceError, WorkflowUpdateFailedError } from "@temporalio/client";
import { ApplicationFailure } from "@temporalio/common";
import { describe, expect, it } from "vitest";
import {
  busyPause,
  isServerPushback,
  pushbackPause,
  updateWithRetry,
} from "../../../src/runtime/update-with-retry.js";

/** A gRPC error as @grpc/grpc-js makes it: code, details and metadata. */
function grpcError(code: number, details: string): Error {
  return Object.assign(new Error(`${code} ${details}`), { code, details, metadata: {} });
}

/** What `executeUpdate` throws when an RPC of the update fails: a ServiceError wrapping the gRPC error. */
const rpcFailed = (code: number, details: string) =>
  new ServiceError("Workflow Update failed", { cause: grpcError(code, details) });

const inFlightLimit = () =>
  rpcFailed(8, "limit on number of concurrent in-flight updates has been reached (10)");
const aborted = () => rpcFailed(14, "workflow update was aborted");

describe("isServerPushback", () => {
  it("is true for the in-flight update limit and an update the server aborted", () => {
    expect(isServerPushback(inFlightLimit())).toBe(true);
    expect(isServerPushback(aborted())).toBe(true);
    expect(isServerPushback(grpcError(8, "any limit"))).toBe(true);
  });

  it("is false for an update aborted by its workflow closing, a refusal, or another RPC failure", () => {
    expect(isServerPushback(rpcFailed(5, "workflow update was aborted by closing workflow"))).toBe(false);
    expect(isServerPushback(rpcFailed(3, "invalid argument"))).toBe(false);
    expect(isServerPushback(rpcFailed(5, "workflow not found"))).toBe(false);
    const refused = new WorkflowUpdateFailedError(
      "Workflow Update failed",
      ApplicationFailure.nonRetryable("queueSteer: the session is closed"),
    );
    expect(isServerPushback(refused)).toBe(false);
    expect(isServerPushback(new Error("socket hang up"))).toBe(false);
  });
});

describe("pushbackPause", () => {
  it("grows exponentially to two seconds, every pause drawn at random below its bound (full jitter)", () => {
    const top = () => 0.999_999;
    expect([1, 2, 3, 6, 7, 20].map((n) => pushbackPause(n, top))).toEqual([49, 99, 199, 1599, 1999, 1999]);
    expect(pushbackPause(5, () => 0)).toBe(0);
    expect(pushbackPause(5, () => 0.5)).toBe(400);
  });
});

describe("busyPause", () => {
  it("tries again at once twice, then waits a random time below a bound growing to half a second", () => {
    const top = () => 0.999_999;
    expect([1, 2, 3, 4, 8, 9, 50].map((n) => busyPause(n, top))).toEqual([0, 0, 9, 19, 319, 499, 499]);
    expect(busyPause(9, () => 0)).toBe(0);
    expect(busyPause(9, () => 0.5)).toBe(250);
  });
});

describe("updateWithRetry and the server's pushback", () => {
  it("sends the update again, with the same id, until the server takes it", async () => {
    const ids: string[] = [];
    const answer = await updateWithRetry(
      async (updateId) => {
        ids.push(updateId);
        if (ids.length === 1) throw inFlightLimit();
        if (ids.length === 2) throw aborted();
        return "steered";
      },
      async () => undefined,
      "steer-7",
    );
    expect(answer).toBe("steered");
    expect(ids).toEqual(["steer-7", "steer-7", "steer-7"]);
  });

  it("does not send again an update aborted because its workflow closed", async () => {
    let calls = 0;
    const closing = rpcFailed(5, "workflow update was aborted by closing workflow");
    await expect(
      updateWithRetry(
        async () => {
          calls++;
          throw closing;
        },
        async () => undefined,
      ),
    ).rejects.toBe(closing);
    expect(calls).toBe(1);
  });
});
