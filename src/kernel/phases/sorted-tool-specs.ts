import { toToolSpec, type AnyTool, type ToolSpec } from "../vocabulary/tools.js";

/**
 * The tools as the model sees them, sorted by name (as the Go seed's registry lists them): the request's tool list
 * then does not depend on the order tools were registered in, so a provider's prompt cache, keyed on the prefix
 * the tools are part of, keeps hitting. Computed once per run: the same array for every request of the run.
 */
export function sortedToolSpecs(tools: readonly AnyTool[]): ToolSpec[] {
  // Code-unit order, not localeCompare: the same on every machine, and in the workflow sandbox.
  return tools.map(toToolSpec).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
