import { z } from "zod";
import { errorMessage } from "../vocabulary/errors.js";
import { addUsage } from "../vocabulary/model.js";
import type { ToolCallContext } from "../middleware/middleware.js";
import type { RunState } from "../loop/run-state.js";
import type { AnyTool, ToolCall, ToolContext, ToolOutput, ToolResult } from "../vocabulary/tools.js";
import type { MaybeAsync } from "../coroutine/maybe-async.js";
import { continueWith } from "../coroutine/later.js";
import { noopSandbox } from "../vocabulary/noop-sandbox.js";

/**
 * The innermost layer of a tool call: unknown tools and invalid arguments become error results for the model
 * (the run never throws for them); otherwise the tool runs with its validated input. Its result goes to `next`:
 * at once for a synchronous tool, else in the tool's one `then` (docs/decisions/0014).
 */
export function executeBaseTool<R>(
  run: RunState,
  tctx: ToolCallContext,
  next: (result: ToolResult) => MaybeAsync<R>,
): MaybeAsync<R> {
  const { call } = tctx;
  const tool = run.toolsByName.get(call.name);
  if (!tool) return next(errorResult(call, `Error: unknown tool '${call.name}'`));
  return invokeToolThen(tool, call, toolContext(run, tctx), next);
}

/**
 * Validates a call's input against the tool's zod schema and runs it. Invalid input and anything the tool
 * throws become error results. Shared by the kernel and the durable `executeTool` activity.
 */
export function invokeTool(tool: AnyTool, call: ToolCall, ctx: ToolContext): Promise<ToolResult> {
  return Promise.resolve(invokeToolThen(tool, call, ctx, (result) => result));
}

/**
 * {@link invokeTool}, handing the result to `next`, whose own errors are not the tool's: a synchronous tool costs
 * no promise, an asynchronous one the one `then` on its promise, and a durable one (a `Later`) none of its own.
 */
function invokeToolThen<R>(
  tool: AnyTool,
  call: ToolCall,
  ctx: ToolContext,
  next: (result: ToolResult) => MaybeAsync<R>,
): MaybeAsync<R> {
  let parsed: ReturnType<AnyTool["schema"]["safeParse"]>;
  try {
    // A schema's own refinement may throw.
    parsed = tool.schema.safeParse(call.input);
  } catch (error) {
    return next(failedResult(call, error));
  }
  if (!parsed.success) {
    const content = `Error: invalid arguments for tool '${call.name}': ${z.prettifyError(parsed.error)}`;
    return next(errorResult(call, content));
  }
  let output: MaybeAsync<ToolOutput>;
  try {
    output = tool.execute(parsed.data, ctx);
  } catch (error) {
    return next(failedResult(call, error));
  }
  return continueWith(
    output,
    (value) => next(toolResult(call, value)),
    (error: unknown) => next(failedResult(call, error)),
  );
}

/** What the model reads of a tool's output; an output that is not one (a tool that returned nothing) is an error. */
function toolResult(call: ToolCall, output: ToolOutput): ToolResult {
  if (typeof output === "string") return { id: call.id, name: call.name, content: output };
  if (typeof output?.content !== "string") {
    return failedResult(
      call,
      new TypeError(`tool '${call.name}' returned neither a string nor { content: string }`),
    );
  }
  return output.isError
    ? { id: call.id, name: call.name, content: output.content, isError: true }
    : { id: call.id, name: call.name, content: output.content };
}

/** The error result of a call that threw `error`, as the model reads it. */
export function failedResult(call: ToolCall, error: unknown): ToolResult {
  return errorResult(call, `Error: ${errorMessage(error)}`);
}

/** An error result for the model: what went wrong with the call. */
export function errorResult(call: ToolCall, content: string): ToolResult {
  return { id: call.id, name: call.name, content, isError: true };
}

/** The seed's default sandbox, shared by every call made without one. */
const NO_SANDBOX = noopSandbox();

/** What the tool sees of the run. */
function toolContext(run: RunState, tctx: ToolCallContext): ToolContext {
  const { config } = run;
  const ctx: ToolContext = {
    sessionId: run.sessionId,
    signal: run.signal,
    emit: tctx.emit,
    call: tctx.call,
    turn: tctx.turn,
    sandbox: config.sandbox ?? NO_SANDBOX,
  };
  if (config.approval) ctx.approval = config.approval;
  if (config.input) ctx.input = config.input;
  if (run.fork) ctx.fork = run.fork;
  ctx.addUsage = (usage) => void (run.usage = addUsage(run.usage, usage));
  if (run.background) ctx.background = run.background.tasks;
  if (tctx.recordSessionEvent) ctx.recordSessionEvent = tctx.recordSessionEvent;
  if (run.log.persistent)
    ctx.recordSnapshot = (path, before, truncated, encoding) =>
      recordSnapshot(run, tctx.turn, { path, before, truncated, encoding });
  return ctx;
}

interface Snapshot {
  path: string;
  before: string | null;
  truncated: boolean | undefined;
  encoding: "utf8" | "base64" | undefined;
}

/** Persists a file's content before a tool changes it, within the session's snapshot quota. */
function recordSnapshot(run: RunState, turn: number, snapshot: Snapshot): void {
  const quota = run.config.maxSnapshotBytesPerSession;
  const size = snapshot.before?.length ?? 0;
  const overQuota = quota !== undefined && run.snapshotBytes + size > quota;
  if (!overQuota) run.snapshotBytes += size;
  const event = {
    type: "file_snapshot" as const,
    path: snapshot.path,
    before: overQuota ? null : snapshot.before,
    turn,
    ...(overQuota || snapshot.truncated ? { truncated: true } : {}),
    ...(snapshot.encoding && !overQuota ? { encoding: snapshot.encoding } : {}),
  };
  // A failed append surfaces on the next awaited append of this run.
  void run.log.append(event)?.catch(() => undefined);
}
