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

/** A task boundary that only counts how often it was marked. */
function boundaries() {
  const marked = { count: 0 };
  return { marked, mark: async () => void marked.count++ };
}
const noBoundary = async () => undefined;

describe("updateWithRetry", () => {
  it("sends again an update the server dropped unprocessed, and returns its answer", async () => {
    let calls = 0;
    const answer = await updateWithRetry(async () => {
      calls++;
      if (calls < 3) throw dropped();
      return "decided";
    }, noBoundary);
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
      }, noBoundary),
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
    const { marked, mark } = boundaries();
    const answer = await updateWithRetry(
      async (updateId) => {
        ids.push(updateId);
        if (ids.length < 4) throw busy();
        return "steered";
      },
      mark,
      "update-1",
    );
    expect(answer).toBe("steered");
    expect(ids).toEqual(["update-1", "update-1", "update-1", "update-1"]);
    // Before the third and fourth attempts: after two refusals in a row, each attempt follows a task boundary.
    expect(marked.count).toBe(2);
  });

  it("marks no task boundary when the first attempt after a refusal is admitted", async () => {
    let calls = 0;
    const { marked, mark } = boundaries();
    await updateWithRetry(async () => {
      if (++calls === 1)
        throw new WorkflowUpdateFailedError(
          "Workflow Update failed",
          ApplicationFailure.retryable("busy", SESSION_BUSY),
        );
      return "ok";
    }, mark);
    expect(marked.count).toBe(0);
  });

  it("sends the update again when the task boundary cannot be marked", async () => {
    let calls = 0;
    const answer = await updateWithRetry(
      async () => {
        if (++calls < 3)
          throw new WorkflowUpdateFailedError(
            "Workflow Update failed",
            ApplicationFailure.retryable("busy", SESSION_BUSY),
          );
        return "ok";
      },
      async () => {
        throw new Error("workflow execution already completed");
      },
    );
    expect(answer).toBe("ok");
    expect(calls).toBe(3);
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
      }, noBoundary);
      const outcome = sent.catch((error: unknown) => error);
      await vi.runAllTimersAsync();
      expect(await outcome).toBe(busy);
      expect(calls).toBe(50);
    } finally {
      vi.useRealTimers();
    }
  });
});
