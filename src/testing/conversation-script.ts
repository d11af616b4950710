import {
  fakeProvider,
  type FakeProvider,
  type FakeProviderOptions,
  type FakeStaticTurn,
} from "../providers/fake-provider.js";
import type { Message } from "../kernel/vocabulary/messages.js";
import type { ModelRequest } from "../kernel/vocabulary/model.js";

/** How many model answers a conversation already holds. */
function assistantCount(messages: Message[]): number {
  return messages.filter((message) => message.role === "assistant").length;
}

/**
 * A scripted provider that picks its answer from the conversation, not from a call counter: the n-th answer is
 * given whenever the request holds n-1 assistant messages. It is stateless, so a durable run that moves to
 * another worker (after a crash) or retries a call gets the same answer. Fails loudly past the end.
 */
export function conversationScript(
  turns: readonly FakeStaticTurn[],
  options: Omit<FakeProviderOptions, "onExhausted"> = {},
): FakeProvider {
  const pick = (request: ModelRequest): FakeStaticTurn => {
    const index = assistantCount(request.messages);
    const turn = turns[index];
    if (!turn)
      throw new Error(
        `conversationScript: no answer scripted for model call #${index + 1} (script has ${turns.length})`,
      );
    return turn;
  };
  return fakeProvider([pick], { ...options, onExhausted: "repeat-last" });
}
