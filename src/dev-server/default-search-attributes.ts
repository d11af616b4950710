/** The value types `temporal server start-dev --search-attribute NAME=TYPE` accepts. */
export type SearchAttributeKind = "Text" | "Keyword" | "Int" | "Double" | "Bool" | "Datetime" | "KeywordList";

/** Custom search attributes registered on a dev server: attribute name → value type. */
export type SearchAttributeSpec = Readonly<Record<string, SearchAttributeKind>>;

/**
 * The search attributes the session workflow upserts (DESIGN.md §3, ops visibility). A server must know them
 * before any workflow sets them, so the dev server registers them at start.
 */
export const DEFAULT_SEARCH_ATTRIBUTES: SearchAttributeSpec = Object.freeze({
  AgentName: "Keyword",
  AgentStatus: "Keyword",
  AgentTurns: "Int",
  AgentTokens: "Int",
});
