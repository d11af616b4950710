import {
  ExternalStorage,
  StorageDriverClaim,
  defaultPayloadConverter,
  type Payload,
  type StorageDriver,
} from "@temporalio/common";
import { ExternalStorageRunner } from "@temporalio/common/lib/internal-non-workflow/external-storage-runner.js";
import { temporal } from "@temporalio/proto";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  encodedSizeBound,
  installExternalStorageFastPath,
} from "../../src/storage/external-storage-fast-path.js";
import { withPayloadStorage } from "../../src/storage/payload-storage.js";

const exactSize = (payload: Payload): number =>
  temporal.api.common.v1.Payload.encode(payload).finish().length;

/** A driver that keeps blobs in memory and counts its calls. */
function memoryDriver(): StorageDriver & { stored: Payload[]; retrieved: number } {
  const blobs = new Map<string, Payload>();
  const driver = {
    name: "memory",
    type: "memory",
    stored: [] as Payload[],
    retrieved: 0,
    async store(_context: unknown, payloads: Payload[]) {
      return payloads.map((payload) => {
        driver.stored.push(payload);
        const key = String(blobs.size);
        blobs.set(key, payload);
        return new StorageDriverClaim({ key });
      });
    },
    async retrieve(_context: unknown, claims: StorageDriverClaim[]) {
      driver.retrieved += claims.length;
      return claims.map((claim) => blobs.get(claim.claimData.key!)!);
    },
  };
  return driver;
}

function runnerWith(threshold: number) {
  const driver = memoryDriver();
  const storage = new ExternalStorage({ drivers: [driver], payloadSizeThreshold: threshold });
  return { driver, runner: new ExternalStorageRunner(storage) };
}

/** A JSON payload whose protobuf encoding is exactly `size` bytes. */
function payloadOfSize(size: number): Payload {
  const base = defaultPayloadConverter.toPayload("")!;
  let payload = defaultPayloadConverter.toPayload("x".repeat(Math.max(0, size - exactSize(base))))!;
  // The data's length prefix may grow by a byte or two; trim the string by as much.
  const over = exactSize(payload) - size;
  if (over > 0) payload = defaultPayloadConverter.toPayload("x".repeat(size - exactSize(base) - over))!;
  return payload;
}

afterEach(() => vi.restoreAllMocks());

describe("the bound on a payload's encoded size", () => {
  it("is at least the exact protobuf size, for ASCII, multi-byte and empty payloads", () => {
    const payloads: Payload[] = [
      defaultPayloadConverter.toPayload(null)!,
      defaultPayloadConverter.toPayload({ text: "héllo wörld ✓ 𝄞".repeat(500) })!,
      defaultPayloadConverter.toPayload("x".repeat(300_000))!,
      { metadata: { "é𝄞✓": new Uint8Array(3), encoding: new Uint8Array(200) }, data: new Uint8Array(0) },
      { metadata: {}, data: new Uint8Array(20_000) },
    ];
    for (const payload of payloads) {
      expect(encodedSizeBound(payload)).toBeGreaterThanOrEqual(exactSize(payload));
      // Close enough that a payload far under the threshold is never measured.
      expect(encodedSizeBound(payload)).toBeLessThan(exactSize(payload) + 100);
    }
  });

  it("leaves a payload with external payload details to the runner", () => {
    const payload = { ...defaultPayloadConverter.toPayload("x")!, externalPayloads: [{}] };
    expect(encodedSizeBound(payload)).toBe(Infinity);
  });
});

describe("the external storage runner with the fast path", () => {
  installExternalStorageFastPath();

  it("passes payloads under the threshold through as the same array, with no abort signal made", async () => {
    const { driver, runner } = runnerWith(1024);
    const any = vi.spyOn(AbortSignal, "any");
    const payloads = [payloadOfSize(100), payloadOfSize(900)];
    const signal = new AbortController().signal;
    expect(await runner.store(payloads, { abortSignal: signal })).toBe(payloads);
    expect(await runner.retrieve(payloads, { abortSignal: signal })).toBe(payloads);
    expect(any).not.toHaveBeenCalled();
    expect(driver.stored).toEqual([]);
  });

  it("stores a payload of exactly the threshold and keeps one a byte under it, as the runner decides", async () => {
    const { driver, runner } = runnerWith(1024);
    const at = payloadOfSize(1024);
    const under = payloadOfSize(1023);
    expect(exactSize(at)).toBe(1024);
    expect(exactSize(under)).toBe(1023);
    // The bound cannot tell `under` is under: the runner measures it.
    expect(encodedSizeBound(under)).toBeGreaterThanOrEqual(1024);
    const stored = await runner.store([under, at], { abortSignal: new AbortController().signal });
    expect(stored[0]).toBe(under);
    expect(stored[1]).not.toBe(at);
    expect(driver.stored).toEqual([at]);
    // The reference comes back as the payload it stands for; the inline one untouched.
    const retrieved = await runner.retrieve(stored, { abortSignal: new AbortController().signal });
    expect(retrieved).toEqual([under, at]);
    expect(driver.retrieved).toBe(1);
  });

  it("stores everything with a threshold of 0", async () => {
    const { driver, runner } = runnerWith(0);
    const payload = defaultPayloadConverter.toPayload("tiny")!;
    const [stored] = await runner.store([payload], {});
    expect(stored).not.toBe(payload);
    expect(driver.stored).toEqual([payload]);
  });

  it("is installed once, by any data converter with storage", () => {
    const { store, retrieve } = ExternalStorageRunner.prototype;
    installExternalStorageFastPath();
    withPayloadStorage(undefined, new ExternalStorage({ drivers: [memoryDriver()] }));
    expect(ExternalStorageRunner.prototype.store).toBe(store);
    expect(ExternalStorageRunner.prototype.retrieve).toBe(retrieve);
  });
});
