import { messageText, type Message } from "../vocabulary/messages.js";
import { stableStringify } from "../hash/stable-stringify.js";
import { EXTERNALIZE_PREVIEW_CHARS } from "./edits/context-levels.js";
import { sha256 } from "../hash/sha256.js";
import { shrinkText } from "./edits/shrink-text.js";
import type { ContextArchive, ContextProposal, ContextProposalSegment } from "./types.js";
import type { WorkingSegment } from "./edits/working-segments.js";

/** How a segment the planner summarised starts. */
export const SEGMENT_SUMMARY_HEADER = "[Historical segment summary]";

/** How a segment the planner archived starts; the ref follows. */
export const ARCHIVED_SEGMENT_PREFIX = "[Historical segment archived: ";

/**
 * Planner decisions by segment id, with a hash of the segment they were made for. Later passes re-apply a
 * decision while the segment is unchanged, so a summary stays put (and the prompt prefix stable) even when the
 * next planner call times out.
 */
export type PlannerDecisionMemo = Map<
  string,
  { signature: string; messages: Message[]; state: WorkingSegment["state"] }
>;

/** What applying a proposal needs besides the segments. */
export interface ProposalContext {
  archive?: ContextArchive;
  /** The active segment; never touched. */
  latestId: string | undefined;
  /** Segment ids classified `verified`; never touched. Proposals can add to it. */
  verified: Set<string>;
  memo: PlannerDecisionMemo;
}

/** The hash a memoised decision is tied to. */
export function segmentSignature(segment: WorkingSegment): string {
  return sha256(stableStringify(segment.messages));
}

/** True when the planner may act on a segment: not the latest, not verified, not already decided. */
export function isPlannerCandidate(segment: WorkingSegment, context: ProposalContext): boolean {
  return segment.id !== context.latestId && !context.verified.has(segment.id) && segment.state === "raw";
}

/** Re-applies memoised decisions to segments whose content is unchanged, and marks verified ones. */
export function applyRememberedDecisions(
  segments: readonly WorkingSegment[],
  context: ProposalContext,
): WorkingSegment[] {
  return segments.map((segment) => {
    if (context.verified.has(segment.id)) return { ...segment, verified: true };
    if (segment.id === context.latestId) return segment;
    const known = context.memo.get(segment.id);
    if (!known || known.signature !== segmentSignature(segment)) return segment;
    return { ...segment, messages: known.messages, state: known.state };
  });
}

/**
 * L3: applies a planner proposal. `summarize` replaces the segment by one summary message; `archive` moves it to the
 * archive behind a marker (kept without an archive); `keep`, or aiming at the latest or a verified segment, changes
 * nothing. Whole segments only, so calls and results stay together. Returns the archive refs it created.
 */
export function applyPlannerProposal(
  segments: readonly WorkingSegment[],
  proposal: ContextProposal,
  context: ProposalContext,
): { segments: WorkingSegment[]; refs: string[] } {
  const refs: string[] = [];
  const byId = new Map(proposal.segments.map((entry) => [entry.id, entry]));
  const next = segments.map((segment) => {
    const entry = byId.get(segment.id);
    if (!entry || !isPlannerCandidate(segment, context)) return segment;
    if (entry.classification === "verified") {
      context.verified.add(segment.id);
      return { ...segment, verified: true };
    }
    const replaced = decide(segment, entry, context.archive, refs);
    if (replaced !== segment) {
      context.memo.set(segment.id, {
        signature: segmentSignature(segment),
        messages: replaced.messages,
        state: replaced.state,
      });
    }
    return replaced;
  });
  return { segments: next, refs };
}

function decide(
  segment: WorkingSegment,
  entry: ContextProposalSegment,
  archive: ContextArchive | undefined,
  refs: string[],
): WorkingSegment {
  if (entry.action === "summarize" && entry.summary?.trim()) {
    const summary: Message = { role: "user", content: `${SEGMENT_SUMMARY_HEADER}\n${entry.summary.trim()}` };
    return { ...segment, messages: [summary], state: "summarized" };
  }
  if (entry.action === "archive" && archive) {
    const ref = archive.put(JSON.stringify(segment.messages));
    if (!refs.includes(ref)) refs.push(ref);
    const opener = segment.messages[0] ? messageText(segment.messages[0]) : "";
    const marker: Message = {
      role: "user",
      content: `${ARCHIVED_SEGMENT_PREFIX}${ref}] ${shrinkText(opener, EXTERNALIZE_PREVIEW_CHARS)}`,
    };
    return { ...segment, messages: [marker], state: "archived" };
  }
  return segment;
}
