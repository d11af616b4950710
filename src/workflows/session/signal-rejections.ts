import type { AgentEvent } from "../../kernel/vocabulary/events.js";
import { MAX_REJECTION_CHARS, clip } from "./status-bounds.js";

/** How many rejected inputs the status lists. */
const KEPT_REJECTIONS = 10;

/**
 * The inputs the session ignored (malformed or undecodable signals, refused decisions), newest last: listed in the
 * status and published to the stream as a warning, so whoever sent one can see why nothing happened.
 */
export class SignalRejections {
  private readonly lines: string[] = [];

  /** @param publish publishes the warning to the stream, under the run going on (or none). */
  constructor(private readonly publish: (event: AgentEvent) => void) {}

  /** The listed rejections, newest last. */
  get list(): readonly string[] {
    return this.lines;
  }

  reject(message: string, code = "invalid_signal"): void {
    message = clip(message, MAX_REJECTION_CHARS);
    this.lines.push(message);
    if (this.lines.length > KEPT_REJECTIONS) this.lines.shift();
    this.publish({ type: "diagnostic", level: "warning", code, message });
  }
}
