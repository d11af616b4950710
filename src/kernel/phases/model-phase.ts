import { CodecError, toAgentError, type AgentError } from "../vocabulary/errors.js";
import type { AgentEvent } from "../vocabulary/events.js";
import type { DecodedResponse } from "../codecs/types.js";
import type { ContextEngine } from "../context/types.js";
import type { ModelResponse } from "../middleware/middleware.js";
import type { ModelStopReason, Usage } from "../vocabulary/model.js";
import type { PreparedView } from "./model-request.js";
import { normalizeAssistant } from "./normalize-assistant.js";
import { defaultRepairPrompt } from "../codecs/repair-prompt.js";
import type { AssistantMessage } from "../vocabulary/messages.js";
import type { RunState } from "../loop/run-state.js";
import { andThen, forEachMaybeAsync, isPromiseLike, type MaybeAsync } from "../coroutine/maybe-async.js";
import { send } from "../coroutine/event-outlet.js";
import { RunClosedError } from "../coroutine/pull-events.js";
import { callModelOnce, type ModelCallOutcome } from "./model-call.js";

/** How the model phase of a turn ended. */
export type ModelPhaseOutcome =
  | { kind: "decoded"; decoded: DecodedResponse; message: AssistantMessage; stopReason?: ModelStopReason }
  | { kind: "aborted" }
  | { kind: "interrupted" }
  | { kind: "error"; error: AgentError };

type CalledMessage = Extract<ModelCallOutcome, { kind: "message" }>;

/** Where the phase stands between its calls: the view it sends, and whether it compacted for an overflow yet. */
interface PhaseState {
  view: PreparedView | undefined;
  overflowRetried: boolean;
}

/**
 * Steps 6–7 of a turn: calls the model and decodes; on malformed output pushes the raw message and the codec's repair
 * prompt and calls again, up to `maxDecodeRetries`. Delivers events to `run.out`; synchronous where nothing pauses,
 * so a durable turn's phase is one `then` on its model call (docs/decisions/0014).
 */
export function modelPhase(
  run: RunState,
  turn: number,
  view: PreparedView | undefined,
): MaybeAsync<ModelPhaseOutcome> {
  return callAndDecode(run, turn, { view, overflowRetried: false }, 0);
}

function callAndDecode(
  run: RunState,
  turn: number,
  state: PhaseState,
  attempt: number,
): MaybeAsync<ModelPhaseOutcome> {
  return callModelOnce(run, turn, state.view, (call) => {
    if (call.kind === "overflow") {
      // One emergency compaction per model phase, only with the ContextEngine on.
      if (state.overflowRetried || !run.engine) return { kind: "error", error: call.error };
      return compactAndCallAgain(run, turn, run.engine, attempt);
    }
    if (call.kind !== "message") return call;
    return decode(run, turn, state, attempt, call);
  });
}

async function compactAndCallAgain(
  run: RunState,
  turn: number,
  engine: ContextEngine,
  attempt: number,
): Promise<ModelPhaseOutcome> {
  const prepared = await engine.compact("overflow", run.ctx.messages);
  const paused = send(run.out, { type: "context_status", ...prepared.status });
  if (paused) await paused;
  const view = { from: run.ctx.messages, messages: prepared.messages, edits: prepared.edits };
  return callAndDecode(run, turn, { view, overflowRetried: true }, attempt);
}

/** Decodes the answer and records it; malformed output, or anything the recording threw, goes to `notDecoded`. */
function decode(
  run: RunState,
  turn: number,
  state: PhaseState,
  attempt: number,
  call: CalledMessage,
): MaybeAsync<ModelPhaseOutcome> {
  let decoded: DecodedResponse;
  let message: AssistantMessage;
  let recorded: MaybeAsync<void>;
  try {
    decoded = run.config.codec.decode(call.message);
    message = normalizeAssistant(call.message, decoded);
    recorded = recordAnswer(run, call, decoded, message);
  } catch (error) {
    return notDecoded(run, turn, state, attempt, call, error);
  }
  if (!isPromiseLike(recorded)) return decodedOutcome(decoded, message, call);
  return recorded.then(
    () => decodedOutcome(decoded, message, call),
    (error: unknown) => notDecoded(run, turn, state, attempt, call, error),
  );
}

function decodedOutcome(
  decoded: DecodedResponse,
  message: AssistantMessage,
  call: CalledMessage,
): ModelPhaseOutcome {
  return { kind: "decoded", decoded, message, ...stopReasonOf(call) };
}

/** Puts the answer in the conversation and the log, and announces it (after the `afterModel` hooks saw it). */
function recordAnswer(
  run: RunState,
  call: CalledMessage,
  decoded: DecodedResponse,
  message: AssistantMessage,
): MaybeAsync<void> {
  const { config, ctx, out } = run;
  const buffered = config.codec.streaming === "buffer" && decoded.calls.length === 0 && decoded.text !== "";
  return andThen(buffered ? send(out, { type: "text_delta", text: decoded.text }) : undefined, () => {
    ctx.messages.push(message);
    return andThen(run.log.append({ type: "assistant", message }), () =>
      announceAnswer(run, { ...call, message }),
    );
  });
}

/** The `message` event, then what the `afterModel` hooks emitted. */
function announceAnswer(run: RunState, call: CalledMessage): MaybeAsync<void> {
  return andThen(send(run.out, { type: "message", message: call.message }), () =>
    andThen(afterModel(run, call), (events) => send(run.out, ...events)),
  );
}

/**
 * An answer that did not decode: kept in the conversation as it came, then, while retries are left, the codec's
 * repair prompt and another call. Anything else that failed ends the phase with an error.
 */
async function notDecoded(
  run: RunState,
  turn: number,
  state: PhaseState,
  attempt: number,
  call: CalledMessage,
  error: unknown,
): Promise<ModelPhaseOutcome> {
  if (error instanceof RunClosedError) throw error;
  if (!(error instanceof CodecError)) return { kind: "error", error: toAgentError(error) };
  const { config, ctx, out } = run;
  ctx.messages.push(call.message);
  await run.log.append({ type: "assistant", message: call.message });
  await announceAnswer(run, call);
  if (attempt >= config.maxDecodeRetries) return { kind: "error", error };
  const paused = send(out, { type: "error", error, fatal: false });
  if (paused) await paused;
  const repair =
    config.codec.repairPrompt?.(error, attempt + 1, run.specs) ??
    defaultRepairPrompt(error, attempt + 1, run.specs);
  ctx.messages.push(repair);
  await run.log.append({ type: "user", message: repair });
  return callAndDecode(run, turn, state, attempt + 1);
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
