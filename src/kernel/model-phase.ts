import { CodecError, ProviderError, isAbortError, toAgentError, type AgentError } from "./errors.js";
import type { AgentEvent } from "./events.js";
import type { DecodedResponse } from "./codecs/types.js";
import { isOverflowError } from "./compaction/is-overflow-error.js";
import { composeModelCall, type ModelResponse } from "./middleware.js";
import { addUsage, type ModelChunk, type ModelStopReason, type Usage } from "./model.js";
import { buildModelRequest, type PreparedView } from "./model-request.js";
import { normalizeAssistant } from "./normalize-assistant.js";
import { defaultRepairPrompt } from "./codecs/repair-prompt.js";
import type { AssistantMessage } from "./messages.js";
import type { RunState } from "./run-state.js";
import type { AbortSignalLike } from "./ports.js";
import { forEachMaybeAsync, isPromiseLike, type MaybeAsync } from "./maybe-async.js";
import { send } from "./event-outlet.js";
import { RunClosedError } from "./pull-events.js";
import { isWholeModelStream } from "./whole-model-stream.js";

/** How the model phase of a turn ended. */
export type ModelPhaseOutcome =
  | { kind: "decoded"; decoded: DecodedResponse; message: AssistantMessage; stopReason?: ModelStopReason }
  | { kind: "aborted" }
  | { kind: "interrupted" }
  | { kind: "error"; error: AgentError };

type CallOutcome =
  | { kind: "message"; message: AssistantMessage; usage: Usage; stopReason?: ModelStopReason }
  | { kind: "aborted" }
  | { kind: "interrupted" }
  | { kind: "error"; error: AgentError };

/**
 * Steps 6 and 7 of a turn: call the model, decode the response, and on malformed output push the raw message
 * plus the codec's repair prompt and call again, up to `maxDecodeRetries`. Delivers the phase's events to
 * `run.out`, pausing where a generator would have yielded them.
 */
export async function modelPhase(
  run: RunState,
  turn: number,
  view: PreparedView | undefined,
): Promise<ModelPhaseOutcome> {
  const { config, ctx, out } = run;
  let currentView = view;
  let overflowRetried = false;
  let paused: MaybeAsync<void>;
  for (let attempt = 0; ; attempt++) {
    const call = await streamOnce(run, turn, currentView);
    if (call.kind === "overflow") {
      // One emergency compaction per model phase, only with the ContextEngine on.
      if (overflowRetried || !run.engine) return { kind: "error", error: call.error };
      overflowRetried = true;
      const prepared = await run.engine.compact("overflow", run.ctx.messages);
      paused = send(out, { type: "context_status", ...prepared.status });
      if (paused) await paused;
      currentView = { from: run.ctx.messages, messages: prepared.messages, edits: prepared.edits };
      attempt--;
      continue;
    }
    if (call.kind !== "message") return call;
    try {
      const decoded = config.codec.decode(call.message);
      const message = normalizeAssistant(call.message, decoded);
      if (config.codec.streaming === "buffer" && decoded.calls.length === 0 && decoded.text !== "") {
        paused = send(out, { type: "text_delta", text: decoded.text });
        if (paused) await paused;
      }
      ctx.messages.push(message);
      const appended = run.log.append({ type: "assistant", message });
      if (appended) await appended;
      paused = send(out, { type: "message", message });
      if (paused) await paused;
      const after = afterModel(run, { ...call, message });
      paused = send(out, ...(isPromiseLike(after) ? await after : after));
      if (paused) await paused;
      return { kind: "decoded", decoded, message, ...stopReasonOf(call) };
    } catch (error) {
      if (error instanceof RunClosedError) throw error;
      if (!(error instanceof CodecError)) return { kind: "error", error: toAgentError(error) };
      ctx.messages.push(call.message);
      await run.log.append({ type: "assistant", message: call.message });
      paused = send(out, { type: "message", message: call.message });
      if (paused) await paused;
      const after = afterModel(run, call);
      paused = send(out, ...(isPromiseLike(after) ? await after : after));
      if (paused) await paused;
      if (attempt >= config.maxDecodeRetries) return { kind: "error", error };
      paused = send(out, { type: "error", error, fatal: false });
      if (paused) await paused;
      const repair =
        config.codec.repairPrompt?.(error, attempt + 1, run.specs) ??
        defaultRepairPrompt(error, attempt + 1, run.specs);
      ctx.messages.push(repair);
      await run.log.append({ type: "user", message: repair });
    }
  }
}

/** Streams one attempt; an overflow before any chunk is reported so the caller may compact and retry. */
async function streamOnce(
  run: RunState,
  turn: number,
  view: PreparedView | undefined,
): Promise<CallOutcome | { kind: "overflow"; error: AgentError }> {
  const { config, ctx, out } = run;
  const model = config.modelName;
  const scope = callScope(run);
  const signal = scope.signal;
  const base = () => config.model.stream(buildModelRequest(run, view), signal);
  const call = composeModelCall(config.use, ctx, base);
  let paused = send(out, { type: "model_call_start", turn, model });
  if (paused) await paused;
  const started = config.ports.now();
  let streamed = false;
  let done: Extract<ModelChunk, { type: "message_done" }> | undefined;
  const take = (chunk: ModelChunk): MaybeAsync<void> => {
    if (chunk.type === "message_done") done = chunk;
    else if (chunk.type === "text_delta") {
      streamed = true;
      if (config.codec.streaming !== "buffer") return send(out, { type: "text_delta", text: chunk.text });
    } else if (chunk.type === "reasoning_delta") {
      streamed = true;
      return send(out, { type: "reasoning_delta", text: chunk.text });
    }
  };
  try {
    const stream = call();
    if (isWholeModelStream(stream)) {
      // A recorded message (a durable model's) comes whole: one await instead of one per chunk.
      for (const chunk of await stream.whole()) {
        if (signal.aborted) break;
        paused = take(chunk);
        if (paused) await paused;
      }
    } else {
      for await (const chunk of stream) {
        if (signal.aborted) break;
        paused = take(chunk);
        if (paused) await paused;
      }
    }
    if (signal.aborted) throw signal.reason ?? new Error("aborted");
    if (!done) throw new ProviderError("model stream ended without a message_done chunk");
  } catch (error) {
    if (error instanceof RunClosedError) throw error;
    scope.release();
    const interrupted = scope.interrupted && !run.signal.aborted;
    const end: AgentEvent = {
      type: "model_call_end",
      turn,
      model,
      durationMs: config.ports.now() - started,
      error: interrupted ? "interrupted" : errorText(error),
    };
    paused = send(out, end);
    if (paused) await paused;
    paused = send(out, ...run.sink.drain());
    if (paused) await paused;
    if (interrupted) return { kind: "interrupted" };
    if (signal.aborted || isAbortError(error)) return { kind: "aborted" };
    const agentError = toAgentError(error);
    if (!streamed && isOverflowError(agentError)) return { kind: "overflow", error: agentError };
    return { kind: "error", error: agentError };
  }
  scope.release();
  run.usage = addUsage(run.usage, done.usage);
  const durationMs = config.ports.now() - started;
  paused = send(out, { type: "model_call_end", turn, model, durationMs, usage: done.usage });
  if (paused) await paused;
  paused = send(out, ...run.sink.drain());
  if (paused) await paused;
  return { kind: "message", message: done.message, usage: done.usage, ...stopReasonOf(done) };
}

/**
 * Runs the `afterModel` hooks (the Go seed's OnModelEnd) once the call's message is in the conversation, in
 * array order; returns what they emitted.
 */
function afterModel(
  run: RunState,
  call: { message: AssistantMessage; usage: Usage; stopReason?: ModelStopReason },
): MaybeAsync<AgentEvent[]> {
  // Most runs have no such hook: they pay no promise for it.
  if (!run.config.use.some((layer) => layer.afterModel)) return [];
  const response: ModelResponse = { message: call.message, usage: call.usage, ...stopReasonOf(call) };
  const hooks = forEachMaybeAsync(run.config.use, (layer) => layer.afterModel?.(run.ctx, response));
  return hooks ? hooks.then(() => run.sink.drain()) : run.sink.drain();
}

/** The stop reason as an optional field: absent when the provider did not say. */
function stopReasonOf(source: { stopReason?: ModelStopReason }): { stopReason?: ModelStopReason } {
  return source.stopReason ? { stopReason: source.stopReason } : {};
}

/**
 * The signal of one model call: aborted with the run, or by an interrupt from the steer source, which cancels
 * only this call so the run can re-plan.
 */
function callScope(run: RunState): { signal: AbortSignalLike; interrupted: boolean; release(): void } {
  if (!run.steer?.onInterrupt) return { signal: run.signal, interrupted: false, release: () => undefined };
  const controller = new AbortController();
  const state = {
    signal: controller.signal as AbortSignalLike,
    interrupted: false,
    release: () => undefined as void,
  };
  const onRunAbort = () => controller.abort(run.signal.reason);
  run.signal.addEventListener("abort", onRunAbort, { once: true });
  const unsubscribe = run.steer.onInterrupt(() => {
    state.interrupted = true;
    controller.abort("interrupted");
  });
  state.release = () => {
    unsubscribe();
    run.signal.removeEventListener("abort", onRunAbort);
  };
  if (run.signal.aborted) controller.abort(run.signal.reason);
  return state;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
