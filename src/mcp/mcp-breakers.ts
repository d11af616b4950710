import type { McpServerConfig } from "../plan/mcp-servers.js";
import type { McpServerUnavailable } from "../contract/mcp-server-unavailable.js";
import { describeMcpUnavailable } from "../plan/mcp-messages.js";
import { errorMessage } from "../kernel/vocabulary/errors.js";
import { stableStringify } from "../kernel/hash/stable-stringify.js";
import type { AbortSignalLike } from "../kernel/vocabulary/ports.js";
import {
  CircuitBreaker,
  DEFAULT_BREAKER_BACKOFF,
  type BreakerBackoff,
  type BreakerState,
} from "./mcp-breaker.js";

/** Where breaker changes are reported (the worker passes its Temporal runtime logger). */
export type McpBreakerLog = (level: "warn" | "info", message: string, meta: Record<string, unknown>) => void;

/** Options of the breakers: their windows, the clock (tests inject one) and the log. */
export interface McpBreakerOptions extends Partial<BreakerBackoff> {
  now?: () => number;
  log?: McpBreakerLog;
}

type Refusal = Extract<BreakerState, { state: "open" | "half_open" }>;

/** A server's breaker refused the attempt (or the attempt it shared failed): the server is unavailable for now. */
export class McpServerUnavailableError extends Error {
  constructor(
    readonly server: string,
    readonly refusal: Refusal,
  ) {
    super(`MCP server '${server}' is ${describeMcpUnavailable({ ...refusal, breaker: refusal.state })}`);
    this.name = "McpServerUnavailableError";
  }

  /** As the activity records it. */
  unavailable(): McpServerUnavailable {
    const { state, retryAt, lastError, failures } = this.refusal;
    return { server: this.server, breaker: state, retryAt, lastError, failures };
  }
}

interface Entry {
  breaker: CircuitBreaker;
  /** The listing attempt under way, shared by every listing that comes meanwhile. */
  listing?: Promise<unknown>;
}

/**
 * The worker's circuit breakers, one per MCP server entry (keyed by its whole configuration). A listing goes through
 * `listing`: refused at once while the breaker is open, and shared while one is under way, so concurrent runs wait
 * for one attempt (one timeout) rather than each for its own. Calls ask `admit` and report connection outcomes.
 */
export class McpBreakers {
  private readonly entries = new Map<string, Entry>();
  private readonly backoff: BreakerBackoff;
  private readonly now: () => number;
  private readonly log: McpBreakerLog;

  constructor(options: McpBreakerOptions = {}) {
    this.backoff = {
      backoffMs: options.backoffMs ?? DEFAULT_BREAKER_BACKOFF.backoffMs,
      maxBackoffMs: options.maxBackoffMs ?? DEFAULT_BREAKER_BACKOFF.maxBackoffMs,
    };
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => undefined);
  }

  /** The state of a server's breaker. */
  state(config: McpServerConfig): BreakerState {
    return this.entry(config).breaker.state();
  }

  /** Runs `attempt` through the breaker, or joins the one under way; throws `McpServerUnavailableError` when refused. */
  async listing<T>(
    server: string,
    config: McpServerConfig,
    signal: AbortSignalLike,
    attempt: () => Promise<T>,
  ): Promise<T> {
    const entry = this.entry(config);
    if (!entry.listing) {
      this.admit(server, config);
      const shared = this.settle(server, config, attempt());
      entry.listing = shared;
      void shared
        .catch(() => undefined)
        .finally(() => {
          if (entry.listing === shared) delete entry.listing;
        });
    }
    return untilAborted(entry.listing as Promise<T>, signal);
  }

  /** Throws `McpServerUnavailableError` unless the breaker lets an attempt through now. */
  admit(server: string, config: McpServerConfig): void {
    const verdict = this.entry(config).breaker.admit();
    if (!verdict.pass) throw new McpServerUnavailableError(server, verdict.state as Refusal);
    if (verdict.probe)
      this.log("info", `MCP server '${server}': breaker half-open, trying again`, { server });
  }

  /** An attempt reached the server (closes an open breaker). */
  succeeded(server: string, config: McpServerConfig): void {
    const { breaker } = this.entry(config);
    if (breaker.state().state === "closed") return;
    breaker.succeed();
    this.log("info", `MCP server '${server}': breaker closed, the server answers again`, { server });
  }

  /** An attempt failed to reach the server: opens the breaker; the error says until when. */
  failed(server: string, config: McpServerConfig, error: unknown): McpServerUnavailableError {
    const state = this.entry(config).breaker.fail(errorMessage(error)) as Refusal;
    const refused = new McpServerUnavailableError(server, state);
    this.log("warn", refused.message, { server, retryAt: state.retryAt, failures: state.failures });
    return refused;
  }

  private async settle<T>(server: string, config: McpServerConfig, attempt: Promise<T>): Promise<T> {
    try {
      const result = await attempt;
      this.succeeded(server, config);
      return result;
    } catch (error) {
      throw this.failed(server, config, error);
    }
  }

  private entry(config: McpServerConfig): Entry {
    const key = stableStringify(config);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { breaker: new CircuitBreaker(this.backoff, this.now) };
      this.entries.set(key, entry);
    }
    return entry;
  }
}

/** The promise, or the signal's abort if that comes first (the shared attempt goes on for the others). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignalLike): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason ?? new Error("aborted"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
