import { defineSearchAttributeKey, SearchAttributeType } from "@temporalio/common";
import { setCurrentDetails, upsertMemo, upsertSearchAttributes } from "@temporalio/workflow";
import type { SessionStatus } from "./messages.js";
import { currentDetails } from "./current-details.js";
import type { ExecutionPatches } from "./execution-patches.js";
import { workflowPorts } from "./workflow-ports.js";

/** The search attributes a session keeps current (registered by the dev server; see docs/operations.md). */
export const AGENT_NAME = defineSearchAttributeKey("AgentName", SearchAttributeType.KEYWORD);
export const AGENT_STATUS = defineSearchAttributeKey("AgentStatus", SearchAttributeType.KEYWORD);
export const AGENT_TURNS = defineSearchAttributeKey("AgentTurns", SearchAttributeType.INT);
export const AGENT_TOKENS = defineSearchAttributeKey("AgentTokens", SearchAttributeType.INT);
export const AGENT_COST = defineSearchAttributeKey("AgentCost", SearchAttributeType.DOUBLE);

/**
 * The `AgentStatus` value. Sessions recorded before `failed` existed showed `idle` there; the patch keeps their
 * histories replaying (a search attribute upsert is a workflow command).
 */
function searchableStatus(
  status: SessionStatus["status"],
  patches: ExecutionPatches,
): SessionStatus["status"] {
  return status === "failed" && !patches.has("agent-status-failed") ? "idle" : status;
}

/**
 * The `AgentCost` value: the session's cost when its agent's budget prices its model. Sessions recorded before the
 * attribute existed upserted none; the patch keeps their histories replaying. Checked only for priced sessions, so
 * other sessions' histories carry no marker.
 */
function searchableCost(status: SessionStatus, patches: ExecutionPatches): number | undefined {
  return status.cost !== undefined && patches.has("agent-cost-attribute") ? status.cost : undefined;
}

/**
 * The least time between two upserts of a run's progress (`AgentTurns`, `AgentTokens`, `AgentCost`) while the run
 * goes on. They change every turn, and each upsert is a history event and a write to the server's visibility store
 * (the largest share of the server's CPU that a turn added, docs/decisions/0014). A change of `AgentStatus` is
 * upserted at once, with the progress as it is then, so the run's start and end (and any wait for a person) show
 * exact values; between them the progress lags by at most this long plus the turn going on. The time is the one
 * workers recorded in the history (`recorded-clock`), or in executions begun before it, workflow time.
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
  /** Whether the progress is spaced by recorded times (decided once, at the execution's start). */
  private readonly recordedClock: boolean;
  private memo = "";

  /**
   * @param searchAttributes whether the session upserts search attributes at all.
   * @param throttleProgress whether a run's progress is upserted at most every {@link PROGRESS_UPSERT_INTERVAL_MS}
   *   (sessions decide it at their start, `patched("fewer-turn-commands")`: older histories upserted it at
   *   every change).
   * @param patches which patches the execution takes (`agent-status-failed`, `agent-cost-attribute`,
   *   `recorded-clock`).
   */
  constructor(
    private readonly searchAttributes: boolean,
    private readonly throttleProgress: boolean,
    private readonly patches: ExecutionPatches,
  ) {
    this.recordedClock = patches.takes("recorded-clock");
  }

  /**
   * A time a worker recorded in the history: a plan's resolution, a model call's end. The progress clock of
   * executions that take `recorded-clock`: a replay reads these back exactly as the live run did, where workflow
   * time can differ (the first workflow task a worker runs after replaying a history can see the time of the task
   * before it, docs/decisions/0014). Absent times (older workers) leave the clock where it is.
   */
  noteRecordedTime(at: number | undefined): void {
    if (at !== undefined && at > this.recordedTime) this.recordedTime = at;
  }

  /** The clock progress upserts are spaced by. */
  private now(): number {
    return this.recordedClock ? this.recordedTime : workflowPorts.now();
  }

  /** Brings search attributes and details up to date with the session's status. */
  refresh(status: SessionStatus): void {
    setCurrentDetails(currentDetails(status));
    if (!this.searchAttributes) return;
    const tokens = status.usage.inputTokens + status.usage.outputTokens;
    const agentStatus = searchableStatus(status.status, this.patches);
    const cost = searchableCost(status, this.patches);
    const progress = `${status.turns}|${tokens}|${cost ?? ""}`;
    const statusChanged = agentStatus !== this.lastStatus;
    if (!statusChanged && (progress === this.lastProgress || this.progressWaits(status))) return;
    this.lastStatus = agentStatus;
    this.lastProgress = progress;
    this.lastUpsertAt = this.now();
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
      this.throttleProgress &&
      status.currentRun !== undefined &&
      this.now() - this.lastUpsertAt < PROGRESS_UPSERT_INTERVAL_MS
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
