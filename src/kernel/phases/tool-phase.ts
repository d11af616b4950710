import type { AgentEvent } from "../vocabulary/events.js";
import { composeToolCall, type ToolCallContext, type ToolHookAction } from "../middleware/middleware.js";
import { toolResultBlock, type Message } from "../vocabulary/messages.js";
import type { RunState } from "../loop/run-state.js";
import { errorResult, executeBaseTool, failedResult } from "./tool-exec.js";
import { andThen, attempt, isPromiseLike, type MaybeAsync } from "../coroutine/maybe-async.js";
import type { ToolCall, ToolResult } from "../vocabulary/tools.js";

/** How the tool phase ended: the results in call order, and whether a hook aborted the run. */
export interface ToolPhaseOutcome {
  results: ToolResult[];
  aborted: boolean;
}

/** The `tool_use` announcements of a turn's calls, in call order (yielded before any call runs). */
export function announceToolCalls(calls: ToolCall[]): AgentEvent[] {
  return calls.map((call) => ({ type: "tool_use", call }));
}

/**
 * Step 9: runs the calls at most `maxParallelTools` at a time, events live in completion order; settles once all have,
 * after feeding the results back in call order as one user message. Calls already in `finished` (a resumed phase) are
 * skipped; new results are added as they settle. A phase that throws leaves ending live delivery to the loop.
 */
export function runToolCalls(
  run: RunState,
  turn: number,
  calls: ToolCall[],
  finished: Map<string, ToolResult>,
): MaybeAsync<ToolPhaseOutcome> {
  run.sink.beginLive(run.out);
  const settle = <R>(call: ToolCall, next: (result: ToolResult) => MaybeAsync<R>): MaybeAsync<R> => {
    const known = finished.get(call.id);
    if (known) return next(known);
    return runOneCall(run, turn, call, (result) => (finished.set(call.id, result), next(result)));
  };
  // A single call, as most turns make, goes without `Promise.all` (two promises, each a stack trace on Temporal):
  // the phase ends in the tool's own `then`.
  if (calls.length === 1) return settle(calls[0]!, (result) => endToolPhase(run, [result]));
  return runLimited(calls, run.config.maxParallelTools, (call) => {
    try {
      return Promise.resolve(settle(call, (result) => result));
    } catch (error) {
      return Promise.reject(error);
    }
  }).then((results) => endToolPhase(run, results));
}

/** Ends live delivery and feeds the results back to the model in call order, as one user message. */
function endToolPhase(run: RunState, results: ToolResult[]): ToolPhaseOutcome {
  run.sink.endLive();
  const message: Message = {
    role: "user",
    content: results.map((result) => toolResultBlock(result.id, result.content, result.isError)),
  };
  run.ctx.messages.push(message);
  return { results, aborted: run.abortedByHook !== undefined };
}

/** Runs `job` on every item, at most `limit` at a time, starting them in order; resolves with results in order. */
function runLimited<Item, Result>(
  items: readonly Item[],
  limit: number,
  job: (item: Item) => Promise<Result>,
): Promise<Result[]> {
  // All at once when they fit, as most turns' calls do: no queue and its promises.
  if (items.length <= limit) return Promise.all(items.map(job));
  const results = new Array<Result>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await job(items[index]!);
    }
  };
  return Promise.all(Array.from({ length: limit }, worker)).then(() => results);
}

/**
 * One call: start event, hooks, middleware chain around the tool, persistence, end events; the result goes to `next`.
 * Deliberately not async: each step hands its successor on as `next`, so a call with synchronous hooks and no
 * `wrapToolCall` costs only the tool's own `then` (the workflow SDK traces every promise; docs/decisions/0014).
 */
function runOneCall<R>(
  run: RunState,
  turn: number,
  call: ToolCall,
  next: (result: ToolResult) => MaybeAsync<R>,
): MaybeAsync<R> {
  const recorded =
    run.config.crashRecovery === "safe"
      ? run.log.append({ type: "tool_started", id: call.id, name: call.name, turn })
      : undefined;
  return andThen(recorded, () => startCall(run, turn, call, next));
}

/** Announces the call, resolves its result, records it and announces its end. */
function startCall<R>(
  run: RunState,
  turn: number,
  call: ToolCall,
  next: (result: ToolResult) => MaybeAsync<R>,
): MaybeAsync<R> {
  run.sink.emit({ type: "tool_call_start", call, turn });
  const started = run.config.ports.now();
  const tctx: ToolCallContext = Object.assign(Object.create(run.ctx) as ToolCallContext, { call, turn });
  return resolveResult(run, tctx, (result) => andThen(endCall(run, turn, call, result, started), next));
}

/** Persists the result, then emits the call's end and its result. */
function endCall(
  run: RunState,
  turn: number,
  call: ToolCall,
  result: ToolResult,
  started: number,
): MaybeAsync<ToolResult> {
  const { sink, log, config } = run;
  const block = toolResultBlock(result.id, result.content, result.isError);
  const announce = (): ToolResult => {
    const durationMs = config.ports.now() - started;
    const isError = result.isError === true;
    sink.emit({ type: "tool_call_end", id: call.id, name: call.name, turn, durationMs, isError });
    sink.emit({ type: "tool_result", result });
    return result;
  };
  const appended = log.append({ type: "tool_result", result: block, turn });
  return appended ? appended.then(announce) : announce();
}

/**
 * Applies `beforeToolCall` hooks, then the `wrapToolCall` onion, then `afterToolCall` hooks (which see errors too);
 * anything thrown becomes an error result, which goes to `next` (whose own errors are not the call's).
 */
function resolveResult<R>(
  run: RunState,
  tctx: ToolCallContext,
  next: (result: ToolResult) => MaybeAsync<R>,
): MaybeAsync<R> {
  const { call } = tctx;
  if (run.abortedByHook !== undefined) return next(errorResult(call, `not executed: ${call.name}`));
  return attempt(
    () => runToolHooks(run, tctx),
    (action) => applyToolAction(run, tctx, action, next),
    (error) => andThen(failedCall(run, tctx, error), next),
  );
}

/**
 * Aborts the run, skips the call or runs it through the `wrapToolCall` onion, as the tool-start hooks decided; the
 * `afterToolCall` hooks see every result but an abort's.
 */
function applyToolAction<R>(
  run: RunState,
  tctx: ToolCallContext,
  action: ToolHookAction,
  next: (result: ToolResult) => MaybeAsync<R>,
): MaybeAsync<R> {
  const { call } = tctx;
  if (action.action === "abort") {
    run.abortedByHook = action.reason ?? `aborted by tool-start hook: ${call.name}`;
    return next(errorResult(call, `not executed: ${call.name}`));
  }
  if (action.action === "skip") return andThen(afterToolCall(run, tctx, skippedResult(call, action)), next);
  const use = run.config.use;
  // Without a `wrapToolCall` layer the tool's result goes straight on, in the tool's own `then`.
  if (!use.some((layer) => layer.wrapToolCall)) {
    return executeBaseTool(run, tctx, (result) => andThen(afterToolCall(run, tctx, result), next));
  }
  return attempt(
    composeToolCall(use, tctx, () => Promise.resolve(executeBaseTool(run, tctx, (result) => result))),
    (result) => andThen(afterToolCall(run, tctx, result), next),
    (error) => andThen(failedCall(run, tctx, error), next),
  );
}

/** What a call that threw becomes: an error result, which the `afterToolCall` hooks see. */
function failedCall(run: RunState, tctx: ToolCallContext, error: unknown): MaybeAsync<ToolResult> {
  return afterToolCall(run, tctx, failedResult(tctx.call, error));
}

function skippedResult(call: ToolCall, action: Extract<ToolHookAction, { action: "skip" }>): ToolResult {
  const content = action.result ?? `skipped by tool-start hook: ${call.name}`;
  return action.isError ? errorResult(call, content) : { id: call.id, name: call.name, content };
}

/**
 * The `afterToolCall` hooks in array order (the Go seed's OnToolEnd): each may replace the result. Synchronous
 * (no promise) while the hooks are.
 */
function afterToolCall(
  run: RunState,
  tctx: ToolCallContext,
  result: ToolResult,
  from = 0,
): MaybeAsync<ToolResult> {
  let current = result;
  const use = run.config.use;
  try {
    for (let index = from; index < use.length; index++) {
      const replaced = use[index]!.afterToolCall?.(tctx, current);
      if (isPromiseLike(replaced)) {
        return replaced.then(
          (value) => afterToolCall(run, tctx, withCallId(value, current, result), index + 1),
          (error: unknown) => failedResult(tctx.call, error),
        );
      }
      current = withCallId(replaced, current, result);
    }
    return current;
  } catch (error) {
    return failedResult(tctx.call, error);
  }
}

/**
 * A hook's replacement (or the current result when it kept it): the call's id stays the call's, since a hook may
 * change what the model reads, not which call it answers.
 */
function withCallId(replaced: ToolResult | void, current: ToolResult, original: ToolResult): ToolResult {
  return replaced ? { ...replaced, id: original.id, name: original.name } : current;
}

const PROCEED: ToolHookAction = { action: "proceed" };

/** The first hook that does not proceed decides; synchronous (no promise) while the hooks are. */
function runToolHooks(run: RunState, tctx: ToolCallContext, from = 0): MaybeAsync<ToolHookAction> {
  const use = run.config.use;
  for (let index = from; index < use.length; index++) {
    const action = use[index]!.beforeToolCall?.(tctx);
    if (isPromiseLike(action)) {
      return action.then((value) =>
        value && value.action !== "proceed" ? value : runToolHooks(run, tctx, index + 1),
      );
    }
    if (action && action.action !== "proceed") return action;
  }
  return PROCEED;
}
