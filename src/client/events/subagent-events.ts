import type { RunResult } from "../../kernel/vocabulary/events.js";
import type { DurableEvent } from "./run-event-stream.js";

/** Opens the event stream of a subagent's session (its one run, `task`). */
export type SubagentStreamOpener = (sessionId: string) => AsyncGenerator<DurableEvent, RunResult>;

type Item<R> = { event: DurableEvent } | { done: R } | { error: unknown };

/**
 * How long a subagent's `end` event waits for the rest of the child's events. A child that cannot be read (its
 * worker is gone and none serves its queue) would otherwise hold its parent's events until the child's reader gives up.
 */
export const SUBAGENT_DRAIN_MS = 10_000;

/**
 * A run's events with its subagents' merged in: from a `subagent` start, the child's events as they happen, stamped
 * with its `forkId` and the start's offset (a reader resuming after it reads the child session). The `subagent` end
 * follows the child's last event, or `drainMs` (the rest stays in its session). Closing closes every stream read.
 */
export async function* withSubagentEvents<R>(
  parent: AsyncGenerator<DurableEvent, R>,
  openChild: SubagentStreamOpener,
  drainMs = SUBAGENT_DRAIN_MS,
): AsyncGenerator<DurableEvent, R> {
  const items: Item<R>[] = [];
  let wake: (() => void) | undefined;
  const push = (item: Item<R>) => {
    items.push(item);
    wake?.();
  };
  const children = new Map<
    string,
    { stream: AsyncGenerator<DurableEvent, RunResult>; pumped: Promise<void> }
  >();
  // Children whose end came before their stream did: what their stream still brings is dropped.
  const abandoned = new Set<AsyncGenerator<DurableEvent, RunResult>>();
  const pumpChild = async (
    stream: AsyncGenerator<DurableEvent, RunResult>,
    forkId: string,
    offset: number,
  ) => {
    try {
      for (;;) {
        const next = await stream.next();
        if (next.done || abandoned.has(stream)) return;
        push({ event: { ...next.value, forkId: next.value.forkId ?? forkId, offset } });
      }
    } catch {
      // A child's stream that fails (its session gone) ends its part; the parent's end event still comes.
    }
  };
  const pumpParent = async () => {
    try {
      for (;;) {
        const next = await parent.next();
        if (next.done) return push({ done: next.value });
        const event = next.value;
        if (event.type === "subagent" && event.phase === "start" && !children.has(event.sessionId)) {
          const stream = openChild(event.sessionId);
          children.set(event.sessionId, { stream, pumped: pumpChild(stream, event.forkId, event.offset) });
        }
        const child = event.type === "subagent" && event.phase === "end" && children.get(event.sessionId);
        if (child && !(await settlesWithin(child.pumped, drainMs))) {
          abandoned.add(child.stream);
          void child.stream.return(undefined as never).catch(() => undefined);
        }
        push({ event });
      }
    } catch (error) {
      push({ error });
    }
  };
  void pumpParent();
  try {
    for (;;) {
      const item = items.shift();
      if (!item) {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        continue;
      }
      if ("error" in item) throw item.error;
      if ("done" in item) return item.done;
      yield item.event;
    }
  } finally {
    // Not awaited: a stream waiting for its next event takes the close when that read ends (or the client closes).
    void parent.return(undefined as never).catch(() => undefined);
    for (const child of children.values())
      void child.stream.return(undefined as never).catch(() => undefined);
  }
}

/** Whether the promise settles within `ms`. */
async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}
