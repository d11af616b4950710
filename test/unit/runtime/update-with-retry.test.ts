import { WorkflowUpdateFailedError } from "@temporalio/client";
import { ApplicationFailure } from "@temporalio/common";
import { describe, expect, it, vi } from "vitest";
import { boundaryWhenStuck, updateWithRetry } from "../../../src/runtime/update-with-retry.js";
import { SESSION_BUSY, type taskBoundarySignal } from "../../../src/contract/messages.js";

const dropped = () =>
  new WorkflowUpdateFailedError(
    "Workflow Update failed",
    ApplicationFailure.nonRetryable(
      "Workflow Update is rejected because it wasn't processed by worker. Probably, Workflow Update is not supported by the worker.",
    ),
  );

/** An `afterBusy` that only counts its calls. */
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
    // After each refusal, before the next attempt.
    expect(marked.count).toBe(3);
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
      expect(calls).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("boundaryWhenStuck", () => {
  /** A session whose history has the given lengths at each describe, and the signals it got. */
  function session(lengths: number[]) {
    const signals: string[] = [];
    let call = 0;
    return {
      signals,
      target: {
        describe: async () => ({ historyLength: lengths[Math.min(call++, lengths.length - 1)]! }),
        signal: async (definition: typeof taskBoundarySignal) => void signals.push(definition.name),
      },
    };
  }

  it("sends the task boundary when two refusals came with no new event between them", async () => {
    const { signals, target } = session([40, 40, 44, 44]);
    const afterBusy = boundaryWhenStuck(target);
    await afterBusy();
    expect(signals).toEqual([]);
    await afterBusy();
    expect(signals).toEqual(["taskBoundary"]);
    await afterBusy();
    await afterBusy();
    expect(signals).toEqual(["taskBoundary", "taskBoundary"]);
  });

  it("sends nothing to a session that keeps working (its history grows between refusals)", async () => {
    const { signals, target } = session([40, 47, 53, 60]);
    const afterBusy = boundaryWhenStuck(target);
    for (let n = 0; n < 4; n++) await afterBusy();
    expect(signals).toEqual([]);
  });
});
