import type { SessionListing } from "../../client.js";

/** A session as `list` shows it. */
export interface SessionRow {
  sessionId: string;
  agent: string;
  /** `AgentStatus` while the workflow runs; the workflow's own status once it ended. */
  status: string;
  turns: number | undefined;
  tokens: number | undefined;
  /** The session's cost when its agent's budget prices its model (`AgentCost`). */
  cost: number | undefined;
  startTime: string;
}

/** A search attribute's value: the SDK gives lists (`["idle"]`); one value is what we store. */
function single(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function text(value: unknown): string | undefined {
  const one = single(value);
  return typeof one === "string" && one !== "" ? one : undefined;
}

function count(value: unknown): number | undefined {
  const one = single(value);
  return typeof one === "number" && Number.isFinite(one) ? one : undefined;
}

/** The row of a listed session, from its search attributes. */
export function sessionRow(listing: SessionListing): SessionRow {
  const attributes = listing.searchAttributes;
  const running = listing.status === "RUNNING";
  return {
    sessionId: listing.sessionId,
    agent: text(attributes.AgentName) ?? "?",
    status: (running ? text(attributes.AgentStatus) : undefined) ?? listing.status.toLowerCase(),
    turns: count(attributes.AgentTurns),
    tokens: count(attributes.AgentTokens),
    cost: count(attributes.AgentCost),
    startTime: listing.startTime.toISOString(),
  };
}

/** The cells of a row, in the order of {@link SESSION_TABLE_HEADER}. */
export function sessionCells(row: SessionRow): string[] {
  const number = (value: number | undefined) => (value === undefined ? "-" : String(value));
  return [
    row.sessionId,
    row.agent,
    row.status,
    number(row.turns),
    number(row.tokens),
    number(row.cost),
    row.startTime.replace("T", " ").replace(/\.\d+Z$/, "Z"),
  ];
}

/** The header of `list`'s table. */
export const SESSION_TABLE_HEADER = [
  "SESSION",
  "AGENT",
  "STATUS",
  "TURNS",
  "TOKENS",
  "COST",
  "STARTED",
] as const;
