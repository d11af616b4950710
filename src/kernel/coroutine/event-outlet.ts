import type { AgentEvent } from "../vocabulary/events.js";
import type { MaybeAsync } from "./maybe-async.js";

/**
 * Where the turn loop delivers its events, in order. The loop is an async function, not a generator: passing each
 * event up through generator levels cost every event several promises, and in a workflow the SDK captures a stack
 * trace for every promise (docs/decisions/0014). The in-process generator API keeps its pauses through `pause`.
 */
export interface EventOutlet {
  /** Delivers an event at once (the tool phase's live events, which stream while tools run). */
  push(event: AgentEvent): void;
  /**
   * Where a generator would have paused at a `yield`: a promise while the consumer has not asked for more (the
   * loop must not go on before), nothing when it may go on at once (the workflow driver takes events as they come).
   */
  pause(): MaybeAsync<void>;
}

/**
 * Delivers `events`, then pauses as a generator yielding them would; delivering none does not pause. The caller
 * awaits only a promise it got back, so a workflow's loop pays no promise per event.
 */
export function send(outlet: EventOutlet, ...events: AgentEvent[]): MaybeAsync<void> {
  if (events.length === 0) return undefined;
  for (const event of events) outlet.push(event);
  return outlet.pause();
}

/** An outlet that hands every event to `take` at once and never pauses (the workflow driver). */
export function directOutlet(take: (event: AgentEvent) => void): EventOutlet {
  return { push: take, pause: () => undefined };
}

/** An outlet that marks every event with a fork's id, unless it has one already (a fork's own fork). */
export function forkOutlet(outlet: EventOutlet, forkId: string): EventOutlet {
  return {
    push: (event) => outlet.push(event.forkId === undefined ? { ...event, forkId } : event),
    pause: () => outlet.pause(),
  };
}
