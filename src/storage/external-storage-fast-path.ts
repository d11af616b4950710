import type { ExternalStorage, Payload } from "@temporalio/common";
import { isReferencePayload } from "@temporalio/common/lib/internal-non-workflow/extstore-helpers.js";
import { ExternalStorageRunner } from "@temporalio/common/lib/internal-non-workflow/external-storage-runner.js";

type Runner = ExternalStorageRunner;
/** The runner's (private) configuration: the storage it was made for. */
type RunnerFields = { externalStorage: ExternalStorage };

/** Marks the runner's prototype once the fast path is in front of it. */
const INSTALLED = Symbol.for("lite-agent.external-storage-fast-path");

/**
 * Puts a check in front of the SDK's external storage runner that answers at once when there is nothing to do: no
 * payload that could reach the size threshold to store, no reference among the payloads to retrieve. The runner
 * (SDK 1.23, and 1.24 still) makes an `AbortController`, an `AbortSignal.any` and, to store, a protobuf encoding of
 * each payload before it looks: ~40 µs a payload, on every activation, completion, activity task and activity
 * result of a worker with storage (docs/decisions/0014). What the check skips is what the runner would
 * have passed through unchanged, and it answers with the same array; anything else goes through the runner. The
 * SDK makes a runner per visit, so the check sits on the prototype; installing it twice is harmless.
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
 * An upper bound on the size of a payload's protobuf encoding, found without encoding it: each metadata entry
 * takes at most 18 bytes of tags and lengths besides its key (at most 3 UTF-8 bytes a UTF-16 unit) and its value,
 * the data at most 6 besides itself. A payload with external payload details is not bounded here (Infinity), so
 * the runner measures it.
 */
export function encodedSizeBound(payload: Payload): number {
  if ((payload as { externalPayloads?: unknown[] }).externalPayloads?.length) return Infinity;
  let size = 6 + (payload.data?.length ?? 0);
  for (const [key, value] of Object.entries(payload.metadata ?? {}))
    size += 18 + 3 * key.length + (value?.length ?? 0);
  return size;
}
