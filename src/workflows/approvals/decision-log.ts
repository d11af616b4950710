import type { DecideToolCallRequest } from "../../contract/requests.js";
import type { DecisionRecord, RejectedDecision } from "../../contract/session-status.js";
import type { CarriedDecisions } from "../../contract/carried-state.js";
import { optional } from "../admission/optional-field.js";
import { MAX_REJECTION_CHARS, clip } from "../session/status-bounds.js";

/** How many decisions, and ignored decision signals, the status lists. */
const LISTED_DECISIONS = 10;

/**
 * The last decisions taken and the decision signals ignored (with why), newest last: what the status and the UI's
 * details list, carried across continue-as-new.
 */
export class DecisionLog {
  private readonly recent: DecisionRecord[] = [];
  private readonly rejected: RejectedDecision[] = [];

  /** @param carried what the previous execution listed (its input: checked, never trusted). */
  constructor(carried?: Pick<CarriedDecisions, "recent" | "rejected">) {
    this.recent.push(...wellFormed<DecisionRecord>(carried?.recent));
    this.rejected.push(...wellFormed<RejectedDecision>(carried?.rejected));
  }

  /** How many entries the log lists. */
  get size(): number {
    return this.recent.length + this.rejected.length;
  }

  record(decision: DecisionRecord): void {
    keep(this.recent, decision);
  }

  /** Lists a decision signal that was ignored, and why; `tool` is the call's when it is pending. */
  reject(request: DecideToolCallRequest, tool: string | undefined, why: string, at: number): void {
    keep(this.rejected, {
      callId: clip(String(request.callId), MAX_REJECTION_CHARS),
      ...optional("tool", tool),
      decision: request.decision,
      ...optional("actor", clipped(request.actor)),
      ...optional("reason", clipped(request.reason)),
      at,
      ...optional("keyId", clipped(signatureKey(request.signature))),
      why: clip(why, MAX_REJECTION_CHARS),
    });
  }

  /** The last decisions taken, newest last. */
  recentDecisions(): DecisionRecord[] {
    return [...this.recent];
  }

  /** The decision signals that were ignored, newest last. */
  rejectedDecisions(): RejectedDecision[] {
    return [...this.rejected];
  }

  carry(): Pick<CarriedDecisions, "recent" | "rejected"> {
    return { recent: [...this.recent], rejected: [...this.rejected] };
  }
}

function keep<T>(list: T[], entry: T): void {
  list.push(entry);
  if (list.length > LISTED_DECISIONS) list.shift();
}

/** The carried entries that have the fields the status and details read (the newest LISTED_DECISIONS). */
function wellFormed<T extends { callId: string; decision: string; at: number }>(entries: unknown): T[] {
  if (!Array.isArray(entries)) return [];
  return entries
    .filter(
      (entry: Partial<T> | null): entry is T =>
        typeof entry === "object" &&
        entry !== null &&
        typeof entry.callId === "string" &&
        (entry.decision === "allow" || entry.decision === "deny") &&
        Number.isFinite(entry.at),
    )
    .slice(-LISTED_DECISIONS);
}

/** The key id an unchecked signature names, if any. */
function signatureKey(signature: unknown): unknown {
  return typeof signature === "object" && signature !== null
    ? (signature as { keyId?: unknown }).keyId
    : undefined;
}

/** A string field of an unchecked request, clipped; undefined when it is not a string. */
function clipped(value: unknown): string | undefined {
  return typeof value === "string" ? clip(value, MAX_REJECTION_CHARS) : undefined;
}
