import { Channel } from "./channel.js";
import type { AgentEvent } from "./events.js";

/**
 * Where `ctx.emit` goes. Outside the tool phase events are queued and drained at loop boundaries, so `emit`
 * never pauses the loop; during the tool phase they go to a live channel and stream in completion order.
 */
export class EventSink {
  private queued: AgentEvent[] = [];
  private live: Channel<AgentEvent> | undefined;

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

  /** Routes events to a live channel until `endLive`. */
  beginLive(): Channel<AgentEvent> {
    this.live = new Channel<AgentEvent>();
    return this.live;
  }

  /** Closes the live channel; later events queue again. */
  endLive(): void {
    this.live?.close();
    this.live = undefined;
  }
}
