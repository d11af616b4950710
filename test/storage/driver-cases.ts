import {
  ExternalStorage,
  StorageDriverClaim,
  type Payload,
  type StorageDriverTargetInfo,
} from "@temporalio/common";
import { ExternalStorageRunner } from "@temporalio/common/lib/internal-non-workflow/external-storage-runner.js";
import { decodeReferencePayload } from "@temporalio/common/lib/internal-non-workflow/extstore-helpers.js";
import { expect, it } from "vitest";
import { PayloadBlobMissingError } from "../../src/storage/payload-blob-missing-error.js";
import type { SessionBlobDriver } from "../../src/storage/session-blob-driver.js";

/** A JSON payload of about `size` bytes. */
export function jsonPayload(text: string): Payload {
  return {
    metadata: { encoding: new TextEncoder().encode("json/plain") },
    data: new TextEncoder().encode(JSON.stringify(text)),
  };
}

export const session = (id: string, namespace = "default"): StorageDriverTargetInfo => ({
  kind: "workflow",
  namespace,
  id,
  runId: "run-1",
  type: "agentSession",
});

const text = (payload: Payload) => new TextDecoder().decode(payload.data!);

/** The cases every SessionBlobDriver must pass, against a real backend. `driver()` is called per test. */
export function sessionBlobDriverCases(driver: () => SessionBlobDriver): void {
  it("round-trips payloads with their metadata, under the session's key prefix", async () => {
    const payloads = [jsonPayload("small"), jsonPayload("x".repeat(300_000)), jsonPayload("ünïcödé ✓")];
    const claims = await driver().store({ target: session("ticket/7") }, payloads);
    expect(claims).toHaveLength(3);
    for (const claim of claims) {
      expect(claim.claimData.key).toMatch(/^default\/sessions\/ticket%2F7\/[0-9a-f]{64}$/);
      expect(Number(claim.claimData.bytes)).toBeGreaterThan(0);
    }
    const restored = await driver().retrieve({}, claims);
    expect(restored.map(text)).toEqual(payloads.map(text));
    expect(new TextDecoder().decode(restored[1]!.metadata!.encoding)).toBe("json/plain");
  });

  it("is content-addressed: storing the same payload twice gives the same key and one blob", async () => {
    const payload = jsonPayload(`same ${Math.random()}`);
    const [first] = await driver().store({ target: session("dedupe") }, [payload]);
    const [second] = await driver().store({ target: session("dedupe") }, [payload]);
    expect(second!.claimData.key).toBe(first!.claimData.key);
    expect(await driver().listSessionBlobs("default", "dedupe")).toEqual([first!.claimData.key]);
  });

  it("through the SDK's ExternalStorage: payloads under the threshold stay inline, larger ones become references", async () => {
    const storage = new ExternalStorage({ drivers: [driver()], payloadSizeThreshold: 1024 });
    const runner = new ExternalStorageRunner(storage);
    const small = jsonPayload("tiny");
    const large = jsonPayload("y".repeat(5_000));
    const wire = await runner.store([small, large], { target: session("runner") });
    expect(wire[0]).toBe(small);
    const reference = decodeReferencePayload(wire[1]!);
    expect(reference.driverName).toBe(driver().name);
    expect(reference.claimData.key).toMatch(/^default\/sessions\/runner\//);
    expect(reference.sizeBytes).toBeGreaterThan(5_000);
    expect((await runner.retrieve(wire)).map(text)).toEqual([text(small), text(large)]);
  });

  it("a missing blob gives an error that names the key", async () => {
    const [claim] = await driver().store({ target: session("gone") }, [jsonPayload("soon gone")]);
    await driver().deleteSessionBlobs("default", "gone");
    const retrieving = driver().retrieve({}, [claim!]);
    await expect(retrieving).rejects.toBeInstanceOf(PayloadBlobMissingError);
    await expect(retrieving).rejects.toThrow(claim!.claimData.key!);
  });

  it("rejects a claim whose key could leave the storage", async () => {
    const claim = new StorageDriverClaim({ key: `../../etc/${"a".repeat(64)}` });
    await expect(driver().retrieve({}, [claim])).rejects.toThrow(/malformed key/);
  });

  it("deletes one session's blobs and no other session's (even one whose id extends it)", async () => {
    await driver().store({ target: session("s") }, [jsonPayload("s-1"), jsonPayload("s-2")]);
    const [kept] = await driver().store({ target: session("s/x") }, [jsonPayload("kept")]);
    const [otherNamespace] = await driver().store({ target: session("s", "other") }, [
      jsonPayload("kept too"),
    ]);
    expect(await driver().listSessionBlobs("default", "s")).toHaveLength(2);
    expect(await driver().deleteSessionBlobs("default", "s")).toBe(2);
    expect(await driver().listSessionBlobs("default", "s")).toEqual([]);
    expect(await driver().deleteSessionBlobs("default", "s")).toBe(0);
    expect((await driver().retrieve({}, [kept!, otherNamespace!])).map(text)).toEqual([
      JSON.stringify("kept"),
      JSON.stringify("kept too"),
    ]);
  });
}
