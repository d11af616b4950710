import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Connection } from "@temporalio/client";
import { afterAll, describe, expect, it } from "vitest";
import { ensureTemporal } from "../../src/dev-server/cli-binary/resolve-temporal.js";

const scratch = mkdtempSync(path.join(tmpdir(), "ensure-temporal-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("ensureTemporal", () => {
  it("uses TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE without looking for a binary", async () => {
    // No binary can be found or installed here, so starting a server would throw.
    const endpoint = await ensureTemporal({
      env: { TEMPORAL_ADDRESS: "127.0.0.1:7999", TEMPORAL_NAMESPACE: "ops", PATH: "" },
      cli: { cacheDir: path.join(scratch, "none"), install: false },
    });
    expect(endpoint).toMatchObject({
      address: "127.0.0.1:7999",
      namespace: "ops",
      uiUrl: undefined,
      started: false,
    });
    await expect(endpoint.stop()).resolves.toBeUndefined();
  });

  it("defaults the namespace of an external server to 'default'", async () => {
    const endpoint = await ensureTemporal({ env: { TEMPORAL_ADDRESS: "127.0.0.1:7999" } });
    expect(endpoint.namespace).toBe("default");
  });

  it("starts a dev server when TEMPORAL_ADDRESS is not set, and stops it", async () => {
    const endpoint = await ensureTemporal({ env: { PATH: process.env.PATH }, headless: true });
    try {
      expect(endpoint.started).toBe(true);
      const connection = await Connection.connect({ address: endpoint.address });
      const { namespaceInfo } = await connection.workflowService.describeNamespace({ namespace: "default" });
      await connection.close();
      expect(namespaceInfo?.name).toBe("default");
    } finally {
      await endpoint.stop();
    }
    await expect(Connection.connect({ address: endpoint.address, connectTimeout: 1_000 })).rejects.toThrow();
  });
});
