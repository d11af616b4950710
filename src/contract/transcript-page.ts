import type { Message } from "../kernel/vocabulary/messages.js";
import type { TranscriptSegmentRef } from "./transcript-state.js";

// The request and answer of the `sessionTranscript` query: fields are only added, optional (docs/decisions/0012).

/** Asks for a page of the session's transcript: the unarchived messages from `from` (default 0) on. */
export interface TranscriptPageRequest {
  from?: number;
}

/**
 * A page of the session's transcript: every archived segment (small references; read them through the payload
 * storage), then the current conversation's messages that are not archived (`tail`, messages `from` to `end` of
 * `total`; at most about 1 MB a page). `compactions` changes when the session compacts: a reader that sees it
 * change between pages starts over.
 */
export interface TranscriptPage {
  segments: TranscriptSegmentRef[];
  compactions: number;
  tail: Message[];
  from: number;
  end: number;
  total: number;
}
