import { fileURLToPath } from "node:url";
import { bundleWorkflowCode } from "@temporalio/worker";
import { describe, expect, it } from "vitest";
import { quietLogger } from "../../src/worker/workflow-bundle.js";

const userWorkflow = fileURLToPath(
  new URL("../fixtures/deterministic/workflow-entry-user.ts", import.meta.url),
);

describe("the workflow-safe entry (lite-agent-temporal/workflow)", () => {
  it("bundles into a user's workflow code: no Node built-in, provider, activity or client reaches the sandbox", async () => {
    // The bundler fails on a Node built-in; the strings below catch I/O code that is pure JavaScript.
    const { code } = await bundleWorkflowCode({ workflowsPath: userWorkflow, logger: quietLogger });
    expect(code).toContain("foldUserLog");
    expect(code).toContain("src/workflow.ts");
    for (const forbidden of [
      "openai-provider",
      "src/activities/",
      "src/client",
      "src/providers/",
      "ioredis",
      "src/stream/",
      "src/storage/",
      "src/runtime/",
      "src/worker/",
      "@temporalio/client",
    ]) {
      expect(code.includes(forbidden), forbidden).toBe(false);
    }
  }, 120_000);
});
