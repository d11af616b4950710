import type { DurableMiddlewareRef, Middleware } from "./middleware.js";

/** Makes a middleware from its options (plain data). */
export type MiddlewareFactory<Options> = (options: Options) => Middleware;

// Module state, filled only while modules load (the built-ins' and each `defineMiddleware` call), so every
// workflow sees the same factories: the worker loads the bundle's modules and the middleware modules once per
// thread, before any session (docs/decisions/0014). Not on globalThis: the workflow sandbox keeps global
// writes per workflow.
// eslint-disable-next-line no-restricted-syntax -- filled only while the shared modules load (see above).
const factories = new Map<string, MiddlewareFactory<unknown>>();

/** Registers a factory under an id (the built-ins register theirs when their module loads). */
export function registerMiddlewareFactory<Options>(id: string, factory: MiddlewareFactory<Options>): void {
  factories.set(id, factory as MiddlewareFactory<unknown>);
}

/**
 * Defines a middleware that runs in-process and durably alike; `module` is the `import.meta.url` of a workflow-safe
 * module (no Node built-ins, I/O, clocks or randomness but `ctx.ports`; effects via `ctx.effect`). The workflow
 * rebuilds it from its id and options (plain data), and hooks may run again on replay, so keep them deterministic.
 */
export function defineMiddleware<Options = void>(
  where: { id: string; module: string },
  factory: MiddlewareFactory<Options>,
): (options: Options) => Middleware {
  if (!/^[A-Za-z0-9][\w.:/-]*$/.test(where.id))
    throw new TypeError(`middleware id '${where.id}' must start with a letter or digit and use no spaces`);
  registerMiddlewareFactory(where.id, factory);
  return (options: Options) => ({
    ...factory(options),
    durable: { id: where.id, options, module: where.module },
  });
}

/** The part of {@link UnknownMiddlewareError}'s message {@link unknownMiddlewareIn} looks for. */
const NOT_IN_WORKFLOW_CODE = "is not in this worker's workflow code";

/** The error of a middleware id the workflow code does not know. */
export class UnknownMiddlewareError extends Error {
  constructor(id: string) {
    super(
      `middleware '${id}' ${NOT_IN_WORKFLOW_CODE}: define it with defineMiddleware({ id, module: ` +
        "import.meta.url }) and register the agent that uses it on the worker",
    );
    this.name = "UnknownMiddlewareError";
  }
}

/**
 * The middleware id an {@link UnknownMiddlewareError} names, found in any text that carries its message (a
 * replay's failure reaches its caller as text, not as the error).
 */
export function unknownMiddlewareIn(text: string): string | undefined {
  return new RegExp(`middleware '([^']+)' ${NOT_IN_WORKFLOW_CODE}`).exec(text)?.[1];
}

/** Makes a middleware again from its durable reference (inside the workflow). */
export function middlewareFromRef(ref: Pick<DurableMiddlewareRef, "id" | "options">): Middleware {
  const factory = factories.get(ref.id);
  if (!factory) throw new UnknownMiddlewareError(ref.id);
  return factory(ref.options);
}

/** Whether a factory is registered under an id (in this realm). */
export function hasMiddlewareFactory(id: string): boolean {
  return factories.has(id);
}
