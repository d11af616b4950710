import type { Message } from "../../kernel/vocabulary/messages.js";
import type { TranscriptSegmentRef, TranscriptState } from "../../contract/transcript-state.js";

/**
 * The bookkeeping of a session's full transcript: the archived segments, then the current conversation from
 * `archivedCount` on, give every message the session ever held, in order, each once (compaction output excluded).
 */
export class TranscriptLedger {
  archivedCount: number;
  readonly segments: TranscriptSegmentRef[];
  compactions: number;

  /** `state` is carried input (a session can be started by hand): anything malformed in it starts from nothing. */
  constructor(state?: TranscriptState) {
    this.archivedCount = countOr0(state?.archivedCount);
    this.segments = Array.isArray(state?.segments) ? [...state.segments] : [];
    this.compactions = countOr0(state?.compactions);
  }

  /** The messages of `conversation` that are not archived yet: what the next compaction must archive first. */
  pending(conversation: readonly Message[]): Message[] {
    return conversation.slice(this.archivedCount);
  }

  /** Records a compaction: its archived segment (when it had messages), and the length of the compacted form. */
  compacted(segment: TranscriptSegmentRef | undefined, compactedLength: number): void {
    if (segment && segment.count > 0) this.segments.push(segment);
    this.archivedCount = compactedLength;
    this.compactions++;
  }

  /**
   * The kernel drops system messages from the history a run starts with; this drops them from the session's
   * conversation the same way, keeping `archivedCount` pointing at the same messages. Returns the conversation
   * without them (the same array when it had none).
   */
  withoutSystemMessages(conversation: Message[]): Message[] {
    if (!conversation.some((message) => message.role === "system")) return conversation;
    const droppedArchived = conversation
      .slice(0, this.archivedCount)
      .filter((message) => message.role === "system").length;
    this.archivedCount -= droppedArchived;
    return conversation.filter((message) => message.role !== "system");
  }

  /** The state to carry across continue-as-new. */
  state(): TranscriptState {
    return { archivedCount: this.archivedCount, segments: [...this.segments], compactions: this.compactions };
  }
}

function countOr0(value: unknown): number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : 0;
}
