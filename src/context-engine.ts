import {
  createContextEngine as createKernelEngine,
  type ContextEngineOptions as KernelEngineOptions,
} from "./kernel/context/context-engine.js";
import type {
  ContextEngine as ContextEngineContract,
  ContextPreparation,
  ContextRequest,
} from "./kernel/context/types.js";
import { sessionEventOf } from "./kernel/checkpoint/session-event-of.js";
import type { ContextStatus } from "./kernel/vocabulary/events.js";
import type { Message } from "./kernel/vocabulary/messages.js";
import type { KernelPorts } from "./kernel/vocabulary/ports.js";
import type { Checkpointer, SessionEvent } from "./kernel/vocabulary/session-events.js";
import { nodePorts } from "./node-ports.js";

/**
 * How the seed constructs a ContextEngine (`new ContextEngine({ sessionId, checkpointer?, provider?, planner?,
 * archive?, windowTokens?, staticPrefix? })`), plus this kernel's own options, all optional but `sessionId`.
 */
export interface ContextEngineInit extends Omit<KernelEngineOptions, "ports"> {
  /** Default: the real clock and timers (`nodePorts`). */
  ports?: KernelPorts;
  /**
   * The session's log: the engine restores its generation, facts and archive refs from the latest committed
   * `context_view` in it, and appends each view it commits (a failed append surfaces on the next call).
   */
  checkpointer?: Checkpointer;
}

/** The seed's name for {@link ContextEngineInit}. */
export type ContextEngineOptions = ContextEngineInit;

/** The seed's factory: `new ContextEngine(options)`. */
export function createContextEngine(options: ContextEngineOptions): ContextEngine {
  return new ContextEngine(options);
}

/** What an instance holds; kept off the instance so the class stays structurally the `ContextEngine` interface. */
interface EngineSlot {
  engine: ContextEngineContract | undefined;
  ready: Promise<ContextEngineContract>;
  writes: Promise<void>;
}

const slots = new WeakMap<object, EngineSlot>();

/**
 * The ContextEngine as the seed exports it: a class to construct in process. It is the kernel's levelled engine
 * (`createKernelEngine`), with the clock of this process and, given a checkpointer, the session's log as its
 * history and record. Agents do not need one: `context: {}` in their config gives each run its own.
 */
export class ContextEngine implements ContextEngineContract {
  constructor(init: ContextEngineInit) {
    const slot = { engine: undefined, writes: Promise.resolve() } as EngineSlot;
    slot.ready = openEngine(init, slot).then((engine) => (slot.engine = engine));
    // A log that cannot be read fails the first call, not the process (as an unhandled rejection).
    slot.ready.catch(() => undefined);
    slots.set(this, slot);
  }

  /** The status of the last pass that acted (level > 0); undefined before the first. */
  get status(): ContextStatus | undefined {
    return slotOf(this).engine?.status;
  }

  /** Projects the durable messages for the next model call (levels by window fraction). */
  async prepare(messages: Message[], request?: ContextRequest): Promise<ContextPreparation> {
    const engine = await settled(slotOf(this));
    return engine.prepare(messages, request);
  }

  /** Forced compaction: "overflow" gives the L5 emergency view; "manual" runs L4. */
  async compact(
    reason: "overflow" | "manual",
    messages: Message[],
    instructions?: string,
  ): Promise<ContextPreparation> {
    const engine = await settled(slotOf(this));
    return engine.compact(reason, messages, instructions);
  }
}

function slotOf(engine: ContextEngine): EngineSlot {
  return slots.get(engine)!;
}

/** The engine once its history is read and the previous call's views are written. */
async function settled(slot: EngineSlot): Promise<ContextEngineContract> {
  const engine = await slot.ready;
  await slot.writes.catch((error: unknown) => {
    // Reported once; the views after it are written again as usual.
    slot.writes = Promise.resolve();
    throw error;
  });
  return engine;
}

async function openEngine(init: ContextEngineInit, slot: EngineSlot): Promise<ContextEngineContract> {
  const { checkpointer, ports, ...options } = init;
  if (!checkpointer) return createKernelEngine({ ...options, ports: ports ?? nodePorts });
  const history: SessionEvent[] = [...(options.history ?? [])];
  for await (const stored of checkpointer.read(init.sessionId)) history.push(sessionEventOf(stored));
  const record = (event: SessionEvent): void => {
    options.record?.(event);
    // Serialised: views land in the log in the order they were committed.
    slot.writes = slot.writes.then(() => checkpointer.append(init.sessionId, [event]).then(() => undefined));
  };
  return createKernelEngine({ ...options, ports: ports ?? nodePorts, history, record });
}
