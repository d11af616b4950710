import { isGrpcDeadlineError, type Client } from "@temporalio/client";
import { withCallAbortSignal } from "../../runtime/call-abort-signal.js";

/** How long one wait may last; the server answers a long poll with nothing new after about 20 s. */
const WAIT_DEADLINE_MS = 30_000;
/** After a wait failed (a server that refuses history reads, a blip), the reader only asks for this long. */
const RETRY_AFTER_FAILURE_MS = 60_000;
/**
 * Events per page while a wait reads up to the end of an execution's history: the server's cap (it cuts a larger
 * page to this, and logs a warning for every such request).
 */
const PAGE_SIZE = 256;

/**
 * Waits for a session's history to grow by the server's long poll (`waitNewEvent`), so a reader of a quiet session
 * costs its worker nothing, unlike `readStream` queries (docs/decisions/0014). Keeps its place between waits; a first
 * wait on an execution returns once per history page up to the end. Decodes nothing (no payload codec runs).
 */
export class HistoryWait {
  private token: Uint8Array | undefined;
  private failedAt: number | undefined;

  constructor(
    private readonly temporal: Client,
    private readonly sessionId: string,
  ) {}

  /** False for a while after a wait failed: the reader then asks at its usual pace. */
  get usable(): boolean {
    return this.failedAt === undefined || Date.now() - this.failedAt > RETRY_AFTER_FAILURE_MS;
  }

  /**
   * Resolves once the history may have grown: it did, the server's poll ended with nothing new, the execution
   * ended (the next wait starts on the newest execution), the wait failed (see `usable`), or `signal` aborted.
   */
  async next(signal: AbortSignal): Promise<void> {
    const connection = this.temporal.connection;
    try {
      const page = await withCallAbortSignal(connection, signal, () =>
        connection.withDeadline(Date.now() + WAIT_DEADLINE_MS, () =>
          this.temporal.workflowService.getWorkflowExecutionHistory({
            namespace: this.temporal.options.namespace,
            execution: { workflowId: this.sessionId },
            nextPageToken: this.token,
            maximumPageSize: PAGE_SIZE,
            waitNewEvent: true,
            skipArchival: true,
          }),
        ),
      );
      // No token: the execution has ended (closed, or continued as new).
      this.token = page.nextPageToken && page.nextPageToken.length > 0 ? page.nextPageToken : undefined;
    } catch (error) {
      if (signal.aborted || isGrpcDeadlineError(error)) return;
      this.failedAt = Date.now();
      this.token = undefined;
    }
  }
}
