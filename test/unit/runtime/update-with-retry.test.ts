import { WorkflowUpdateFailedError } from "@temporalio/client";
import { ApplicationFailure } from "@temporalio/common";
import { describe, expect, it } from "vitest";
import { updateWithRetry } from "../../../src/runtime/update-with-retry.js";

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
});
