import type { Usage } from "../kernel/vocabulary/model.js";
import {
  fakeProvider,
  type FakeErrorTurn,
  type FakeProvider,
  type FakeProviderOptions,
  type FakeTurn,
} from "./fake-provider.js";
import { textTurn, toolCallTurn, type ScriptedToolCall } from "./fake-turns.js";

/** A step answering with text only. */
export interface ScriptedTextStep {
  text: string;
  usage?: Usage;
}

/** A step calling tools, optionally with text before the calls. */
export interface ScriptedToolStep {
  toolCalls: readonly ScriptedToolCall[];
  text?: string;
  usage?: Usage;
}

/** One step of a {@link scriptedProvider} script; an `{error}` step fails the call before any chunk. */
export type ScriptedStep = ScriptedTextStep | ScriptedToolStep | FakeErrorTurn;

/**
 * A fakeProvider built from short steps: `{text}` or `{toolCalls, text?}` (plus `usage?`). Tool call ids
 * default to `call_<turn>_<i>`, with `turn` the 1-based step number and `i` the 0-based call position, so
 * ids are unique across the script. It fails loudly when the script runs out, like fakeProvider.
 */
export function scriptedProvider(
  steps: readonly ScriptedStep[],
  options: FakeProviderOptions = {},
): FakeProvider {
  return fakeProvider(steps.map(stepToTurn), options);
}

/** Turns one step (at 0-based `index`) into a fake turn. */
function stepToTurn(step: ScriptedStep, index: number): FakeTurn | FakeErrorTurn {
  if ("error" in step) return step;
  if ("toolCalls" in step) {
    const calls = step.toolCalls.map((call, i) => ({ ...call, id: call.id ?? `call_${index + 1}_${i}` }));
    return toolCallTurn(calls, step.text, step.usage);
  }
  return textTurn(step.text, step.usage);
}
