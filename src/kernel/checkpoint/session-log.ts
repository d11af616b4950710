import { foldEvents } from "./fold-events.js";
import { recoverInterruptedTools, type RecoveredTool } from "./crash-recovery.js";
import type { Message } from "../vocabulary/messages.js";
import type { Checkpointer, SessionEvent } from "../vocabulary/session-events.js";
import type { MaybeAsync } from "../coroutine/maybe-async.js";

/**
 * The session's event log as one run sees it: appends are serialised through a promise chain and guarded by
 * `expectedHead`, so a second writer fails loudly instead of interleaving. Without a checkpointer it is a no-op.
 */
export class SessionLog {
  private head = 0;
  /** The pending appends, in order; none until the first append to a checkpointer. */
  private chain: Promise<void> | undefined;

  private constructor(
    readonly sessionId: string,
    private readonly checkpointer: Checkpointer | undefined,
  ) {}

  /**
   * Loads the session: the folded messages, the raw events and the tools a crash interrupted. Without a
   * checkpointer there is nothing to load, and it answers at once (no promise: docs/decisions/0014).
   */
  static open(
    sessionId: string,
    checkpointer: Checkpointer | undefined,
    crashRecovery: boolean,
  ): MaybeAsync<OpenedSessionLog> {
    if (!checkpointer)
      return { log: new SessionLog(sessionId, undefined), messages: [], events: [], recovered: [] };
    return SessionLog.load(new SessionLog(sessionId, checkpointer), checkpointer, crashRecovery);
  }

  private static async load(
    log: SessionLog,
    checkpointer: Checkpointer,
    crashRecovery: boolean,
  ): Promise<OpenedSessionLog> {
    const events: SessionEvent[] = [];
    for await (const stored of checkpointer.read(log.sessionId)) {
      events.push(stored.event);
      log.head = stored.seq;
    }
    let recovered: RecoveredTool[] = [];
    if (crashRecovery) {
      const recovery = recoverInterruptedTools(events);
      recovered = recovery.recovered;
      if (recovery.synthetic.length > 0) {
        await log.append(...recovery.synthetic);
        events.push(...recovery.synthetic);
      }
    }
    return { log, messages: foldEvents(events), events, recovered };
  }

  /** True when events are persisted. */
  get persistent(): boolean {
    return this.checkpointer !== undefined;
  }

  /**
   * Appends events after every earlier append; resolves when they are stored. Without a checkpointer there is
   * nothing to wait for, and nothing is returned: the turn loop then pays no promise for it (docs/decisions/0014).
   */
  append(...events: SessionEvent[]): MaybeAsync<void> {
    const checkpointer = this.checkpointer;
    if (!checkpointer) return undefined;
    if (events.length === 0) return this.chain;
    const next = (this.chain ?? Promise.resolve()).then(async () => {
      this.head = await checkpointer.append(this.sessionId, events, this.head);
    });
    // Keep the chain alive after a failure so later appends report their own error.
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Waits for every pending append (nothing to wait for when there is none). */
  flush(): MaybeAsync<void> {
    return this.chain;
  }
}

/** A session's log as a run opens it, with what it held. */
export interface OpenedSessionLog {
  log: SessionLog;
  messages: Message[];
  events: SessionEvent[];
  recovered: RecoveredTool[];
}
