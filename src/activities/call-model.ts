import { ApplicationFailure } from "@temporalio/common";
import { Context } from "@temporalio/activity";
import { FAILURE_TYPES, type CallModelInput, type CallModelOutput } from "../common/activity-types.js";
import { modelRequestQuery } from "../workflows/messages.js";
import { isAbortError } from "../kernel/errors.js";
import type { ModelRequest } from "../kernel/model.js";
import { RegistryLookupError, type AgentRegistry } from "./agent-registry.js";
import { startHeartbeatPulse } from "./heartbeat-pulse.js";
import { providerFailure } from "./provider-failure.js";
import { DeltaPublisher } from "../stream/delta-publisher.js";
import type { DeltaTransport } from "../stream/delta-transport.js";

/**
 * The `callModel` activity: fetches the request from the session workflow (it is not in the activity input, so
 * history stays small), streams the provider's answer and returns the complete assistant message.
 */
export function createCallModel(registry: AgentRegistry, transport: DeltaTransport | undefined) {
  return async function callModel(input: CallModelInput): Promise<CallModelOutput> {
    const context = Context.current();
    const provider = lookupProvider(registry, input.model);
    const request = input.request ?? (await fetchRequest(input.requestKey));
    const publisher = input.stream && transport ? openPublisher(transport, input) : undefined;
    const stop = startHeartbeatPulse();
    try {
      for await (const chunk of provider.stream(request, context.cancellationSignal)) {
        if (chunk.type === "text_delta") publisher?.push("text", chunk.text);
        else if (chunk.type === "reasoning_delta") publisher?.push("reasoning", chunk.text);
        else if (chunk.type === "message_done") {
          // Every delta is stored before the workflow learns the call completed, so clients see them first.
          await publisher?.end();
          return { message: chunk.message, usage: chunk.usage };
        }
      }
      throw providerFailure(new Error("model stream ended without a message_done chunk"));
    } catch (error) {
      if (error instanceof ApplicationFailure) throw error;
      if (isAbortError(error) && context.cancellationSignal.aborted) throw error;
      throw providerFailure(error);
    } finally {
      stop();
      await publisher?.close();
    }
  };
}

function openPublisher(transport: DeltaTransport, input: CallModelInput): DeltaPublisher {
  const info = Context.current().info;
  const sessionId = info.workflowExecution?.workflowId ?? "";
  return new DeltaPublisher(
    transport.sink(sessionId),
    { key: input.requestKey, attempt: info.attempt },
    transport.batchMs,
    transport.endMarker,
  );
}

function lookupProvider(registry: AgentRegistry, model: string) {
  try {
    return registry.provider(model);
  } catch (error) {
    if (error instanceof RegistryLookupError)
      throw ApplicationFailure.nonRetryable(error.message, FAILURE_TYPES.unknownModel);
    throw error;
  }
}

/** Reads the in-flight request from the workflow that scheduled this activity. */
async function fetchRequest(key: string): Promise<ModelRequest> {
  const context = Context.current();
  const workflowId = context.info.workflowExecution?.workflowId;
  if (!workflowId)
    throw ApplicationFailure.nonRetryable(
      "callModel must run inside a session workflow",
      FAILURE_TYPES.requestUnavailable,
    );
  const request = await context.client.workflow.getHandle(workflowId).query(modelRequestQuery, key);
  // Absent only if the workflow moved on (the call was cancelled); a retry will not bring it back.
  if (!request)
    throw ApplicationFailure.nonRetryable(
      `model request ${key} is no longer in flight`,
      FAILURE_TYPES.requestUnavailable,
    );
  return request;
}
