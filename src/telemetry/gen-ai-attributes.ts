/**
 * Attribute names of the OpenTelemetry semantic conventions for generative AI (`gen_ai.*`, still "development" in
 * the conventions, so the names are written here rather than imported from the incubating entry of
 * `@opentelemetry/semantic-conventions`) and the few of our own (`lite_agent.*`).
 */
export const GEN_AI = {
  operationName: "gen_ai.operation.name",
  requestModel: "gen_ai.request.model",
  conversationId: "gen_ai.conversation.id",
  agentName: "gen_ai.agent.name",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  finishReasons: "gen_ai.response.finish_reasons",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  errorType: "error.type",
} as const;

/** Our own span attributes. */
export const LITE_AGENT = {
  sessionId: "lite_agent.session.id",
  runId: "lite_agent.run.id",
  turn: "lite_agent.turn",
  stopReason: "lite_agent.stop_reason",
  /** A run or turn span a worker opened after another worker had begun it (crash, restart). */
  resumed: "lite_agent.resumed",
  attempt: "lite_agent.attempt",
  toolIsError: "lite_agent.tool.is_error",
  approvalDecision: "lite_agent.approval.decision",
} as const;
