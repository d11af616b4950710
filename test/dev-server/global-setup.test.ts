import { Connection } from "@temporalio/client";
import { describe, expect, it } from "vitest";
import setup from "../support/global-setup.js";

describe("test/support/global-setup", () => {
  it("provides a reachable server to tests and the environment, and restores the environment on teardown", async () => {
    const before = { address: process.env.TEMPORAL_ADDRESS, namespace: process.env.TEMPORAL_NAMESPACE };
    const provided = new Map<string, unknown>();
    const teardown = await setup({ provide: (key, value) => void provided.set(key, value) });
    try {
      const address = provided.get("temporalAddress") as string;
      const namespace = provided.get("temporalNamespace") as string;
      expect(process.env.TEMPORAL_ADDRESS).toBe(address);
      expect(process.env.TEMPORAL_NAMESPACE).toBe(namespace);
      const connection = await Connection.connect({ address });
      const { namespaceInfo } = await connection.workflowService.describeNamespace({ namespace });
      await connection.close();
      expect(namespaceInfo?.name).toBe(namespace);
    } finally {
      await teardown();
    }
    expect(process.env.TEMPORAL_ADDRESS).toBe(before.address);
    expect(process.env.TEMPORAL_NAMESPACE).toBe(before.namespace);
  });
});
