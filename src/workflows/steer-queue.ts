import type { SteerSource } from "../kernel/kernel-config.js";
import type { Message } from "../kernel/messages.js";
import type { SteerRequest } from "./messages.js";

/** How many delivered ids a session remembers for dedupe (signals are delivered at least once). */
const REMEMBERED_IDS = 1_000;

/**
 * Steers and follow-ups received by signal or update, deduplicated by id, taken by the kernel at the next turn
 * start (steers) or when the model would stop (follow-ups).
 */
export class SteerQueue implements SteerSource {
  private steers: Message[] = [];
  private followUps: Message[] = [];
  private readonly seen: string[];
  private readonly seenSet: Set<string>;
  private readonly interruptListeners = new Set<() => void>();

  constructor(seenIds: string[] = []) {
    this.seen = [...seenIds];
    this.seenSet = new Set(seenIds);
  }

  /** Queues a message; returns false when its id was delivered before. */
  add(kind: "steer" | "followUp", request: SteerRequest): boolean {
    if (this.seenSet.has(request.id)) return false;
    this.remember(request.id);
    const message: Message = typeof request.content === "string" ? { role: "user", content: request.content } : request.content;
    (kind === "steer" ? this.steers : this.followUps).push(message);
    return true;
  }

  /** Cancels the in-flight model call, if any; returns whether one was in flight. */
  interrupt(): boolean {
    for (const listener of this.interruptListeners) listener();
    return this.interruptListeners.size > 0;
  }

  onInterrupt(listener: () => void): () => void {
    this.interruptListeners.add(listener);
    return () => this.interruptListeners.delete(listener);
  }

  takeSteers(): Message[] {
    const taken = this.steers;
    this.steers = [];
    return taken;
  }

  takeFollowUps(): Message[] {
    const taken = this.followUps;
    this.followUps = [];
    return taken;
  }

  /** The ids to carry across continue-as-new. */
  seenIds(): string[] {
    return [...this.seen];
  }

  /** Messages still queued (carried across continue-as-new). */
  pending(): { steers: Message[]; followUps: Message[] } {
    return { steers: [...this.steers], followUps: [...this.followUps] };
  }

  /** Restores queued messages after continue-as-new. */
  restore(pending: { steers: Message[]; followUps: Message[] }): void {
    this.steers.push(...pending.steers);
    this.followUps.push(...pending.followUps);
  }

  private remember(id: string): void {
    this.seen.push(id);
    this.seenSet.add(id);
    if (this.seen.length > REMEMBERED_IDS) this.seenSet.delete(this.seen.shift()!);
  }
}
