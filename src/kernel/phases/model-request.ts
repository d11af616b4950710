import type { Message } from "../vocabulary/messages.js";
import type { ModelRequest, NativeContextEdits } from "../vocabulary/model.js";
import type { RunState } from "../loop/run-state.js";

/** The engine's view for the current turn, used while `ctx.messages` is the array it was prepared from. */
export interface PreparedView {
  from: Message[];
  messages: Message[];
  edits: NativeContextEdits;
}

/**
 * Encodes the current conversation with the codec. Called on every attempt, so middleware that rewrites
 * `ctx.messages` between attempts (reactive compaction) is seen by the next one.
 */
export function buildModelRequest(run: RunState, view: PreparedView | undefined): ModelRequest {
  const { config, ctx } = run;
  const useView = view !== undefined && view.from === ctx.messages;
  const request: ModelRequest = { model: config.modelName, messages: useView ? view.messages : ctx.messages };
  if (config.system !== undefined) request.system = config.system;
  if (run.specs.length > 0) request.tools = run.specs;
  if (config.maxTokens !== undefined) request.maxTokens = config.maxTokens;
  if (config.temperature !== undefined) request.temperature = config.temperature;
  if (config.topP !== undefined) request.topP = config.topP;
  if (config.seed !== undefined) request.seed = config.seed;
  if (config.stopSequences !== undefined) request.stopSequences = config.stopSequences;
  if (config.toolChoice !== undefined) request.toolChoice = config.toolChoice;
  if (useView && Object.keys(view.edits).length > 0) request.contextEdits = view.edits;
  return config.codec.encode(request, run.specs);
}
