import type { Message } from "../../../src/kernel/vocabulary/messages.js";
import type { AbortSignalLike, KernelPorts } from "../../../src/kernel/vocabulary/ports.js";
import type { ModelProvider, ProviderContextCapabilities } from "../../../src/kernel/vocabulary/model.js";
import type { SessionEvent } from "../../../src/kernel/vocabulary/session-events.js";

/** A pending `sleep` call the test can resolve. */
export interface PendingSleep {
  ms: number;
  signal?: AbortSignalLike;
  resolve(): void;
}

/**
 * Fake ports: a manual clock and a sleep that never resolves by itself (it rejects when its signal aborts).
 * `onSleep` lets a test resolve it at once (a planner timeout) or keep it pending.
 */
export function fakePorts(onSleep?: (sleep: PendingSleep) => void) {
  let clock = 1_000;
  const sleeps: PendingSleep[] = [];
  const ports: KernelPorts = {
    now: () => clock,
    random: () => 0.5,
    newId: () => `id-${sleeps.length}`,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        const pending: PendingSleep = { ms, resolve, ...(signal ? { signal } : {}) };
        sleeps.push(pending);
        signal?.addEventListener("abort", () => reject(new Error("sleep aborted")), { once: true });
        onSleep?.(pending);
      });
    },
  };
  return {
    ports,
    sleeps,
    advance(ms: number) {
      clock += ms;
    },
  };
}

/** A provider with the given context capabilities; it never streams. */
export function fakeProvider(context?: ProviderContextCapabilities): ModelProvider {
  return {
    id: "fake",
    ...(context ? { context } : {}),
    stream() {
      throw new Error("not used");
    },
  };
}

/** Collects the events the engine records. */
export function recorder() {
  const events: SessionEvent[] = [];
  return { events, record: (event: SessionEvent) => events.push(event) };
}

/** A user message with string content (opens a segment). */
export const user = (text: string): Message => ({ role: "user", content: text });

/** An assistant text message. */
export const assistant = (text: string): Message => ({
  role: "assistant",
  content: [{ type: "text", text }],
});

/** An assistant message with one tool call. */
export const call = (id: string, input: unknown = {}): Message => ({
  role: "assistant",
  content: [{ type: "tool_call", id, name: "read_file", input }],
});

/** A tool-result message. */
export const result = (id: string, content: string): Message => ({
  role: "user",
  content: [{ type: "tool_result", id, content }],
});

/** A string of `chars` characters, different per `seed` so duplicates do not collide. */
export const text = (chars: number, seed = "x"): string => seed.repeat(chars).slice(0, chars);

/** Deep copy, to prove inputs are not mutated. */
export const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
