import { foldEvents } from "./checkpoint/fold-events.js";
import { recoverInterruptedTools, type RecoveredTool } from "./checkpoint/crash-recovery.js";
import type { Message } from "./messages.js";
import type { Checkpointer, SessionEvent } from "./session-events.js";
import type { MaybeAsync } from "./maybe-async.js";

/**
 * The session's event log as one run sees it: appends are serialised through a promise chain and guarded by
 * `expectedHead`, so a second writer fails loudly instead of interleaving. Without a checkpointer it is a no-op.
 */
export class SessionLog {
  private head = 0;
  private chain: Promise<void> = Promise.resolve();

  private constructor(
    readonly sessionId: string,
    private readonly checkpointer: Checkpointer | undefined,
  ) {}

  /** Loads the session: the folded messages, the raw events and the tools a crash interrupted. */
  static async open(
    sessionId: string,
    checkpointer: Checkpointer | undefined,
    crashRecovery: boolean,
  ): Promise<{ log: SessionLog; messages: Message[]; events: SessionEvent[]; recovered: RecoveredTool[] }> {
    const log = new SessionLog(sessionId, checkpointer);
    if (!checkpointer) return { log, messages: [], events: [], recovered: [] };
    const events: SessionEvent[] = [];
    for await (const stored of checkpointer.read(sessionId)) {
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
    const next = this.chain.then(async () => {
      this.head = await checkpointer.append(this.sessionId, events, this.head);
    });
    // Keep the chain alive after a failure so later appends report their own error.
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Waits for every pending append. */
  flush(): Promise<void> {
    return this.chain;
  }
}
