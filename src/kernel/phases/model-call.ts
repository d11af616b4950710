import { ProviderError, isAbortError, toAgentError, type AgentError } from "../vocabulary/errors.js";
import type { AgentEvent } from "../vocabulary/events.js";
import { isOverflowError } from "../compaction/is-overflow-error.js";
import { composeModelCall } from "../middleware/middleware.js";
import { addUsage, type ModelChunk, type ModelStopReason, type Usage } from "../vocabulary/model.js";
import { buildModelRequest, type PreparedView } from "./model-request.js";
import type { AssistantMessage } from "../vocabulary/messages.js";
import type { RunState } from "../loop/run-state.js";
import type { AbortSignalLike } from "../vocabulary/ports.js";
import { andThen, attempt, forEachMaybeAsync, type MaybeAsync } from "../coroutine/maybe-async.js";
import { send } from "../coroutine/event-outlet.js";
import { RunClosedError } from "../coroutine/pull-events.js";
import { isWholeModelStream } from "./whole-model-stream.js";

/** How one model call ended; an overflow before any chunk is its own outcome, so the phase may compact and retry. */
export type ModelCallOutcome =
  | { kind: "message"; message: AssistantMessage; usage: Usage; stopReason?: ModelStopReason }
  | { kind: "aborted" }
  | { kind: "interrupted" }
  | { kind: "error"; error: AgentError }
  | { kind: "overflow"; error: AgentError };

type MessageDone = Extract<ModelChunk, { type: "message_done" }>;

/**
 * Calls the model once, delivers the call's events to `run.out`, and hands how it ended to `next`. Synchronous where
 * nothing pauses, so a durable model's recorded message costs one `then` (docs/decisions/0014).
 */
export function callModelOnce<R>(
  run: RunState,
  turn: number,
  view: PreparedView | undefined,
  next: (outcome: ModelCallOutcome) => MaybeAsync<R>,
): MaybeAsync<R> {
  // The scope listens for an interrupt from before the call is announced (the announcement may pause).
  const call = new ModelCall(run, turn, view);
  return andThen(send(run.out, { type: "model_call_start", turn, model: run.config.modelName }), () =>
    call.start(next),
  );
}

/** One model call: its interrupt scope, when it started, what it streamed, and how it ends. */
class ModelCall {
  private readonly scope: CallScope;
  private started = 0;
  private streamed = false;
  private done: MessageDone | undefined;

  constructor(
    private readonly run: RunState,
    private readonly turn: number,
    private readonly view: PreparedView | undefined,
  ) {
    this.scope = callScope(run);
  }

  /** Streams the response; what it took or how it failed goes to `next`, whose own errors are not the call's. */
  start<R>(next: (outcome: ModelCallOutcome) => MaybeAsync<R>): MaybeAsync<R> {
    const { config, ctx } = this.run;
    this.started = config.ports.now();
    let stream: AsyncIterable<ModelChunk>;
    // Callbacks are inline arrows and methods: no named closure a call (cheaper, and tsx names each one it makes).
    try {
      stream = composeModelCall(config.use, ctx, () =>
        config.model.stream(buildModelRequest(this.run, this.view), this.scope.signal),
      )();
      // A recorded message (a durable model's) comes whole: one `then` from the call to `next`'s result.
      if (isWholeModelStream(stream)) {
        return stream.settle(
          (chunks) =>
            attempt(
              () => this.takeWhole(chunks),
              () => this.succeeded(next),
              (error) => this.failed(error, next),
            ),
          (error) => this.failed(error, next),
        );
      }
    } catch (error) {
      return this.failed(error, next);
    }
    return attempt(
      () => this.takeEach(stream),
      () => this.succeeded(next),
      (error) => this.failed(error, next),
    );
  }

  private takeWhole(chunks: ModelChunk[]): MaybeAsync<void> {
    const taken = forEachMaybeAsync(chunks, (chunk) =>
      this.scope.signal.aborted ? undefined : this.take(chunk),
    );
    return andThen(taken, () => this.checkEnded());
  }

  private async takeEach(stream: AsyncIterable<ModelChunk>): Promise<void> {
    for await (const chunk of stream) {
      if (this.scope.signal.aborted) break;
      const paused = this.take(chunk);
      if (paused) await paused;
    }
    this.checkEnded();
  }

  private take(chunk: ModelChunk): MaybeAsync<void> {
    const { config, out } = this.run;
    if (chunk.type === "message_done") this.done = chunk;
    else if (chunk.type === "text_delta") {
      this.streamed = true;
      if (config.codec.streaming !== "buffer") return send(out, { type: "text_delta", text: chunk.text });
    } else if (chunk.type === "reasoning_delta") {
      this.streamed = true;
      return send(out, { type: "reasoning_delta", text: chunk.text });
    }
  }

  /** Throws when the stream was cut off: by an abort, or before its `message_done` chunk. */
  private checkEnded(): void {
    const { signal } = this.scope;
    if (signal.aborted) throw signal.reason ?? new Error("aborted");
    if (!this.done) throw new ProviderError("model stream ended without a message_done chunk");
  }

  private succeeded<R>(next: (outcome: ModelCallOutcome) => MaybeAsync<R>): MaybeAsync<R> {
    const done = this.done!;
    this.scope.release();
    this.run.usage = addUsage(this.run.usage, done.usage);
    const end: AgentEvent = { ...this.endEvent(), usage: done.usage };
    const outcome: ModelCallOutcome = {
      kind: "message",
      message: done.message,
      usage: done.usage,
      ...(done.stopReason ? { stopReason: done.stopReason } : {}),
    };
    return andThen(this.announceEnd(end), () => next(outcome));
  }

  private failed<R>(error: unknown, next: (outcome: ModelCallOutcome) => MaybeAsync<R>): MaybeAsync<R> {
    if (error instanceof RunClosedError) throw error;
    const { scope, run } = this;
    scope.release();
    const interrupted = scope.interrupted && !run.signal.aborted;
    const end: AgentEvent = { ...this.endEvent(), error: interrupted ? "interrupted" : errorText(error) };
    return andThen(this.announceEnd(end), () => next(this.failure(error, interrupted)));
  }

  private failure(error: unknown, interrupted: boolean): ModelCallOutcome {
    if (interrupted) return { kind: "interrupted" };
    if (this.scope.signal.aborted || isAbortError(error)) return { kind: "aborted" };
    const agentError = toAgentError(error);
    if (!this.streamed && isOverflowError(agentError)) return { kind: "overflow", error: agentError };
    return { kind: "error", error: agentError };
  }

  private endEvent(): Extract<AgentEvent, { type: "model_call_end" }> {
    const { config } = this.run;
    const durationMs = config.ports.now() - this.started;
    return { type: "model_call_end", turn: this.turn, model: config.modelName, durationMs };
  }

  /** The call's end, then what its hooks and tools emitted meanwhile. */
  private announceEnd(end: AgentEvent): MaybeAsync<void> {
    const { out, sink } = this.run;
    return andThen(send(out, end), () => send(out, ...sink.drain()));
  }
}

interface CallScope {
  signal: AbortSignalLike;
  interrupted: boolean;
  release(): void;
}

/**
 * The signal of one model call: aborted with the run, or by an interrupt from the steer source, which cancels
 * only this call so the run can re-plan.
 */
function callScope(run: RunState): CallScope {
  if (!run.steer?.onInterrupt) return { signal: run.signal, interrupted: false, release: () => undefined };
  const controller = new AbortController();
  const state: CallScope = {
    signal: controller.signal as AbortSignalLike,
    interrupted: false,
    release: () => undefined,
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
