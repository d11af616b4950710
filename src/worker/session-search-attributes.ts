/** The value types `temporal server start-dev --search-attribute NAME=TYPE` accepts. */
export type SearchAttributeKind = "Text" | "Keyword" | "Int" | "Double" | "Bool" | "Datetime" | "KeywordList";

/** Custom search attributes of a namespace: attribute name → value type. */
export type SearchAttributeSpec = Readonly<Record<string, SearchAttributeKind>>;

/**
 * The search attributes every session upserts (DESIGN.md §3, ops visibility). A server must know them before any
 * workflow sets them, so workers check them at start.
 */
export const SESSION_SEARCH_ATTRIBUTES: SearchAttributeSpec = Object.freeze({
  AgentName: "Keyword",
  AgentStatus: "Keyword",
  AgentTurns: "Int",
  AgentTokens: "Int",
});

/**
 * The attribute a session upserts only when its agent's budget prices its model: the session's cost so far. A worker
 * requires it only when one of its agents has such a price, so deployments without prices need not register it.
 */
export const COST_SEARCH_ATTRIBUTE: SearchAttributeSpec = Object.freeze({ AgentCost: "Double" });
