import { bundleWorkflowCode } from "@temporalio/worker";
import { describe, expect, it } from "vitest";
import { workflowsPath } from "../../src/runtime/workflow-bundle.js";

describe("the workflow bundle", () => {
  it("builds in the Temporal sandbox bundler, which refuses Node built-ins and activity/client code", async () => {
    const bundle = await bundleWorkflowCode({
      workflowsPath: workflowsPath(),
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} },
    });
    expect(bundle.code.length).toBeGreaterThan(10_000);
    // Nothing with I/O may reach the bundle: providers, activities, the client, stream transports.
    for (const forbidden of [
      "openai-provider",
      "src/activities/",
      "src/client",
      "ioredis",
      "src/stream/",
      "src/dev-server/",
    ]) {
      expect(bundle.code.includes(forbidden), forbidden).toBe(false);
    }
    expect(bundle.code).toContain("agentSession");
  }, 120_000);
});
