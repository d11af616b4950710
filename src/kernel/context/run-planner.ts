import type { AbortSignalLike, KernelPorts } from "../vocabulary/ports.js";
import { createAbortHandle } from "./abort-handle.js";
import type { ContextPlanner, ContextPlannerInput, ContextProposal } from "./types.js";

/** The outcome of one planner call: a proposal, or none when it failed or ran out of time. */
export interface PlannerOutcome {
  proposal?: ContextProposal;
  latencyMs: number;
}

/**
 * Races the planner against `ports.sleep(timeoutMs)` (a durable timer in workflows). Whichever loses is
 * cancelled through a shared signal. A planner that throws, rejects or loses the race gives no proposal, and
 * the engine falls back to the deterministic levels.
 */
export async function runPlanner(
  planner: ContextPlanner,
  input: ContextPlannerInput,
  ports: KernelPorts,
  timeoutMs: number,
): Promise<PlannerOutcome> {
  const started = ports.now();
  const handle = createAbortHandle();
  const timer = ports.sleep(timeoutMs, handle.signal).then(
    () => undefined,
    () => undefined,
  );
  const proposal = callPlanner(planner, input, handle.signal).then(
    (value) => value,
    () => undefined,
  );
  try {
    const winner = await Promise.race([proposal, timer]);
    return { ...(isProposal(winner) ? { proposal: winner } : {}), latencyMs: ports.now() - started };
  } finally {
    handle.abort("context planner finished");
  }
}

/** Calls the planner; a synchronous throw becomes a rejection. */
async function callPlanner(
  planner: ContextPlanner,
  input: ContextPlannerInput,
  signal: AbortSignalLike,
): Promise<ContextProposal> {
  return planner.propose(input, signal);
}

function isProposal(value: unknown): value is ContextProposal {
  return typeof value === "object" && value !== null && Array.isArray((value as ContextProposal).segments);
}
