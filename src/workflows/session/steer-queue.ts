import { SteerController } from "../../kernel/vocabulary/steer-controller.js";
import type { Message } from "../../kernel/vocabulary/messages.js";
import type { InterruptRequest, SteerRequest } from "../../contract/requests.js";

/** How many delivered ids a session remembers for dedupe (signals are delivered at least once). */
const REMEMBERED_IDS = 1_000;

/**
 * The session's SteerController: steers and follow-ups arrive by signal or update, carry an id and are
 * deduplicated by it; what is queued and the ids seen are carried across continue-as-new.
 */
export class SteerQueue extends SteerController {
  private readonly seen: string[];
  private readonly seenSet: Set<string>;

  constructor(seenIds: string[] = []) {
    super();
    this.seen = [...seenIds];
    this.seenSet = new Set(seenIds);
  }

  /** Queues a message; returns false when its id was delivered before. */
  add(kind: "steer" | "followUp", request: SteerRequest): boolean {
    if (this.seenSet.has(request.id)) return false;
    this.remember(request.id);
    if (kind === "steer") this.steer(request.content);
    else this.followUp(request.content);
    return true;
  }

  /** Interrupts the in-flight model call, steering the request's message in first; false when none was in flight. */
  interruptWith(request: InterruptRequest): boolean {
    if (typeof request.content === "string" && request.content.trim() !== "") {
      this.add("steer", { id: request.id ?? `interrupt-${this.seen.length}`, content: request.content });
    }
    return this.interrupt();
  }

  /** The ids to carry across continue-as-new. */
  seenIds(): string[] {
    return [...this.seen];
  }

  /** Messages still queued (carried across continue-as-new). */
  queued(): { steers: Message[]; followUps: Message[] } {
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
