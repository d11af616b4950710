import { CancellationScope, proxyActivities } from "@temporalio/workflow";
import type {
  AgentActivities,
  CallModelInput,
  CallModelOutput,
  ModelRequestDelta,
} from "../../contract/activity-types.js";
import type { Message } from "../../kernel/vocabulary/messages.js";
import type { AgentPlan } from "../../contract/agent-plan.js";
import type { ModelChunk, ModelProvider, ModelRequest } from "../../kernel/vocabulary/model.js";
import type { AbortSignalLike } from "../../kernel/vocabulary/ports.js";
import { modelActivityOptions } from "./activity-options.js";
import { modelFailureToError } from "./failure-cause.js";
import { wholeModelStream } from "../../kernel/phases/whole-model-stream.js";

/** Where the workflow keeps the requests of in-flight model calls, served to the activity by query. */
export type ModelRequestStore = Map<string, ModelRequest>;

/** What the model adapter needs to know about the run it serves. */
export interface DurableModelContext {
  plan: AgentPlan;
  runId: string;
  /** The number of the next model call of the run (keys of live output are `<runId>:<n>`). */
  nextCall(): number;
  currentTurn(): number;
  requests: ModelRequestStore;
  /** Pass requests inline in the activity input instead of by reference (for comparison benchmarks). */
  inlineRequests?: boolean;
  /** The activity publishes text live (passthrough codecs); the workflow then does not publish text deltas. */
  streamLive: boolean;
  /** The session's stream, told while a call that sends live output is in flight (readers then keep asking). */
  liveCalls?: { openLiveCall(): () => void };
  /** What the calls are for, at the head of each activity's summary in the UI (e.g. `compaction summary`). */
  purpose?: string;
  /** Told the time each call's worker recorded as it completed (`CallModelOutput.completedAt`), before its chunks. */
  recorded?: (at: number | undefined) => void;
}

/**
 * A ModelProvider whose every call is one `callModel` activity returning the whole assistant message, which history
 * records and the kernel's chunks are replayed from. Small requests go inline, larger ones as the change since the
 * run's previous request or by reference ({@link requestInput}), so a call never re-adds the whole conversation.
 */
export function durableModel(context: DurableModelContext): ModelProvider {
  let previous: SentRequest | undefined;
  const scopes = new CallScopes();
  // Starts one `callModel` activity; `end` undoes what the call set up, once it settled.
  const start = (request: ModelRequest, signal?: AbortSignalLike): StartedCall => {
    const requestKey = `${context.runId}:${context.nextCall()}`;
    const turn = context.currentTurn();
    const options = {
      ...modelActivityOptions(context.plan.modelRetry),
      summary: `${context.purpose ? `${context.purpose} · ` : ""}model ${context.plan.model} · turn ${turn}`,
    };
    const { callModel } = proxyActivities<AgentActivities>(options);
    context.requests.set(requestKey, request);
    const base = previous;
    const travel = requestInput(request, base, context.inlineRequests === true);
    previous = { key: requestKey, request, large: !("request" in travel) };
    // An interrupt aborts this call's signal: cancelling the scope cancels only this activity.
    const scope = scopes.next();
    const cancel = () => scope.cancel();
    signal?.addEventListener("abort", cancel, { once: true });
    const closeLiveCall = context.streamLive ? context.liveCalls?.openLiveCall() : undefined;
    const end = () => {
      closeLiveCall?.();
      signal?.removeEventListener("abort", cancel);
      context.requests.delete(requestKey);
    };
    const output = scopes.run(() =>
      callModel({
        agent: context.plan.name,
        model: context.plan.model,
        runId: context.runId,
        turn,
        requestKey,
        stream: context.streamLive,
        ...travel,
      }),
    );
    return { output, end };
  };
  return {
    id: context.plan.model,
    // The activity returns the whole message: the kernel takes its chunks in the activity's one `then`
    // (docs/decisions/0014).
    stream: (request: ModelRequest, signal?: AbortSignalLike) => {
      let end = () => undefined as void;
      return wholeModelStream(
        () => {
          const started = start(request, signal);
          end = started.end;
          return started.output;
        },
        (output) => {
          end();
          context.recorded?.(output.completedAt);
          return recordedChunks(output);
        },
        (error) => {
          const failure = modelFailureToError(error);
          end();
          return failure;
        },
      );
    },
  };
}

/** A `callModel` activity in flight, and what undoes the call's set-up once it settled. */
interface StartedCall {
  output: Promise<CallModelOutput>;
  end: () => void;
}

/** The recorded message, as the chunks a live stream would have carried, then its `message_done`. */
function recordedChunks({ message, usage, stopReason }: CallModelOutput): ModelChunk[] {
  const done: ModelChunk = { type: "message_done", message, usage, ...(stopReason ? { stopReason } : {}) };
  return [...replayChunks(message.content), done];
}

/**
 * The cancellation scope of a run's model calls, kept from call to call until cancelled (an interrupt, the run's end)
 * or a call runs in another scope: each new scope costs promises with stack traces and stays tied to the run's scope
 * until it ends (docs/decisions/0014). Between calls it holds nothing, so reuse issues the same commands as new ones.
 */
class CallScopes {
  private scope: CancellationScope | undefined;
  private enter: ScopeEntry | undefined;

  next(): CancellationScope {
    const { scope } = this;
    if (scope && !scope.consideredCancelled && scope.parent === CancellationScope.current()) return scope;
    this.scope = new CancellationScope();
    this.enter = undefined;
    return this.scope;
  }

  /**
   * Starts `call` in the scope `next` gave. `scope.run` costs two promises a call; the first call in a scope also
   * takes a way back into it (`scopeEntry`), and the later ones start through that, synchronously, with no promise.
   */
  run<T>(call: () => Promise<T>): Promise<T> {
    if (this.enter) return this.enter(call);
    const scope = this.scope!;
    return scope.run(() => {
      this.enter = scopeEntry(scope);
      return call();
    });
  }
}

/** Runs a function, synchronously, in the cancellation scope it was taken in. */
type ScopeEntry = <T>(fn: () => T) => T;

/** What of the sandbox's `AsyncLocalStorage` a scope entry needs (Node's, which the SDK's scopes are kept in). */
interface ContextSnapshots {
  snapshot?: () => ScopeEntry;
}

/**
 * A way back into `scope`: a snapshot of the SDK's async context when the sandbox has one that sees `scope` as
 * current (checked), else undefined and calls pay `scope.run`. The commands are the same either way; only the number
 * of promises differs.
 */
function scopeEntry(scope: CancellationScope): ScopeEntry | undefined {
  const storage = (globalThis as { AsyncLocalStorage?: ContextSnapshots }).AsyncLocalStorage;
  const entry = typeof storage?.snapshot === "function" ? storage.snapshot() : undefined;
  return entry?.(() => CancellationScope.current()) === scope ? entry : undefined;
}

/**
 * Requests up to this size travel inline (no query round trip); larger ones by reference, so a long conversation
 * adds at most this much per model call to the history, besides what the turn itself added.
 */
export const INLINE_REQUEST_LIMIT = 16 * 1024;

/** A request the run sent, and whether it was too large to travel inline. */
interface SentRequest {
  key: string;
  request: ModelRequest;
  large: boolean;
}

/**
 * How the request travels: inline while the conversation is small, then as the change since the run's previous
 * request (the worker that served it still has it; any other reads the whole by query), or by reference alone when
 * little is shared. A conversation once too large is not measured again (measuring costs as much as sending).
 */
function requestInput(
  request: ModelRequest,
  previous: SentRequest | undefined,
  inline: boolean,
): Pick<CallModelInput, "request" | "delta"> {
  if (inline) return { request };
  if (!previous?.large && JSON.stringify(request).length <= INLINE_REQUEST_LIMIT) return { request };
  const count = previous ? sharedPrefix(previous.request.messages, request.messages) : 0;
  // Worth it only when most of the previous conversation is kept (a codec that re-renders it shares nothing).
  if (previous && count > 0 && count >= previous.request.messages.length / 2) {
    const appended = request.messages.slice(count);
    return {
      delta: { base: { key: previous.key, count }, appended, ...fieldChanges(previous.request, request) },
    };
  }
  return {};
}

/** The fields (other than messages) that differ from the earlier request, by identity, and those it lost. */
function fieldChanges(
  before: ModelRequest,
  after: ModelRequest,
): Pick<ModelRequestDelta, "changed" | "unset"> {
  const changed: Record<string, unknown> = {};
  const unset: string[] = [];
  for (const [field, value] of Object.entries(after)) {
    if (field !== "messages" && before[field as keyof ModelRequest] !== value) changed[field] = value;
  }
  for (const field of Object.keys(before)) if (!(field in after)) unset.push(field);
  return unset.length > 0 ? { changed, unset } : { changed };
}

/** How many leading messages two requests share (the kernel keeps unchanged messages as the same objects). */
function sharedPrefix(before: Message[], after: Message[]): number {
  const length = Math.min(before.length, after.length);
  let index = 0;
  while (index < length && before[index] === after[index]) index++;
  return index;
}

/** The reasoning and text of a recorded message, as the chunks a live stream would have carried. */
function* replayChunks(content: string | { type: string; text?: string }[]): Generator<ModelChunk> {
  if (typeof content === "string") {
    if (content !== "") yield { type: "text_delta", text: content };
    return;
  }
  for (const block of content) {
    if (block.type === "reasoning" && block.text) yield { type: "reasoning_delta", text: block.text };
  }
  const text = content.map((block) => (block.type === "text" ? (block.text ?? "") : "")).join("");
  if (text !== "") yield { type: "text_delta", text };
}
