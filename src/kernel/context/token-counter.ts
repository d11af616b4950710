import type { Message } from "../vocabulary/messages.js";
import type { ModelProvider } from "../vocabulary/model.js";
import type { ToolSpec } from "../vocabulary/tools.js";
import { estimateContextTokens } from "./estimate-context-tokens.js";

/** Counts the tokens of a request: its messages plus system prompt and tools. */
export type ContextTokenCounter = (
  messages: Message[],
  prefix: { system?: string; tools?: ToolSpec[] },
) => Promise<number>;

/**
 * Uses the provider's `countTokens` when it has one, else the chars/4 estimate. Counting is an optimisation: the
 * first time the provider's counter throws or returns a non-count, the counter falls back to the estimate for good,
 * so a flaky endpoint cannot make successive measurements disagree.
 */
export function createTokenCounter(provider: ModelProvider | undefined, model: string): ContextTokenCounter {
  let providerCounting = provider?.context?.countTokens !== undefined;
  return async (messages, prefix) => {
    const countTokens = provider?.context?.countTokens;
    if (providerCounting && countTokens) {
      try {
        const request = { model, messages, ...(prefix.system ? { system: prefix.system } : {}) };
        const value = await countTokens.call(
          provider.context,
          prefix.tools ? { ...request, tools: prefix.tools } : request,
        );
        if (Number.isFinite(value) && value >= 0) return value;
      } catch {
        // Fall through to the estimate below; the provider's count is never required.
      }
      providerCounting = false;
    }
    return estimateContextTokens(messages, prefix);
  };
}
