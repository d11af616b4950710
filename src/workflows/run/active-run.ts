import { CancellationScope } from "@temporalio/workflow";
import type { AgentError } from "../../kernel/vocabulary/errors.js";
import type { RunResult } from "../../kernel/vocabulary/events.js";
import type { Message } from "../../kernel/vocabulary/messages.js";
import type { AgentContext } from "../../kernel/middleware/middleware.js";
import type { Usage } from "../../kernel/vocabulary/model.js";
import type { ToolContext } from "../../kernel/vocabulary/tools.js";

/**
 * The run being executed, and the one way to stop it: `cancel` aborts the kernel's signal (the loop and its
 * middleware see it) and cancels the run's Temporal scope (its activities, timers and child workflows) together.
 */
export class ActiveRun {
  readonly controller = new AbortController();
  readonly scope = new CancellationScope();
  /** Set when the run must end with a fatal error (an approval timeout with the `fail` policy). */
  fatal?: AgentError;
  /** The run's kernel context (set before each model call): the conversation at a turn's end is its `messages`. */
  context?: AgentContext;
  /** The run's conversation as the kernel holds it (set before each model call), for the transcript query. */
  live?: Message[];
  /**
   * Where the run's own messages begin in its conversation: the session's length when it started, or the length
   * of the compacted form after its last compaction (the `done` event carries the messages from here on).
   */
  addedFrom?: number;
  /** The `ctx.fork` of each tool call running in an activity, by call id: `startFork` starts its forks. */
  readonly toolForks = new Map<string, NonNullable<ToolContext["fork"]>>();
  /** The forks tools started, by `<call id>/<fork id>`: asking again (a retried activity) gets the same fork. */
  readonly forks = new Map<string, Promise<RunResult>>();

  constructor(
    readonly runId: string,
    /** The stream offset at which the run was queued: its events come at or after it. */
    readonly offset: number,
    public turn: number,
    /** Tokens used so far by the run in progress. */
    public usage: Usage,
  ) {}

  /** Stops the run: the kernel's signal and the Temporal scope, with the reason the kernel reports. */
  cancel(reason: string): void {
    this.controller.abort(reason);
    this.scope.cancel();
  }

  /** Ends the run with a fatal error (the session then reports it as the run's failure). */
  fail(error: AgentError): void {
    this.fatal = error;
    this.cancel(error.message);
  }
}
