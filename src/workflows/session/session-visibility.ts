import { defineSearchAttributeKey, SearchAttributeType } from "@temporalio/common";
import { setCurrentDetails, upsertMemo, upsertSearchAttributes } from "@temporalio/workflow";
import type { SessionStatus } from "../../contract/session-status.js";
import { currentDetails } from "./current-details.js";

/** The search attributes a session keeps current (registered by the dev server; see docs/operations.md). */
export const AGENT_NAME = defineSearchAttributeKey("AgentName", SearchAttributeType.KEYWORD);
export const AGENT_STATUS = defineSearchAttributeKey("AgentStatus", SearchAttributeType.KEYWORD);
export const AGENT_TURNS = defineSearchAttributeKey("AgentTurns", SearchAttributeType.INT);
export const AGENT_TOKENS = defineSearchAttributeKey("AgentTokens", SearchAttributeType.INT);
export const AGENT_COST = defineSearchAttributeKey("AgentCost", SearchAttributeType.DOUBLE);

/**
 * The least time between upserts of a run's progress (`AgentTurns`, `AgentTokens`, `AgentCost`): each is a history
 * event and a visibility write (docs/decisions/0014). `AgentStatus` changes upsert at once, with the progress then, so
 * progress lags by at most this plus a turn. Measured in workers' recorded time, never workflow time.
 */
export const PROGRESS_UPSERT_INTERVAL_MS = 10_000;

/**
 * What operators see of a session in the Temporal UI: search attributes (upserted only when they change, a run's
 * progress at most every {@link PROGRESS_UPSERT_INTERVAL_MS}, so history stays small), the memo, and the current
 * details in markdown (always exact) with the exact signal that answers each pending approval.
 */
export class SessionVisibility {
  private lastStatus = "";
  private lastProgress = "";
  private lastUpsertAt = Number.NEGATIVE_INFINITY;
  /** The latest time a worker recorded in the history (see {@link noteRecordedTime}). */
  private recordedTime = Number.NEGATIVE_INFINITY;
  private memo = "";

  /** @param searchAttributes whether the session upserts search attributes at all. */
  constructor(private readonly searchAttributes: boolean) {}

  /**
   * A time a worker recorded in the history: a plan's resolution, a model call's end. The progress clock: a replay
   * reads these back exactly as the live run did, where workflow time can differ (the first workflow task a worker
   * runs after replaying a history can see the time of the task before it). An absent time leaves the clock as it is.
   */
  noteRecordedTime(at: number | undefined): void {
    if (at !== undefined && at > this.recordedTime) this.recordedTime = at;
  }

  /** Brings search attributes and details up to date with the session's status. */
  refresh(status: SessionStatus): void {
    setCurrentDetails(currentDetails(status));
    if (!this.searchAttributes) return;
    const tokens = status.usage.inputTokens + status.usage.outputTokens;
    const agentStatus = status.status;
    const cost = status.cost;
    const progress = `${status.turns}|${tokens}|${cost ?? ""}`;
    const statusChanged = agentStatus !== this.lastStatus;
    if (!statusChanged && (progress === this.lastProgress || this.progressWaits(status))) return;
    this.lastStatus = agentStatus;
    this.lastProgress = progress;
    this.lastUpsertAt = this.recordedTime;
    upsertSearchAttributes([
      { key: AGENT_NAME, value: status.agent },
      { key: AGENT_STATUS, value: agentStatus },
      { key: AGENT_TURNS, value: status.turns },
      { key: AGENT_TOKENS, value: tokens },
      ...(cost === undefined ? [] : [{ key: AGENT_COST, value: cost }]),
    ]);
  }

  /** Whether a changed progress waits for a later refresh: during a run, until the interval has passed. */
  private progressWaits(status: SessionStatus): boolean {
    return (
      status.currentRun !== undefined && this.recordedTime - this.lastUpsertAt < PROGRESS_UPSERT_INTERVAL_MS
    );
  }

  /** Records the agent and model in the memo when they change. */
  describeAgent(agent: string, model: string): void {
    const key = `${agent}|${model}`;
    if (key === this.memo) return;
    this.memo = key;
    upsertMemo({ agent, model });
  }
}
