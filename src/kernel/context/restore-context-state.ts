import type { SessionEvent } from "../vocabulary/session-events.js";
import type { ContextFact, RestoredContextState } from "./types.js";

export type { RestoredContextState };

/**
 * Restores from the latest committed `context_view`: its generation, facts, working state and archive refs; from
 * `carried` (a paused run's snapshot) when the log has no view. Every `artifact_verified` event also becomes an
 * `artifact` fact (deduplicated by text).
 */
export function restoreContextState(
  history: readonly SessionEvent[] = [],
  carried?: RestoredContextState,
): RestoredContextState {
  let latest: Extract<SessionEvent, { type: "context_view" }> | undefined;
  const artifacts: ContextFact[] = [];
  for (const event of history) {
    if (event.type === "context_view") latest = event;
    else if (event.type === "artifact_verified")
      artifacts.push({ kind: "artifact", text: artifactText(event) });
  }
  const base = latest?.view ?? carried;
  const facts = [...(base?.facts ?? [])];
  const seen = new Set(facts.map((fact) => fact.text));
  for (const fact of artifacts) {
    if (seen.has(fact.text)) continue;
    seen.add(fact.text);
    facts.push(fact);
  }
  return {
    generation: base?.generation ?? 0,
    facts,
    workingState: { ...(base?.workingState ?? {}) },
    archiveRefs: [...(base?.archiveRefs ?? [])],
  };
}

function artifactText(event: Extract<SessionEvent, { type: "artifact_verified" }>): string {
  const revision = event.revision ? `@${event.revision}` : "";
  return `${event.path}${revision} verified by \`${event.command}\`: ${event.result}`;
}
