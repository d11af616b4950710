import { SpanKind, SpanStatusCode, context, trace, type Link, type Span } from "@opentelemetry/api";
import { Context as ActivityContext } from "@temporalio/activity";
import { ApplicationFailure } from "@temporalio/common";
import type {
  AgentActivities,
  CallModelInput,
  ExecuteToolInput,
  ExecuteToolOutput,
} from "../contract/activity-types.js";
import type { ModelStopReason } from "../kernel/vocabulary/model.js";
import { errorMessage } from "../kernel/vocabulary/errors.js";
import type { AgentMetrics } from "./agent-metrics.js";
import { remoteParent, type AgentTracing } from "./agent-tracing.js";
import { GEN_AI, LITE_AGENT } from "./gen-ai-attributes.js";
import { turnSpanIds } from "./run-span-ids.js";

/** The GenAI conventions' finish reasons (OpenAI's words) for ours. */
const FINISH_REASONS: Record<ModelStopReason, string> = {
  stop: "stop",
  tool_use: "tool_calls",
  max_tokens: "length",
};

/**
 * The activities with a span around each model call (`chat <model>`) and tool call (`execute_tool <name>`) per the
 * OpenTelemetry GenAI conventions, children of their turn's span (run-span-ids.ts) and linked to the activity's
 * Temporal span if any, plus token and tool call metrics. Made in the activity, so spans measure the real call.
 */
export function tracedActivities(
  activities: AgentActivities,
  tracing: AgentTracing | undefined,
  metrics: AgentMetrics | undefined,
): AgentActivities {
  return {
    ...activities,
    async callModel(input) {
      const span = tracing && startCallSpan(tracing, modelSpan(input), sessionOf(), input.runId, input.turn);
      try {
        const output = await within(span, () => activities.callModel(input));
        metrics?.modelUsage(input.agent, input.model, output.usage);
        span?.setAttributes({
          [GEN_AI.inputTokens]: output.usage.inputTokens,
          [GEN_AI.outputTokens]: output.usage.outputTokens,
          ...(output.stopReason ? { [GEN_AI.finishReasons]: [FINISH_REASONS[output.stopReason]] } : {}),
        });
        return output;
      } catch (error) {
        metrics?.modelError(input.agent, input.model, errorKind(error));
        if (span) failed(span, error);
        throw error;
      } finally {
        span?.end();
      }
    },
    executeTool: tracedToolCall(activities.executeTool, tracing, metrics),
    // An MCP tool call is a tool call too: the same span, under the agent's name for the tool.
    callMcpTool: tracedToolCall(activities.callMcpTool, tracing, metrics),
  };
}

/** A tool activity with its `execute_tool` span and the tool call metric. */
function tracedToolCall<I extends ExecuteToolInput>(
  call: (input: I) => Promise<ExecuteToolOutput>,
  tracing: AgentTracing | undefined,
  metrics: AgentMetrics | undefined,
): (input: I) => Promise<ExecuteToolOutput> {
  return async (input) => {
    const span = tracing && startCallSpan(tracing, toolSpan(input), input.sessionId, input.runId, input.turn);
    try {
      const output = await within(span, () => call(input));
      metrics?.toolCall(input.agent, input.call.name, output.isError ? "error" : "ok");
      if (output.isError) {
        span?.setAttribute(LITE_AGENT.toolIsError, true);
        span?.setStatus({ code: SpanStatusCode.ERROR, message: "the tool returned an error result" });
      }
      return output;
    } catch (error) {
      metrics?.toolCall(input.agent, input.call.name, "failed");
      if (span) failed(span, error);
      throw error;
    } finally {
      span?.end();
    }
  };
}

interface CallSpan {
  name: string;
  attributes: Record<string, string | number>;
}

function modelSpan(input: CallModelInput): CallSpan {
  return {
    name: `chat ${input.model}`,
    attributes: {
      [GEN_AI.operationName]: "chat",
      [GEN_AI.requestModel]: input.model,
      [GEN_AI.agentName]: input.agent,
    },
  };
}

function toolSpan(input: ExecuteToolInput): CallSpan {
  return {
    name: `execute_tool ${input.call.name}`,
    attributes: {
      [GEN_AI.operationName]: "execute_tool",
      [GEN_AI.toolName]: input.call.name,
      [GEN_AI.toolCallId]: input.call.id,
      [GEN_AI.toolType]: "function",
      [GEN_AI.agentName]: input.agent,
    },
  };
}

/** What failed, for a metric label: an `ApplicationFailure`'s type, else the error's class name. */
function errorKind(error: unknown): string {
  const type = (error as { type?: unknown } | null)?.type;
  // Our failures are typed `LiteAgent.<ErrorClass>`: the class is the label.
  if (typeof type === "string" && type !== "") return type.replace(/^LiteAgent\./, "");
  return error instanceof Error ? error.name : "unknown";
}

/** The session of the running activity: its workflow's id. */
function sessionOf(): string {
  return ActivityContext.current().info.workflowExecution?.workflowId ?? "";
}

function startCallSpan(
  tracing: AgentTracing,
  call: CallSpan,
  sessionId: string,
  runId: string,
  turn: number,
): Span {
  const info = ActivityContext.current().info;
  // Temporal's activity span (when its interceptors are on) is the current one: linked, not the parent.
  const temporal = trace.getSpan(context.active())?.spanContext();
  const links: Link[] = temporal ? [{ context: temporal }] : [];
  return tracing.tracer.startSpan(
    call.name,
    {
      kind: SpanKind.CLIENT,
      links,
      attributes: {
        ...call.attributes,
        [GEN_AI.conversationId]: sessionId,
        [LITE_AGENT.runId]: runId,
        [LITE_AGENT.turn]: turn,
        [LITE_AGENT.attempt]: info.attempt,
      },
    },
    remoteParent(turnSpanIds(sessionId, runId, turn)),
  );
}

/** Runs `call` with `span` current (a provider's own instrumentation nests under it). */
function within<T>(span: Span | undefined, call: () => Promise<T>): Promise<T> {
  return span ? context.with(trace.setSpan(context.active(), span), call) : call();
}

function failed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
  const type = error instanceof ApplicationFailure && error.type ? error.type : undefined;
  span.setAttribute(GEN_AI.errorType, type ?? (error instanceof Error ? error.name : "Error"));
}
