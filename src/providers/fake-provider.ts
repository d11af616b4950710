import { AbortError } from "../kernel/vocabulary/errors.js";
import type { AssistantMessage } from "../kernel/vocabulary/messages.js";
import {
  ZERO_USAGE,
  type ModelChunk,
  type ModelProvider,
  type ModelRequest,
  type ModelStopReason,
  type ProviderContextCapabilities,
  type Usage,
} from "../kernel/vocabulary/model.js";
import type { AbortSignalLike } from "../kernel/vocabulary/ports.js";

/** One scripted model response. `text` and `reasoning` are streamed; `message` is what the turn returns. */
export interface FakeTurn {
  /** Streamed one character at a time as `text_delta` chunks. Not derived from `message`. */
  text?: string;
  /** The final assistant message, sent in the single `message_done` chunk. */
  message: AssistantMessage;
  /** Default `{ inputTokens: 0, outputTokens: 0 }`. */
  usage?: Usage;
  /** Streamed one character at a time as `reasoning_delta` chunks, before any text. */
  reasoning?: string;
  /** Sent on `message_done`, e.g. `max_tokens` for an answer cut off at the output limit; default none. */
  stopReason?: ModelStopReason;
}

/** A turn that fails before yielding anything (a refused or failed request). */
export interface FakeErrorTurn {
  error: Error;
}

/** A turn that streams the first `errorAfterChars` characters of `text`, then fails (a dropped stream). */
export interface FakeMidStreamErrorTurn {
  text: string;
  errorAfterChars: number;
  error: Error;
}

/** A turn that is not computed from the request. */
export type FakeStaticTurn = FakeTurn | FakeErrorTurn | FakeMidStreamErrorTurn;

/** One entry of a fake script: a fixed turn, or a function of the request (and its 0-based index). */
export type FakeScriptTurn = FakeStaticTurn | ((request: ModelRequest, index: number) => FakeStaticTurn);

/** What a fake provider does once every scripted turn was used. */
export type FakeExhaustion = "throw" | "repeat-last";

/** Options of {@link fakeProvider}. */
export interface FakeProviderOptions {
  /** Default `"repeat-last"` (the seed's); `"throw"` makes a test that calls the model more than scripted fail. */
  onExhausted?: FakeExhaustion;
  /** Default `"fake"`. */
  id?: string;
  /** Context capabilities to advertise (for context-management tests). */
  context?: ProviderContextCapabilities;
}

/** A scripted provider that also records what it was asked. */
export interface FakeProvider extends ModelProvider {
  /** Every request received, in order (a shallow copy, so later edits to the history do not show). */
  readonly requests: ModelRequest[];
}

/**
 * A deterministic ModelProvider for tests: each `stream()` plays the next scripted turn; past the script it replays
 * the last turn or, with `onExhausted: "throw"`, throws a plain Error (`script exhausted…`, which `retry()` never
 * hides). Uses no Node built-ins, so workflow tests can use it.
 */
export function fakeProvider(
  turns: readonly FakeScriptTurn[],
  options: FakeProviderOptions = {},
): FakeProvider {
  const requests: ModelRequest[] = [];
  const script = [...turns];
  const provider: FakeProvider = {
    id: options.id ?? "fake",
    requests,
    stream(request: ModelRequest, signal?: AbortSignalLike): AsyncIterable<ModelChunk> {
      const index = requests.length;
      requests.push({ ...request, messages: [...request.messages] });
      return playTurn(() => pickTurn(script, index, request, options.onExhausted ?? "repeat-last"), signal);
    },
  };
  if (options.context) return { ...provider, context: options.context };
  return provider;
}

/** Resolves the turn for request number `index` (0-based). */
function pickTurn(
  script: readonly FakeScriptTurn[],
  index: number,
  request: ModelRequest,
  onExhausted: FakeExhaustion,
): FakeStaticTurn {
  const entry = index < script.length || onExhausted === "throw" ? script[index] : script[script.length - 1];
  if (entry === undefined) {
    throw new Error(`fakeProvider: script exhausted after ${script.length} turns (request #${index + 1})`);
  }
  return typeof entry === "function" ? entry(request, index) : entry;
}

/**
 * Streams one turn. Resolution happens lazily so every failure, exhaustion included, surfaces from the
 * iteration, as it would from a real network stream.
 */
async function* playTurn(
  resolve: () => FakeStaticTurn,
  signal?: AbortSignalLike,
): AsyncGenerator<ModelChunk> {
  const turn = resolve();
  if ("errorAfterChars" in turn) {
    yield* characters("text_delta", turn.text.slice(0, Math.max(0, turn.errorAfterChars)), signal);
    throwIfAborted(signal);
    throw turn.error;
  }
  throwIfAborted(signal);
  if ("error" in turn) throw turn.error;
  yield* characters("reasoning_delta", turn.reasoning ?? "", signal);
  yield* characters("text_delta", turn.text ?? "", signal);
  throwIfAborted(signal);
  yield {
    type: "message_done",
    message: copyMessage(turn.message),
    usage: { ...(turn.usage ?? ZERO_USAGE) },
    ...(turn.stopReason ? { stopReason: turn.stopReason } : {}),
  };
}

/** A fresh copy per call, so a consumer that edits one answer cannot change a repeated turn. */
function copyMessage(message: AssistantMessage): AssistantMessage {
  return {
    ...message,
    content: typeof message.content === "string" ? message.content : [...message.content],
  };
}

/** Yields `text` one character (code point) per chunk, checking the signal before each. */
async function* characters(
  type: "text_delta" | "reasoning_delta",
  text: string,
  signal?: AbortSignalLike,
): AsyncGenerator<ModelChunk> {
  for (const char of text) {
    throwIfAborted(signal);
    yield { type, text: char };
  }
}

/** Stops a stream whose signal fired. */
function throwIfAborted(signal?: AbortSignalLike): void {
  if (signal?.aborted) throw new AbortError();
}
