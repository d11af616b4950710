import type { Message } from "../vocabulary/messages.js";
import type { Usage } from "../vocabulary/model.js";
import type { AbortSignalLike } from "../vocabulary/ports.js";

/** The outcome of a compactor. `messages` is the same array when nothing changed. */
export interface CompactionResult {
  messages: Message[];
  kind?: "micro" | "auto" | "manual";
  before?: number;
  after?: number;
}

/** Shrinks a conversation before a model call. */
export interface Compactor {
  /**
   * Returns the (possibly) shrunk conversation. `instructions` steer a summarising compactor; `signal` lets a
   * compactor that calls a model stop when the run is aborted.
   */
  maybeCompact(
    messages: Message[],
    usage: Usage,
    instructions?: string,
    signal?: AbortSignalLike,
  ): CompactionResult | Promise<CompactionResult>;
  /** How a durable run makes this compactor again (built-ins with plain options): a factory id and its options. */
  readonly durable?: { id: string; options?: unknown };
}

/** A pure pass over messages; returns the same array reference when it changes nothing. */
export interface CompactPass {
  name: string;
  apply(messages: Message[]): Message[];
}

/** Where large tool results go when moved off-context. */
export interface SpillStore {
  put(content: string): string;
  /** `null` for a ref it does not hold (the seed's contract). */
  get(ref: string): string | null;
}

/** Counts the tokens of messages. */
export type TokenEstimator = (messages: Message[]) => number | Promise<number>;

/** The seed's name for {@link CompactionResult}. */
export type CompactResult = CompactionResult;
