import * as imported from "@temporalio/worker";
import { describe, expect, it } from "vitest";
import { MissingPackageError } from "../../../src/runtime/optional-package.js";
import {
  REPLAYING_A_HISTORY,
  RUNNING_A_WORKER,
  temporalWorker,
} from "../../../src/runtime/temporal-worker.js";

describe("temporalWorker", () => {
  it("is the @temporalio/worker that import gives (one Runtime per process)", () => {
    const loaded = temporalWorker();
    expect(loaded.Worker).toBe(imported.Worker);
    expect(loaded.Runtime).toBe(imported.Runtime);
  });

  it("without the package, says in one line what to install for the feature", () => {
    // The installed-package test runs it without the package (test/package/consumer/missing-peers.mjs).
    expect(new MissingPackageError(RUNNING_A_WORKER, ["@temporalio/worker"]).message).toBe(
      "Running a worker needs @temporalio/worker: npm install @temporalio/worker@1.23.0",
    );
    expect(new MissingPackageError(REPLAYING_A_HISTORY, ["@temporalio/worker"]).message).toBe(
      "Replaying a session's history needs @temporalio/worker: npm install @temporalio/worker@1.23.0",
    );
  });
});
