import { WorkflowUpdateFailedError } from "@temporalio/client";
import { ApplicationFailure } from "@temporalio/common";
import { describe, expect, it, vi } from "vitest";
import { updateWithRetry } from "../../../src/runtime/update-with-retry.js";
import { SESSION_BUSY } from "../../../src/workflows/messages.js";

const dropped = () =>
  new WorkflowUpdateFailedError(
    "Workflow Update failed",
    ApplicationFailure.nonRetryable(
      "Workflow Update is rejected because it wasn't processed by worker. Probably, Workflow Update is not supported by the worker.",
    ),
  );

describe("updateWithRetry", () => {
  it("sends again an update the server dropped unprocessed, and returns its answer", async () => {
    let calls = 0;
    const answer = await updateWithRetry(async () => {
      calls++;
      if (calls < 3) throw dropped();
      return "decided";
    });
    expect(answer).toBe("decided");
    expect(calls).toBe(3);
  });

  it("does not send again an update the session refused (a validator's reason)", async () => {
    let calls = 0;
    const refused = new WorkflowUpdateFailedError(
      "Workflow Update failed",
      ApplicationFailure.nonRetryable("decideToolCall: call 'x' is not pending"),
    );
    await expect(
      updateWithRetry(async () => {
        calls++;
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(calls).toBe(1);
  });

  it("sends an update the session refused as busy again, with the same update id, until it is admitted", async () => {
    const ids: string[] = [];
    const busy = () =>
      new WorkflowUpdateFailedError(
        "Workflow Update failed",
        ApplicationFailure.retryable("busy", SESSION_BUSY),
      );
    const answer = await updateWithRetry(async (updateId) => {
      ids.push(updateId);
      if (ids.length < 4) throw busy();
      return "steered";
    }, "update-1");
    expect(answer).toBe("steered");
    expect(ids).toEqual(["update-1", "update-1", "update-1", "update-1"]);
  });

  it("gives up on an update the session keeps refusing as busy, with the refusal", async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const busy = new WorkflowUpdateFailedError(
        "Workflow Update failed",
        ApplicationFailure.retryable("busy", SESSION_BUSY),
      );
      const sent = updateWithRetry(async () => {
        calls++;
        throw busy;
      });
      const outcome = sent.catch((error: unknown) => error);
      await vi.runAllTimersAsync();
      expect(await outcome).toBe(busy);
      expect(calls).toBe(50);
    } finally {
      vi.useRealTimers();
    }
  });
});
