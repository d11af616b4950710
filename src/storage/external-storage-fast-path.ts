import type { ExternalStorage, Payload } from "@temporalio/common";
import { isReferencePayload } from "@temporalio/common/lib/internal-non-workflow/extstore-helpers.js";
import { ExternalStorageRunner } from "@temporalio/common/lib/internal-non-workflow/external-storage-runner.js";

type Runner = ExternalStorageRunner;
/** The runner's (private) configuration: the storage it was made for. */
type RunnerFields = { externalStorage: ExternalStorage };

/** Marks the runner's prototype once the fast path is in front of it. */
const INSTALLED = Symbol.for("lite-agent.external-storage-fast-path");

/**
 * Puts a check before the SDK's external storage runner that answers at once, with the same array, when no payload
 * could reach the threshold to store and none is a reference to retrieve: the runner's per-payload setup costs every
 * activation (docs/decisions/0014). Installed on the prototype, as the SDK makes a runner per visit; idempotent.
 */
export function installExternalStorageFastPath(): void {
  const prototype = ExternalStorageRunner.prototype as Runner & { [INSTALLED]?: true };
  if (prototype[INSTALLED]) return;
  const { store, retrieve } = prototype;
  // Async as the runner's own methods are: whatever goes wrong in the check is a rejection, not a throw.
  prototype.store = async function (this: Runner, payloads, options) {
    const threshold = (this as unknown as RunnerFields).externalStorage.payloadSizeThreshold;
    if (payloads.every((payload) => encodedSizeBound(payload) < threshold)) return payloads;
    return store.call(this, payloads, options);
  };
  prototype.retrieve = async function (this: Runner, payloads, options) {
    if (!payloads.some(isReferencePayload)) return payloads;
    return retrieve.call(this, payloads, options);
  };
  prototype[INSTALLED] = true;
}

/**
 * An upper bound on a payload's protobuf encoding size without encoding it: each metadata entry adds at most 18 bytes
 * besides its key (≤ 3 UTF-8 bytes per UTF-16 unit) and value, the data at most 6. A payload with external payload
 * details is unbounded here (Infinity), so the runner measures it.
 */
export function encodedSizeBound(payload: Payload): number {
  if ((payload as { externalPayloads?: unknown[] }).externalPayloads?.length) return Infinity;
  let size = 6 + (payload.data?.length ?? 0);
  for (const [key, value] of Object.entries(payload.metadata ?? {}))
    size += 18 + 3 * key.length + (value?.length ?? 0);
  return size;
}
