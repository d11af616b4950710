import type { Message } from "../../kernel/vocabulary/messages.js";
import type { TranscriptLedger } from "./transcript-ledger.js";
import type { TranscriptPage } from "../../contract/transcript-page.js";

/** About how much message JSON one transcript page carries (a query answer stays far below the 2 MB limit). */
export const TRANSCRIPT_PAGE_CHARS = 1_000_000;

/**
 * A page of the transcript for the `sessionTranscript` query: the segment references, then the unarchived
 * messages of `conversation` from `from` on, as many as fit in {@link TRANSCRIPT_PAGE_CHARS} (always at least one,
 * so a reader makes progress; a single larger message goes through the payload storage like any large answer).
 */
export function transcriptPage(
  ledger: TranscriptLedger,
  conversation: readonly Message[],
  from = 0,
): TranscriptPage {
  const unarchived = ledger.pending(conversation);
  const start = Math.max(0, Math.min(Number.isInteger(from) ? from : 0, unarchived.length));
  const tail: Message[] = [];
  let chars = 0;
  for (let index = start; index < unarchived.length; index++) {
    const message = unarchived[index]!;
    chars += JSON.stringify(message).length;
    if (tail.length > 0 && chars > TRANSCRIPT_PAGE_CHARS) break;
    tail.push(message);
  }
  return {
    segments: [...ledger.segments],
    compactions: ledger.compactions,
    tail,
    from: start,
    end: start + tail.length,
    total: unarchived.length,
  };
}
