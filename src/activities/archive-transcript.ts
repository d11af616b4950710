import { Context } from "@temporalio/activity";
import type { ExternalStorage, PayloadCodec } from "@temporalio/common";
import type { ArchiveTranscriptInput } from "../contract/activity-types.js";
import type { TranscriptSegmentRef } from "../contract/transcript-state.js";
import { storeTranscriptSegment } from "../storage/transcript-blob.js";

/**
 * The `archiveTranscript` activity: writes the messages a compaction is about to remove through the worker's payload
 * storage (and codecs) and returns a small reference. Without storage it returns a reference without a key (the
 * session reports the gap) instead of failing, so compaction still shrinks what the session carries.
 */
export function createArchiveTranscript(
  storage: ExternalStorage | undefined,
  codecs: readonly PayloadCodec[] = [],
) {
  return async function archiveTranscript(input: ArchiveTranscriptInput): Promise<TranscriptSegmentRef> {
    if (!storage) return { count: input.messages.length, bytes: 0 };
    const namespace = Context.current().info.namespace;
    return storeTranscriptSegment(storage, namespace, input, codecs);
  };
}
