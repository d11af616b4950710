import type { AbortSignalLike } from "./ports.js";
import type { ToolRetryClass } from "./tools.js";

/**
 * A side effect middleware may perform, named and typed where the middleware is written, implemented where the agent
 * runs. In a durable run each call is one activity, retried by its class, whose recorded result a replay reuses
 * instead of running it again. Workflow-safe: it holds no implementation.
 */
export interface EffectRef<Input = unknown, Output = unknown> {
  /** Unique per agent; the worker finds the implementation by it. */
  readonly effect: string;
  /** `at-most-once` (default) never runs twice; `idempotent` is retried until it succeeds. */
  readonly retry: ToolRetryClass;
  /** Start-to-close timeout of one call; default 60 s. */
  readonly timeoutMs: number;
  /** Types only: never set. */
  readonly types?: { input: Input; output: Output };
}

/** What an effect's implementation gets besides its input. */
export interface EffectContext {
  readonly sessionId: string;
  readonly signal: AbortSignalLike;
}

/** An effect with its implementation: list it in the agent definition's `effects`. */
export interface EffectImplementation<Input = unknown, Output = unknown> {
  readonly ref: EffectRef<Input, Output>;
  run(input: Input, ctx: EffectContext): Output | Promise<Output>;
}

/** An implementation of any effect (the definition's list holds several types). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry keeps its own input and output types
export type AnyEffectImplementation = EffectImplementation<any, any>;

/** Runs an effect for a run: the kernel's port to wherever effects execute. */
export type EffectRunner = (ref: EffectRef, input: unknown, ctx: EffectContext) => Promise<unknown>;

/** The default timeout of one effect call. */
export const DEFAULT_EFFECT_TIMEOUT_MS = 60_000;

/**
 * Names a typed effect: call it beside the middleware (`ctx.effect(ref, input)`), implement it with `implementEffect`.
 * @example defineEffect<{ tool: string }, void>("record_call", { retry: "idempotent" })
 */
export function defineEffect<Input, Output = void>(
  effect: string,
  options: { retry?: ToolRetryClass; timeoutMs?: number } = {},
): EffectRef<Input, Output> {
  if (!/^[A-Za-z0-9][\w.-]*$/.test(effect))
    throw new TypeError(
      `effect name '${effect}' must start with a letter or digit and use only letters, digits, '_', '.', '-'`,
    );
  return {
    effect,
    retry: options.retry ?? "at-most-once",
    timeoutMs: options.timeoutMs ?? DEFAULT_EFFECT_TIMEOUT_MS,
  };
}

/** Pairs an effect with what it does. The function may use any I/O: it never runs inside a workflow. */
export function implementEffect<Input, Output>(
  ref: EffectRef<Input, Output>,
  run: (input: Input, ctx: EffectContext) => Output | Promise<Output>,
): EffectImplementation<Input, Output> {
  return { ref, run };
}

/** The error of an effect no implementation was given for. */
export class EffectNotImplementedError extends Error {
  constructor(effect: string, agent?: string) {
    super(
      `effect '${effect}' is not implemented${agent ? ` for agent '${agent}'` : ""}: ` +
        "add implementEffect(ref, fn) to the agent definition's `effects`",
    );
    this.name = "EffectNotImplementedError";
  }
}

/** The in-process runner: calls the implementations directly. */
export function directEffectRunner(
  implementations: readonly AnyEffectImplementation[],
  agent?: string,
): EffectRunner {
  const byName = new Map(implementations.map((entry) => [entry.ref.effect, entry]));
  return async (ref, input, ctx) => {
    const implementation = byName.get(ref.effect);
    if (!implementation) throw new EffectNotImplementedError(ref.effect, agent);
    return implementation.run(input, ctx);
  };
}

/** Checks that two implementations do not share a name. */
export function checkEffectNames(implementations: readonly AnyEffectImplementation[]): string | undefined {
  const seen = new Set<string>();
  for (const { ref } of implementations) {
    if (seen.has(ref.effect)) return `two effects are named '${ref.effect}'`;
    seen.add(ref.effect);
  }
  return undefined;
}
