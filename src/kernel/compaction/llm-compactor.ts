import { isAbortError, ProviderError } from "../vocabulary/errors.js";
import { messageText, type AssistantMessage, type Message } from "../vocabulary/messages.js";
import type { ModelProvider, ModelRequest } from "../vocabulary/model.js";
import type { AbortSignalLike } from "../vocabulary/ports.js";
import { defaultCompactor } from "./default-compactor.js";
import { estimateTokens } from "./estimate-tokens.js";
import { renderTranscript } from "./passes/render-transcript.js";
import { splitTurns } from "./passes/split-turns.js";
import type { CompactionResult, Compactor } from "./types.js";

/** The header of the message that replaces summarised turns. */
export const SUMMARY_HEADER = "[Summary of earlier conversation]";

/** The default system prompt of the summary call. */
export const DEFAULT_SUMMARY_PROMPT =
  "You compact conversations for an AI agent. Write a concise summary of the conversation you are given that " +
  "keeps every fact, decision, file path, identifier and open task the agent needs to continue. " +
  "Reply with the summary only.";

/** Options of {@link llmCompactor}. */
export interface LlmCompactorOptions {
  /** The provider that writes summaries. */
  provider: ModelProvider;
  /** The model id of the summary call. */
  model: string;
  /** The model-free compactor that runs first. Default `defaultCompactor()`. */
  base?: Compactor;
  /** Summarise only when the estimate after `base` is above this. Default 120_000. */
  tokenThreshold?: number;
  /** The newest turns kept verbatim. Default 3. */
  keepRecentTurns?: number;
  /** The system prompt of the summary call. Default {@link DEFAULT_SUMMARY_PROMPT}. */
  summaryPrompt?: string;
  /** Consecutive summary failures after which only `base` runs. Default 2. */
  maxFailures?: number;
}

/**
 * Runs `base`, then, when still above `tokenThreshold`, replaces all but the newest `keepRecentTurns` units (see
 * `compactionUnits`) with one `[Summary of earlier conversation]` user message from one model call. After
 * `maxFailures` consecutive failures only `base` runs; a failed summary returns `base`'s result; an abort rethrows.
 */
export function llmCompactor(options: LlmCompactorOptions): Compactor {
  const base = options.base ?? defaultCompactor();
  const threshold = options.tokenThreshold ?? 120_000;
  const keepRecentTurns = options.keepRecentTurns ?? 3;
  const maxFailures = options.maxFailures ?? 2;
  let failures = 0;
  return {
    async maybeCompact(messages, usage, instructions, signal) {
      const before = estimateTokens(messages);
      const baseResult = await base.maybeCompact(messages, usage, instructions, signal);
      const fallback: CompactionResult = {
        ...baseResult,
        before,
        after: estimateTokens(baseResult.messages),
      };
      const turns = compactionUnits(baseResult.messages);
      // Summarising a single older turn saves little; the breaker keeps a failing model out of every turn.
      if (
        failures >= maxFailures ||
        (fallback.after ?? 0) <= threshold ||
        turns.length <= keepRecentTurns + 1
      ) {
        return fallback;
      }
      const cut = turns.length - keepRecentTurns;
      try {
        const summary = await summarize(options, turns.slice(0, cut).flat(), instructions, signal);
        failures = 0;
        const out: Message[] = [
          { role: "user", content: `${SUMMARY_HEADER}\n${summary}` },
          ...turns.slice(cut).flat(),
        ];
        return { messages: out, kind: "auto", before, after: estimateTokens(out) };
      } catch (error) {
        if (signal?.aborted || isAbortError(error)) throw error;
        failures++;
        return fallback;
      }
    },
  };
}

/**
 * The units a summary may replace: whole turns, except the newest, split after each model call (assistant message
 * plus the tool results answering it) so a long run of tool calls can be summarised. A unit never separates a call
 * from its result; kept units start with an assistant message, which may follow the summary's user message.
 */
function compactionUnits(messages: readonly Message[]): Message[][] {
  const turns = splitTurns(messages);
  const newest = turns.pop();
  return newest ? [...turns, ...splitExchanges(newest)] : turns;
}

/** Splits a turn before each assistant message but its first: `[prompt, a1, r1], [a2, r2], …`. */
function splitExchanges(turn: readonly Message[]): Message[][] {
  const units: Message[][] = [];
  let current: Message[] = [];
  for (const message of turn) {
    if (message.role === "assistant" && current.some((earlier) => earlier.role === "assistant")) {
      units.push(current);
      current = [];
    }
    current.push(message);
  }
  if (current.length > 0) units.push(current);
  return units;
}

/** Asks the model for a summary of `older`; throws when the stream gives no `message_done` or an empty text. */
async function summarize(
  options: LlmCompactorOptions,
  older: readonly Message[],
  instructions: string | undefined,
  signal: AbortSignalLike | undefined,
): Promise<string> {
  const prompt = options.summaryPrompt ?? DEFAULT_SUMMARY_PROMPT;
  const request: ModelRequest = {
    model: options.model,
    system: instructions ? `${prompt}\n\nAdditional instructions for this summary:\n${instructions}` : prompt,
    messages: [{ role: "user", content: `${renderTranscript(older)}\n\nSummarize the conversation above.` }],
  };
  let done: AssistantMessage | undefined;
  for await (const chunk of options.provider.stream(request, signal)) {
    if (chunk.type === "message_done") done = chunk.message;
  }
  if (!done) throw new ProviderError("summary stream ended without message_done");
  const text = messageText(done).trim();
  if (!text) throw new ProviderError("summary model returned no text");
  return text;
}
