import { patched } from "@temporalio/workflow";

/**
 * The patches the session workflow asked before {@link PATCH_SET}, each where it always did (at an execution's
 * start, or at the one point that can need it).
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
 * The patch an execution asks first, at its start. Code that records it takes the new branch of every
 * {@link EarlierPatch}, so an execution that has its marker asks none of them: one marker (and one
 * `TemporalChangeVersion` upsert) at its start instead of one pair per patch, and no patch asked later in the
 * execution, where a replay may answer differently from the live run (docs/versioning.md). A later patch is asked
 * on its own as usual; folding it in takes a new set that implies this one.
 */
export const PATCH_SET = "patch-set-1";

/**
 * Which patches an execution takes. Executions that began before {@link PATCH_SET} ask each patch with `patched()`,
 * at the same point and in the same order as they always did, so their histories replay unchanged.
 */
export class ExecutionPatches {
  /** Asked when the execution starts, before anything else it records. */
  private readonly takesAll = patched(PATCH_SET);

  /** Whether the execution takes `id`'s new branch (asks `patched(id)` only in executions begun before the set). */
  has(id: EarlierPatch): boolean {
    return this.takesAll || patched(id);
  }
}
