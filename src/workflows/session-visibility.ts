import { defineSearchAttributeKey, SearchAttributeType } from "@temporalio/common";
import { patched, setCurrentDetails, upsertMemo, upsertSearchAttributes } from "@temporalio/workflow";
import type { SessionStatus } from "./messages.js";
import { currentDetails } from "./current-details.js";

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
function searchableStatus(status: SessionStatus["status"]): SessionStatus["status"] {
  return status === "failed" && !patched("agent-status-failed") ? "idle" : status;
}

/**
 * The `AgentCost` value: the session's cost when its agent's budget prices its model. Sessions recorded before the
 * attribute existed upserted none; the patch keeps their histories replaying. Checked only for priced sessions, so
 * other sessions' histories carry no marker.
 */
function searchableCost(status: SessionStatus): number | undefined {
  return status.cost !== undefined && patched("agent-cost-attribute") ? status.cost : undefined;
}

/**
 * What operators see of a session in the Temporal UI: search attributes (upserted only when they change, so
 * history stays small), the memo, and the current details in markdown with the exact signal that answers each
 * pending approval.
 */
export class SessionVisibility {
  private last = "";
  private memo = "";

  constructor(private readonly searchAttributes: boolean) {}

  /** Brings search attributes and details up to date with the session's status. */
  refresh(status: SessionStatus): void {
    setCurrentDetails(currentDetails(status));
    if (!this.searchAttributes) return;
    const tokens = status.usage.inputTokens + status.usage.outputTokens;
    const agentStatus = searchableStatus(status.status);
    const cost = searchableCost(status);
    const key = `${agentStatus}|${status.turns}|${tokens}|${cost ?? ""}`;
    if (key === this.last) return;
    this.last = key;
    upsertSearchAttributes([
      { key: AGENT_NAME, value: status.agent },
      { key: AGENT_STATUS, value: agentStatus },
      { key: AGENT_TURNS, value: status.turns },
      { key: AGENT_TOKENS, value: tokens },
      ...(cost === undefined ? [] : [{ key: AGENT_COST, value: cost }]),
    ]);
  }

  /** Records the agent and model in the memo when they change. */
  describeAgent(agent: string, model: string): void {
    const key = `${agent}|${model}`;
    if (key === this.memo) return;
    this.memo = key;
    upsertMemo({ agent, model });
  }
}
