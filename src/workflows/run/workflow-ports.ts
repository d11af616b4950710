import { CancellationScope, sleep, uuid4 } from "@temporalio/workflow";
import { AbortError } from "../../kernel/vocabulary/errors.js";
import type { AbortSignalLike, KernelPorts } from "../../kernel/vocabulary/ports.js";

/** A durable timer that is cancelled when `signal` aborts. */
async function durableSleep(ms: number, signal?: AbortSignalLike): Promise<void> {
  if (signal?.aborted) throw new AbortError();
  const scope = new CancellationScope();
  const onAbort = () => scope.cancel();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    await scope.run(() => sleep(ms));
  } catch (error) {
    if (signal?.aborted) throw new AbortError();
    throw error;
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * The kernel's ports inside the workflow sandbox, where `Date.now()` is workflow time and `Math.random()` is
 * seeded per execution: both are recorded by replay, so they are deterministic here (and only here).
 */
export const workflowPorts: KernelPorts = {
  now: () => Date.now(), // eslint-disable-line no-restricted-properties -- workflow time is deterministic
  random: () => Math.random(), // eslint-disable-line no-restricted-properties -- the sandbox seeds it
  newId: () => uuid4(),
  sleep: durableSleep,
};
