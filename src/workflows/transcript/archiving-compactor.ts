import type { Message } from "../../kernel/vocabulary/messages.js";
import type { Compactor } from "../../kernel/compaction/types.js";
import type { TranscriptLedger } from "./transcript-ledger.js";
import type { TranscriptSegmentRef } from "../../contract/transcript-state.js";

/** What an archiving compactor does around each compaction. */
export interface TranscriptArchiver {
  /** Stores the messages gained since the last compaction (the segment numbered `segment`); returns where. */
  archive(messages: Message[], segment: number): Promise<TranscriptSegmentRef>;
  /** The compaction stands: `compacted` replaces `before` as the conversation from now on. */
  compacted(compacted: Message[], segment: TranscriptSegmentRef, before: Message[]): void;
  /** Archiving failed: the conversation stays as it was this turn (the next turn tries again). */
  failed(error: unknown): void;
}

/**
 * Wraps a compactor so no message leaves the conversation unarchived: when `inner` changes it, the messages gained
 * since the last compaction are archived before the compacted form replaces it. If archiving fails the compaction is
 * dropped this turn (a longer conversation is recoverable, a lost transcript stretch is not); aborts rethrow.
 */
export function archivingCompactor(
  inner: Compactor,
  ledger: TranscriptLedger,
  archiver: TranscriptArchiver,
): Compactor {
  return {
    async maybeCompact(messages, usage, instructions, signal) {
      const result = await inner.maybeCompact(messages, usage, instructions, signal);
      if (sameMessages(messages, result.messages)) return result;
      const pending = ledger.pending(messages);
      let segment: TranscriptSegmentRef = { count: 0, bytes: 0 };
      try {
        // Two compactions in a row gain nothing in between: there is nothing to store.
        if (pending.length > 0) segment = await archiver.archive(pending, ledger.segments.length);
      } catch (error) {
        if (signal?.aborted) throw error;
        archiver.failed(error);
        return { messages };
      }
      ledger.compacted(segment, result.messages.length);
      archiver.compacted(result.messages, segment, messages);
      return result;
    },
  };
}

/** True when two conversations hold the same message objects in the same order (the middleware's own test). */
function sameMessages(a: readonly Message[], b: readonly Message[]): boolean {
  return a === b || (a.length === b.length && a.every((message, i) => message === b[i]));
}
