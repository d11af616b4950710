import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import type { ToolCallContext } from "../../../src/kernel/middleware/middleware.js";
import type { AbortSignalLike, KernelPorts } from "../../../src/kernel/vocabulary/ports.js";
import type { SessionEvent } from "../../../src/kernel/vocabulary/session-events.js";
import type { ToolCall } from "../../../src/kernel/vocabulary/tools.js";

/** A ToolCallContext built by hand, with what it emitted and recorded. */
export interface TestContext {
  ctx: ToolCallContext;
  events: AgentEvent[];
  recorded: SessionEvent[];
}

/** The time the context's clock always reads. */
export const CLOCK_NOW = 1_767_225_600_000;

const ports: KernelPorts = {
  now: () => CLOCK_NOW,
  random: () => 0.5,
  newId: () => "id",
  sleep: () => Promise.resolve(),
};

/** A context for one call; pass `signal` to test aborts. */
export function toolCallContext(call: ToolCall, signal?: AbortSignalLike): TestContext {
  const events: AgentEvent[] = [];
  const recorded: SessionEvent[] = [];
  const ctx: ToolCallContext = {
    sessionId: "s1",
    messages: [],
    turn: 3,
    signal: signal ?? new AbortController().signal,
    emit: (event) => events.push(event),
    state: new Map(),
    effect: () => Promise.reject(new Error("this test gives no effects")),
    recordSessionEvent: (event) => recorded.push(event),
    ports,
    call,
  };
  return { ctx, events, recorded };
}

/** A tool call with an id derived from its name. */
export function call(name: string, input: unknown = {}, id = `call-${name}`): ToolCall {
  return { id, name, input };
}

/** A promise the test settles by hand. */
export function deferred<T>(): {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets pending promise callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
