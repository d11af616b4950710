import { ApplicationFailure } from "@temporalio/common";
import { Context, log } from "@temporalio/activity";
import { FAILURE_TYPES, type CallModelInput, type CallModelOutput } from "../contract/activity-types.js";
import { modelRequestQuery } from "../contract/messages.js";
import { errorMessage, isAbortError } from "../kernel/vocabulary/errors.js";
import { SecretScrubber, declaredSecrets } from "../wire/scrub-secrets.js";
import { scrubModelStream } from "../wire/scrub-model-stream.js";
import type { ModelRequest } from "../kernel/vocabulary/model.js";
import { RegistryLookupError, type AgentRegistry } from "./agent-registry.js";
import { startHeartbeatPulse } from "./heartbeat-pulse.js";
import { RequestCache } from "./request-cache.js";
import { providerFailure } from "./provider-failure.js";
import { DeltaPublisher } from "../stream/delta-publisher.js";
import type { DeltaTransport } from "../stream/delta-transport.js";
import type { DeltaSink } from "../stream/stream-delta.js";

/**
 * The `callModel` activity: fetches the request from the workflow (kept out of the input so history stays small),
 * streams the answer (live output: a side channel that never fails the call) and returns the whole assistant message,
 * secrets scrubbed from both and from errors; only provider failures are `LiteAgent.ProviderError`s.
 */
export function createCallModel(
  registry: AgentRegistry,
  transport: DeltaTransport | undefined,
  scrubber = new SecretScrubber(),
) {
  // Model output is matched by value only: "a Bearer token" in an answer is prose, not a credential.
  const output = scrubber.byValue();
  return async function callModel(input: CallModelInput): Promise<CallModelOutput> {
    try {
      return await streamModel(registry, transport, { all: scrubber, output }, input);
    } catch (error) {
      throw scrubber.scrubError(error);
    }
  };
}

async function streamModel(
  registry: AgentRegistry,
  transport: DeltaTransport | undefined,
  scrubbers: { all: SecretScrubber; output: SecretScrubber },
  input: CallModelInput,
): Promise<CallModelOutput> {
  const context = Context.current();
  const provider = lookupProvider(registry, input.model);
  scrubbers.all.add(declaredSecrets(provider));
  const request = input.request ?? requests.resolve(input) ?? (await fetchRequest(input.requestKey));
  requests.remember(input, request);
  const live = input.stream && transport ? openPublisher(transport, input) : undefined;
  const publisher = live?.publisher;
  // With the Temporal-native transport every heartbeat carries the live output: a bare one would erase it.
  const beat = () => context.heartbeat(live?.sink.heartbeatDetails?.());
  const stop = startHeartbeatPulse(beat);
  try {
    // The loop body cannot throw (side channels are guarded), so whatever the loop throws is the provider's.
    const chunks = provider.stream(request, context.cancellationSignal);
    for await (const chunk of scrubModelStream(chunks, scrubbers.output)) {
      sideChannel(beat);
      if (chunk.type === "text_delta") sideChannel(() => publisher?.push("text", chunk.text));
      else if (chunk.type === "reasoning_delta") sideChannel(() => publisher?.push("reasoning", chunk.text));
      else if (chunk.type === "message_done") {
        // Deltas are stored before the workflow learns the call completed, so clients see them first; when
        // they cannot be stored within a short deadline the call completes anyway (the final message has all).
        if (publisher) await endPublisher(publisher);
        const { message, usage, stopReason } = chunk;
        const completedAt = Date.now();
        return stopReason ? { message, usage, stopReason, completedAt } : { message, usage, completedAt };
      }
    }
  } catch (error) {
    if (error instanceof ApplicationFailure) throw error;
    if (isAbortError(error) && context.cancellationSignal.aborted) throw error;
    throw providerFailure(error);
  } finally {
    stop();
    await publisher?.close();
  }
  throw providerFailure(new Error("model stream ended without a message_done chunk"));
}

/** Runs a side-channel step; its failure is logged, never thrown into the model call. */
function sideChannel(step: () => void): void {
  try {
    step();
  } catch (error) {
    log.warn("live output side channel failed (the model call goes on)", { error: errorMessage(error) });
  }
}

async function endPublisher(publisher: DeltaPublisher): Promise<void> {
  const delivered = await publisher.end().catch(() => false);
  const stats = publisher.stats();
  if (delivered && stats.failedSends === 0 && stats.droppedChars === 0) return;
  log.warn("live output was not fully delivered; the client gets the final message", {
    delivered,
    failedSends: stats.failedSends,
    droppedChars: stats.droppedChars,
    lostChars: stats.lostChars,
    lastError: stats.lastError === undefined ? undefined : errorMessage(stats.lastError),
  });
}

function openPublisher(
  transport: DeltaTransport,
  input: CallModelInput,
): { publisher: DeltaPublisher; sink: DeltaSink } | undefined {
  const info = Context.current().info;
  const sessionId = info.workflowExecution?.workflowId ?? "";
  const origin = { key: input.requestKey, attempt: info.attempt };
  try {
    const sink = transport.sink(sessionId, origin);
    const options = { batchMs: transport.batchMs, endMarker: transport.endMarker };
    return { publisher: new DeltaPublisher(sink, origin, options), sink };
  } catch (error) {
    log.warn("live output unavailable for this model call", { error: errorMessage(error) });
    return undefined;
  }
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

/** The latest request of each run this worker served: the next call of the run travels as a change of it. */
const requests = new RequestCache();

/** How long the activity keeps asking for its request while the session cannot answer (its worker died). */
const REQUEST_QUERY_PATIENCE_MS = 60_000;
const REQUEST_QUERY_DEADLINE_MS = 5_000;

/**
 * Reads the in-flight request from the workflow that scheduled this activity. A session whose workflow task is
 * held by a dead worker (or a server that is restarting) cannot answer for a while: that is asked again, with
 * heartbeats, instead of failing an attempt of the model call.
 */
async function fetchRequest(key: string): Promise<ModelRequest> {
  const context = Context.current();
  const started = Date.now();
  for (let pause = 250; ; pause = Math.min(pause * 2, 4_000)) {
    try {
      return await queryRequest(key);
    } catch (error) {
      if (error instanceof ApplicationFailure || Date.now() - started > REQUEST_QUERY_PATIENCE_MS)
        throw error;
      context.heartbeat();
      await context.sleep(pause);
    }
  }
}

async function queryRequest(key: string): Promise<ModelRequest> {
  const context = Context.current();
  const workflowId = context.info.workflowExecution?.workflowId;
  if (!workflowId)
    throw ApplicationFailure.nonRetryable(
      "callModel must run inside a session workflow",
      FAILURE_TYPES.requestUnavailable,
    );
  const handle = context.client.workflow.getHandle(workflowId);
  const request = await context.client.connection.withDeadline(Date.now() + REQUEST_QUERY_DEADLINE_MS, () =>
    handle.query(modelRequestQuery, key),
  );
  // Absent only if the workflow moved on (the call was cancelled); a retry will not bring it back.
  if (!request)
    throw ApplicationFailure.nonRetryable(
      `model request ${key} is no longer in flight`,
      FAILURE_TYPES.requestUnavailable,
    );
  return request;
}
