import OpenAI from "openai";
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from "openai/resources/chat/completions";
import { AbortError, ProviderError } from "../kernel/vocabulary/errors.js";
import type { ModelChunk, ModelProvider, ModelRequest } from "../kernel/vocabulary/model.js";
import type { AbortSignalLike } from "../kernel/vocabulary/ports.js";
import { toChatCompletionParams, type MaxTokensField } from "./openai-request.js";
import { toProviderError } from "./openai-provider-error.js";
import { OpenAIStreamAssembler } from "./openai-stream-assembler.js";
import { declareSecrets } from "../wire/scrub-secrets.js";

export { classifyProviderError, type ProviderErrorClassification } from "./openai-classify-error.js";

/** The part of the `openai` client the provider uses: a seam for wrappers and instrumented clients. */
export interface OpenAIClientLike {
  chat: {
    completions: {
      create(
        body: ChatCompletionCreateParamsStreaming,
        options?: { signal?: AbortSignal },
      ): PromiseLike<AsyncIterable<ChatCompletionChunk>>;
    };
  };
}

/** Options of {@link openaiProvider}. */
export interface OpenAIProviderOptions {
  /** Default `$OPENAI_API_KEY`; a server that needs no key (a local one) gets a placeholder. */
  apiKey?: string;
  /** Any OpenAI-compatible endpoint, e.g. `http://localhost:11434/v1`. Default `$OPENAI_BASE_URL`, else OpenAI. */
  baseURL?: string;
  /** A ready client; the options above are then ignored. */
  client?: OpenAIClientLike;
  /** Default `"openai"`. */
  id?: string;
  organization?: string;
  /** The model when a request names none. */
  defaultModel?: string;
  /** How long to wait for the response headers. Default: the client's (10 minutes). */
  timeoutMs?: number;
  /** Advertised to the context manager as `context.contextWindow`. */
  contextWindow?: number;
  /** Default `"max_tokens"` (what local servers accept); use `"max_completion_tokens"` for o-series models. */
  maxTokensField?: MaxTokensField;
  /**
   * The client's own retries, as in the seed. Default 0: retrying belongs to `retry()` in process and to the
   * activity retry policy on Temporal; more here multiplies with those.
   */
  maxRetries?: number;
}

/**
 * A ModelProvider for OpenAI and OpenAI-compatible servers over streaming Chat Completions. The client defaults to
 * `maxRetries: 0`: retrying belongs to `retry()` and the activity retry policy. Failures are `ProviderError`s, aborts
 * `AbortError`; `inputTokens` is `prompt_tokens`, which for OpenAI includes the `cacheReadTokens`.
 */
export function openaiProvider(options: OpenAIProviderOptions = {}): ModelProvider {
  const client = options.client ?? createClient(options);
  const id = options.id ?? "openai";
  const provider: ModelProvider = {
    id,
    stream(request: ModelRequest, signal?: AbortSignalLike): AsyncIterable<ModelChunk> {
      const params = toChatCompletionParams(request, options);
      return streamChatCompletion(client, params, id, signal);
    },
  };
  // A worker running this provider scrubs its key from the error texts it records.
  const secrets = [options.apiKey, process.env.OPENAI_API_KEY];
  if (options.contextWindow === undefined) return declareSecrets(provider, secrets);
  return declareSecrets({ ...provider, context: { contextWindow: options.contextWindow } }, secrets);
}

/** The seed's name for {@link openaiProvider} (`openai()` in `@lite-agent/provider`): the same function. */
export const openai = openaiProvider;

function createClient(options: OpenAIProviderOptions): OpenAI {
  const baseURL = options.baseURL ?? process.env.OPENAI_BASE_URL;
  // A custom endpoint (a local server) often needs no key, but the client refuses to start without one.
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY ?? (baseURL ? "unused" : undefined);
  return new OpenAI({
    apiKey,
    baseURL,
    organization: options.organization,
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries ?? 0,
  });
}

/**
 * One streamed call. The caller's signal is linked to an AbortController the client understands; the client
 * ends its stream quietly on abort, so the abort is rethrown here. A stream that ends without a
 * `finish_reason` was cut off, and is never passed off as a complete answer.
 */
async function* streamChatCompletion(
  client: OpenAIClientLike,
  params: ChatCompletionCreateParamsStreaming,
  providerId: string,
  signal: AbortSignalLike | undefined,
): AsyncGenerator<ModelChunk> {
  if (signal?.aborted) throw new AbortError();
  const link = linkSignal(signal);
  try {
    const assembler = new OpenAIStreamAssembler(providerId);
    const chunks = await openStream(client, params, link.signal, signal);
    for (;;) {
      const next = await nextChunk(chunks, signal);
      if (next.done) break;
      yield* assembler.push(next.value);
    }
    if (signal?.aborted) throw new AbortError();
    if (!assembler.finished) {
      throw new ProviderError(
        `${providerId}: the stream ended before the model finished (connection dropped)`,
      );
    }
    yield { type: "message_done", ...assembler.result() };
  } finally {
    // Also reached when the consumer stops early: aborting releases the connection.
    link.dispose();
  }
}

async function openStream(
  client: OpenAIClientLike,
  params: ChatCompletionCreateParamsStreaming,
  linked: AbortSignal,
  signal: AbortSignalLike | undefined,
): Promise<AsyncIterator<ChatCompletionChunk>> {
  try {
    const stream = await client.chat.completions.create(params, { signal: linked });
    return stream[Symbol.asyncIterator]();
  } catch (error) {
    throw toProviderError(error, signal);
  }
}

async function nextChunk(
  chunks: AsyncIterator<ChatCompletionChunk>,
  signal: AbortSignalLike | undefined,
): Promise<IteratorResult<ChatCompletionChunk>> {
  try {
    return await chunks.next();
  } catch (error) {
    throw toProviderError(error, signal);
  }
}

/** An AbortSignal that fires with `signal`; `dispose` detaches it and aborts whatever request still uses it. */
function linkSignal(signal: AbortSignalLike | undefined): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  signal?.addEventListener("abort", abort, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      signal?.removeEventListener("abort", abort);
      controller.abort();
    },
  };
}
