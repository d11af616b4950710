import type { Message } from "../kernel/vocabulary/messages.js";
import type { TranscriptSegmentRef } from "./transcript-state.js";

// The request and answer of the `sessionTranscript` query: fields are only added, optional (docs/decisions/0012).

/** Asks for a page of the session's transcript: the unarchived messages from `from` (default 0) on. */
export interface TranscriptPageRequest {
  from?: number;
}

/**
 * A page of the session's transcript: every archived segment (references, read through the payload storage), then
 * the unarchived messages (`tail`, messages `from` to `end` of `total`; at most about 1 MB a page). When `compactions`
 * changes between pages the session compacted, and the reader starts over.
 */
export interface TranscriptPage {
  segments: TranscriptSegmentRef[];
  compactions: number;
  tail: Message[];
  from: number;
  end: number;
  total: number;
}
