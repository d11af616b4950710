import type { SessionStatus } from "../../contract/session-status.js";
import { usageError } from "../cli-error.js";

/** The values of the `AgentStatus` search attribute. */
export const SESSION_STATUSES: readonly SessionStatus["status"][] = [
  "idle",
  "running",
  "awaiting_approval",
  "awaiting_input",
  "failed",
  "closed",
];

/** The filters of `lite-agent list`. */
export interface ListFilters {
  status?: string;
  agent?: string;
  /** A raw visibility query, ANDed with the rest. */
  query?: string;
  /** Also list the executions a session left behind when it continued as new. */
  all?: boolean;
}

/** A string literal of Temporal's SQL-like list filter. */
function literal(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/**
 * The visibility query for the filters (the client adds the workflow type and task queue). Executions closed
 * by continue-as-new are left out unless `all`: the session lives on in its newest execution. A status that
 * is not one of {@link SESSION_STATUSES} is a usage error.
 */
export function listQuery(filters: ListFilters): string | undefined {
  const clauses: string[] = [];
  if (filters.status !== undefined) {
    if (!(SESSION_STATUSES as readonly string[]).includes(filters.status)) {
      throw usageError(`unknown status '${filters.status}'; one of: ${SESSION_STATUSES.join(", ")}`);
    }
    clauses.push(`AgentStatus = ${literal(filters.status)}`);
  }
  if (filters.agent !== undefined) clauses.push(`AgentName = ${literal(filters.agent)}`);
  if (!filters.all) clauses.push(`ExecutionStatus != "ContinuedAsNew"`);
  const raw = filters.query?.trim();
  if (raw) clauses.push(`(${raw})`);
  return clauses.length > 0 ? clauses.join(" AND ") : undefined;
}
