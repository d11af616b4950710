import type { EventOutlet } from "./event-outlet.js";
import type { AgentEvent } from "../vocabulary/events.js";

/**
 * Where `ctx.emit` goes. Outside the tool phase events are queued and drained at loop boundaries, so `emit`
 * never pauses the loop; during the tool phase they go to the consumer live and stream in completion order.
 */
export class EventSink {
  private queued: AgentEvent[] = [];
  private live: EventOutlet | undefined;

  /** Accepts an event from middleware, tools or the kernel. */
  readonly emit = (event: AgentEvent): void => {
    if (this.live) this.live.push(event);
    else this.queued.push(event);
  };

  /** Returns and clears the queued events. */
  drain(): AgentEvent[] {
    const events = this.queued;
    this.queued = [];
    return events;
  }

  /** Delivers events to `outlet` as they come, until `endLive`. */
  beginLive(outlet: EventOutlet): void {
    this.live = outlet;
  }

  /** Ends live delivery; later events queue again. */
  endLive(): void {
    this.live = undefined;
  }
}
