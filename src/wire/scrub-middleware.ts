import type { Middleware } from "../kernel/middleware/middleware.js";
import { scrubModelStream } from "./scrub-model-stream.js";
import type { SecretScrubber } from "./scrub-secrets.js";

/**
 * The in-process driver's scrubbing, as the durable activities do it: model output (deltas, message, tool call inputs)
 * by value, tool results whole. First in `use`, so events, checkpoints and other middleware see only scrubbed values.
 */
export function scrubSecretsMiddleware(scrubber: SecretScrubber): Middleware {
  const output = scrubber.byValue();
  return {
    name: "scrub-secrets",
    wrapModelCall: (_ctx, next) => scrubModelStream(next(), output),
    afterToolCall: (_ctx, result) => ({ ...result, content: scrubber.scrub(result.content) }),
  };
}
