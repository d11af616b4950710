/**
 * The client entry, `lite-agent-temporal/client`: {@link AgentClient} starts runs and lists sessions, and
 * `client.session(id)` is the {@link SessionHandle} that drives one session.
 */
export { AgentClient } from "./client/agent-client.js";
export type { AgentClientOptions } from "./client/client-options.js";
export type { DurableRunOptions, SessionRunOptions, StartedRun } from "./client/run-options.js";
export { SessionHandle, type DecisionOptions } from "./client/session-handle.js";
export {
  ed25519Signer,
  generateApproverKey,
  signDecision,
  signerFromKeyFile,
  signerFromKeyText,
  type ApproverKeyFile,
  type DecisionSigner,
} from "./client/decision-signer.js";
export { decisionMessage, answerDecision, type DecisionFields } from "./plan/decision-message.js";
export type { ForkedSession, SessionForkOptions } from "./client/fork-session.js";
export type { SessionListing } from "./client/list-sessions.js";
export { SessionError } from "./client/client-errors.js";
export {
  RUN_INPUT_LIMIT_BYTES,
  RUN_INPUT_LIMIT_WITH_STORAGE_BYTES,
  RunInputTooLargeError,
} from "./client/run-input-limit.js";
export { NoWorkerError } from "./runtime/agent-task-queue.js";
export { SearchAttributesMissingError } from "./worker/search-attribute-check.js";
export type {
  DurableEvent,
  EventStreamPosition,
  ExternalDeltaSource,
} from "./client/events/run-event-stream.js";
export type { SessionStatus } from "./contract/session-status.js";
export { createAgentTracing, AgentTracing, type AgentTracingOptions } from "./telemetry/agent-tracing.js";
export { tracingFromEnv } from "./telemetry/tracing-from-env.js";
