import type { CallModelInput } from "../contract/activity-types.js";
import type { ModelRequest } from "../kernel/vocabulary/model.js";

/** How many runs' latest requests a worker keeps (one conversation each; older ones are read by query again). */
const KEPT_RUNS = 256;

/**
 * The latest model request of each run this worker served, so the next call of the run can travel as a change
 * of it (`CallModelInput.delta`): a long conversation then crosses Temporal once, not once per turn. A miss (the
 * run moved to another worker, or this one restarted) falls back to reading the whole request by query.
 */
export class RequestCache {
  private readonly latest = new Map<string, { key: string; request: ModelRequest }>();

  /** The request of `input` built from a remembered base, or undefined when this worker does not have it. */
  resolve(input: CallModelInput): ModelRequest | undefined {
    const delta = input.delta;
    if (!delta) return undefined;
    const base = this.latest.get(input.runId);
    if (!base || base.key !== delta.base.key || base.request.messages.length < delta.base.count)
      return undefined;
    const request: Record<string, unknown> = { ...base.request, ...delta.changed };
    for (const field of delta.unset ?? []) delete request[field];
    const messages = [...base.request.messages.slice(0, delta.base.count), ...delta.appended];
    return { ...(request as Omit<ModelRequest, "messages">), messages };
  }

  /** Remembers the run's latest request. */
  remember(input: CallModelInput, request: ModelRequest): void {
    this.latest.delete(input.runId);
    this.latest.set(input.runId, { key: input.requestKey, request });
    if (this.latest.size > KEPT_RUNS) this.latest.delete(this.latest.keys().next().value!);
  }
}
