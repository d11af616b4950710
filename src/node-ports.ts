import { randomUUID } from "node:crypto";
import { AbortError } from "./kernel/vocabulary/errors.js";
import type { AbortSignalLike, KernelPorts } from "./kernel/vocabulary/ports.js";

/** Sleeps `ms`, rejecting with an AbortError as soon as `signal` aborts. */
function sleep(ms: number, signal?: AbortSignalLike): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The in-process ports: the real clock, `Math.random`, UUIDs and timers. */
export const nodePorts: KernelPorts = {
  now: () => Date.now(),
  random: () => Math.random(),
  newId: () => randomUUID(),
  sleep,
};
