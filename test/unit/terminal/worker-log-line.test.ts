import { describe, expect, it } from "vitest";
import { workerLogLine } from "../../../src/terminal/worker-log-line.js";

describe("workerLogLine", () => {
  it("keeps the level, the message, where it happened and the error message on one line", () => {
    const line = workerLogLine({
      level: "WARN",
      message: "Activity failed",
      timestampNanos: 0n,
      meta: { activityType: "callModel", taskToken: "abc", error: new Error("no longer in flight") },
    });
    expect(line).toBe("[worker WARN] Activity failed (callModel): no longer in flight");
  });

  it("prints a bare message when there is no metadata", () => {
    expect(workerLogLine({ level: "ERROR", message: "boom", timestampNanos: 0n })).toBe(
      "[worker ERROR] boom",
    );
  });
});
