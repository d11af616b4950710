import type { ModelProvider } from "../kernel/vocabulary/model.js";
import { openaiProvider } from "../providers/openai-provider.js";
import { scriptedDemoModel, SCRIPTED_MODEL_ID } from "./demo-script.js";

/** The model the demo runs on, and how to describe it to the user. */
export interface DemoModel {
  /** The model id in the agent's plan (the worker maps it to `provider`). */
  id: string;
  provider: ModelProvider;
  scripted: boolean;
  /** One line for the terminal. */
  notice: string;
}

/** The default OpenAI model when `OPENAI_MODEL` is not set. */
export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";

/**
 * The OpenAI provider when `OPENAI_API_KEY` or `OPENAI_BASE_URL` is set (model from `OPENAI_MODEL`), else the
 * scripted model, which needs no network and says so. `forceScripted` picks the scripted model anyway.
 */
export function chooseDemoModel(env: NodeJS.ProcessEnv, forceScripted = false): DemoModel {
  const apiKey = env.OPENAI_API_KEY || undefined;
  const baseURL = env.OPENAI_BASE_URL || undefined;
  if (forceScripted || (apiKey === undefined && baseURL === undefined)) {
    const why = forceScripted
      ? "--scripted was given"
      : "no OpenAI key is configured (OPENAI_API_KEY / OPENAI_BASE_URL unset)";
    return {
      id: SCRIPTED_MODEL_ID,
      provider: scriptedDemoModel(),
      scripted: true,
      notice: `Model: ${why}, so the scripted demo model is used. It ignores the prompt and runs a fixed analysis with the real tools; token counts are estimates.`,
    };
  }
  const id = env.OPENAI_MODEL || DEFAULT_OPENAI_MODEL;
  const where = baseURL ?? "https://api.openai.com/v1";
  return {
    id,
    provider: openaiProvider({ apiKey, baseURL }),
    scripted: false,
    notice: `Model: ${id} through the OpenAI provider at ${where}.`,
  };
}
