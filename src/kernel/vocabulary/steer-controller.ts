import type { Message } from "./messages.js";

/** A message for the agent: a string becomes a user message. */
export type SteerInput = string | Message;

function toMessage(content: SteerInput): Message {
  return typeof content === "string" ? { role: "user", content } : content;
}

/**
 * Injects messages into a running agent, like AbortController: create it, pass it in `run(input, { steer })`, then
 * call `steer.steer(text)`. Steers land at the next turn start; follow-ups only when the model would stop.
 */
export class SteerController {
  protected steers: Message[] = [];
  protected followUps: Message[] = [];
  private readonly interruptListeners = new Set<() => void>();

  /** Queues a message for the start of the next turn. */
  steer(content: SteerInput): void {
    this.steers.push(toMessage(content));
  }

  /** Queues a message for when the model would otherwise stop. */
  followUp(content: SteerInput): void {
    this.followUps.push(toMessage(content));
  }

  /**
   * Cancels the in-flight model call and re-plans at once: the next turn starts with the queued steers.
   * Returns false when no model call was in flight (queued steers still apply at the next turn start).
   */
  interrupt(content?: SteerInput): boolean {
    if (content !== undefined) this.steer(content);
    for (const listener of this.interruptListeners) listener();
    return this.interruptListeners.size > 0;
  }

  /** Kernel side of `interrupt`. */
  onInterrupt(listener: () => void): () => void {
    this.interruptListeners.add(listener);
    return () => this.interruptListeners.delete(listener);
  }

  /** Returns and clears the queued steers. */
  takeSteers(): Message[] {
    const taken = this.steers;
    this.steers = [];
    return taken;
  }

  /** Returns and clears the queued follow-ups. */
  takeFollowUps(): Message[] {
    const taken = this.followUps;
    this.followUps = [];
    return taken;
  }

  /** True when anything is queued. */
  get pending(): boolean {
    return this.steers.length > 0 || this.followUps.length > 0;
  }
}
