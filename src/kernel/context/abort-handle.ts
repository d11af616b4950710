import type { AbortSignalLike } from "../vocabulary/ports.js";

/** A signal and the function that aborts it. */
export interface AbortHandle {
  readonly signal: AbortSignalLike;
  abort(reason?: unknown): void;
}

/**
 * A minimal abort controller over `AbortSignalLike`, so the engine can cancel its own timer and planner without
 * relying on a host `AbortController`. Listeners run once, in registration order.
 */
export function createAbortHandle(): AbortHandle {
  const listeners = new Set<() => void>();
  const state: { aborted: boolean; reason?: unknown } = { aborted: false };
  const signal: AbortSignalLike = {
    get aborted() {
      return state.aborted;
    },
    get reason() {
      return state.reason;
    },
    addEventListener(_type, listener) {
      if (!state.aborted) listeners.add(listener);
    },
    removeEventListener(_type, listener) {
      listeners.delete(listener);
    },
  };
  return {
    signal,
    abort(reason?: unknown) {
      if (state.aborted) return;
      state.aborted = true;
      state.reason = reason;
      const pending = [...listeners];
      listeners.clear();
      for (const listener of pending) listener();
    },
  };
}
