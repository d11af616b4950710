import { patched } from "@temporalio/workflow";

/**
 * The patches the session workflow asked before {@link PREVIOUS_PATCH_SET}, each where it always did (at an
 * execution's start, or at the one point that can need it).
 */
export type EarlierPatch =
  | "authorised-approvers"
  | "wake-up-while-streaming"
  | "durable-compaction"
  | "mcp-tools"
  | "background-total-spans-detached"
  | "fewer-turn-commands"
  | "wake-up-per-run-from-start"
  | "wake-up-in-call-scope"
  | "wake-up-per-run"
  | "session-ends-on-unknown-agent"
  | "agent-status-closed"
  | "agent-status-failed"
  | "agent-cost-attribute"
  | "await-background-stop";

/**
 * The changes made since {@link PREVIOUS_PATCH_SET}, taken only by executions that record {@link PATCH_SET}: each
 * is a set's, never asked on its own.
 * - `recorded-clock`: a run's progress upserts are spaced by the times workers recorded in the history (a plan's
 *   resolution, a model call's end), not by workflow time, which the first workflow task a worker runs after
 *   replaying a history can see stale (docs/decisions/0014, phase 15).
 * - `continued-plan-activity`: a run that starts in a continued execution's first workflow task (a run continued
 *   as new, or one queued across it) resolves its plan with an activity, not a local activity, whose result a live
 *   worker can take a task later than a replay does (phase 15).
 */
export type LaterPatch = "recorded-clock" | "continued-plan-activity";

/**
 * The patch an execution asks first, at its start. Code that records it takes the new branch of every
 * {@link EarlierPatch} and {@link LaterPatch}, so an execution that has its marker asks none of them: one marker
 * (and one `TemporalChangeVersion` upsert) at its start instead of one pair per patch, and no patch asked later in
 * the execution, where a replay may answer differently from the live run (docs/versioning.md). Folding in a later
 * patch takes a new set that implies the ones before.
 */
export const PATCH_SET = "patch-set-2";

/** The set executions recorded before {@link PATCH_SET}: every {@link EarlierPatch}, no {@link LaterPatch}. */
export const PREVIOUS_PATCH_SET = "patch-set-1";

/**
 * Which patches an execution takes. Executions that began with {@link PREVIOUS_PATCH_SET} take every earlier
 * patch and no later one; those that began before either ask each earlier patch with `patched()`, at the same
 * point and in the same order as they always did, so their histories replay unchanged.
 */
export class ExecutionPatches {
  /** Asked when the execution starts, before anything else it records. */
  private readonly takesCurrentSet = patched(PATCH_SET);
  /** Asked only where the current set is not recorded: an execution begun before it. */
  private readonly takesEarlier = this.takesCurrentSet || patched(PREVIOUS_PATCH_SET);

  /** Whether the execution takes `id`'s new branch (asks `patched(id)` only in executions begun before the sets). */
  has(id: EarlierPatch): boolean {
    return this.takesEarlier || patched(id);
  }

  /** Whether the execution takes a change made since {@link PREVIOUS_PATCH_SET}: only with {@link PATCH_SET}. */
  takes(_id: LaterPatch): boolean {
    return this.takesCurrentSet;
  }
}
