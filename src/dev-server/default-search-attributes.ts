import {
  COST_SEARCH_ATTRIBUTE,
  SESSION_SEARCH_ATTRIBUTES,
  type SearchAttributeSpec,
} from "../worker/session-search-attributes.js";

export type { SearchAttributeKind, SearchAttributeSpec } from "../worker/session-search-attributes.js";

/** What the dev server registers at start: every attribute a session may upsert. */
export const DEFAULT_SEARCH_ATTRIBUTES: SearchAttributeSpec = Object.freeze({
  ...SESSION_SEARCH_ATTRIBUTES,
  ...COST_SEARCH_ATTRIBUTE,
});
