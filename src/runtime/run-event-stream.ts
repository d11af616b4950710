import { Client, Connection } from "@temporalio/client";
import { defaultPayloadConverter } from "@temporalio/common";
import { WorkflowStreamClient } from "@temporalio/workflow-streams/client";
import { EVENTS_TOPIC, fromWireEvent, type StreamEntry } from "../common/wire-event.js";
import type { AgentEvent, RunResult } from "../kernel/events.js";
import { DeltaDeduper } from "../stream/delta-deduper.js";
import { DELTAS_TOPIC, deltaOfRun, type StreamDelta } from "../stream/stream-delta.js";
import { mergeExternalDeltas } from "./external-delta-merge.js";
import { runSummaryQuery } from "../workflows/messages.js";

/** An event of a durable run, with its place in the session stream (resume from `offset + 1`). */
export type DurableEvent = AgentEvent & { offset: number; runId: string; deltaId?: string };

/** How a client reads live deltas that do not travel in the workflow stream (Redis). */
export interface ExternalDeltaSource {
  /** Deltas of the session after `fromId` (exclusive), each with its id, as they arrive, until `signal` aborts. */
  read(
    sessionId: string,
    fromId: string | undefined,
    signal: AbortSignal,
  ): AsyncIterable<{ id: string; delta: StreamDelta }>;
}

/** Where to resume: the last offset seen plus one, and (Redis transport) the last delta id seen. */
export interface EventStreamPosition {
  fromOffset?: number;
  fromDeltaId?: string;
}

/**
 * The pause between polls that returned. Live deltas come in batches at most 50 ms apart anyway; the pause lets one
 * poll collect what several workflow activations published, which halves the poll updates (and workflow tasks).
 */
const POLL_COOLDOWN = "25 milliseconds";

/**
 * The durable events on a connection of their own, so the pending long poll ends when the run's reader is done
 * (closing the connection is the only way to stop it).
 */
async function dedicatedEventStream(temporal: Client, sessionId: string, fromOffset: number) {
  if (!(temporal.connection instanceof Connection)) {
    return {
      items: sessionStream(temporal, sessionId, [EVENTS_TOPIC], fromOffset),
      stop: async () => undefined,
    };
  }
  const connection = await Connection.connect(temporal.connection.options);
  const client = new Client({ connection, namespace: temporal.options.namespace });
  return {
    items: sessionStream(client, sessionId, [EVENTS_TOPIC], fromOffset),
    stop: () => connection.close(),
  };
}

/** The outcome of a finished run from the session's summaries, as a `done` event (its messages are not kept). */
async function finishedRun(
  temporal: Client,
  sessionId: string,
  runId: string,
): Promise<{ event: AgentEvent; result: RunResult } | undefined> {
  const summary = await temporal.workflow
    .getHandle(sessionId)
    .query(runSummaryQuery, runId)
    .catch(() => undefined);
  if (!summary) return undefined;
  const result: RunResult = {
    messages: [],
    text: summary.text,
    usage: summary.usage,
    stopReason: summary.stopReason as RunResult["stopReason"],
  };
  return { event: { type: "done", reason: result.stopReason, result }, result };
}

/** One entry of the session stream, decoded. */
export type SessionStreamItem =
  | { topic: typeof EVENTS_TOPIC; offset: number; entry: StreamEntry }
  | { topic: typeof DELTAS_TOPIC; offset: number; delta: StreamDelta };

/** Reads the session stream from an offset, following continue-as-new. */
export async function* sessionStream(
  temporal: Client,
  sessionId: string,
  topics: string[],
  fromOffset: number,
): AsyncGenerator<SessionStreamItem> {
  const stream = WorkflowStreamClient.create(temporal, sessionId);
  for await (const item of stream.subscribe(topics, fromOffset, { pollCooldown: POLL_COOLDOWN })) {
    const data = defaultPayloadConverter.fromPayload<unknown>(item.data);
    if (item.topic === DELTAS_TOPIC)
      yield { topic: DELTAS_TOPIC, offset: item.offset, delta: data as StreamDelta };
    else yield { topic: EVENTS_TOPIC, offset: item.offset, entry: data as StreamEntry };
  }
}

/**
 * The events of one run. With the Temporal-native transport, durable events and live deltas come from one
 * offset-addressed log, in order; with an external transport they are merged. Deltas are deduplicated across
 * activity retries. Returns the run's result, or undefined if the session ended first.
 */
export async function* runEventStream(
  temporal: Client,
  sessionId: string,
  runId: string,
  position: EventStreamPosition,
  external?: ExternalDeltaSource,
): AsyncGenerator<DurableEvent, RunResult | undefined> {
  const fromOffset = position.fromOffset ?? 0;
  if (external) {
    const events = await dedicatedEventStream(temporal, sessionId, fromOffset);
    const readDeltas = (signal: AbortSignal) => external.read(sessionId, position.fromDeltaId, signal);
    return yield* mergeExternalDeltas(events, readDeltas, runId, position.fromDeltaId !== undefined);
  }
  const deduper = new DeltaDeduper();
  let expected = fromOffset;
  for await (const item of sessionStream(temporal, sessionId, [EVENTS_TOPIC, DELTAS_TOPIC], fromOffset)) {
    if (item.offset > expected) {
      // Entries were truncated (the session continued as new): if the run is over, its summary is the end.
      const finished = await finishedRun(temporal, sessionId, runId);
      if (finished) {
        yield { ...finished.event, offset: item.offset, runId };
        return finished.result;
      }
    }
    expected = item.offset + 1;
    if (item.topic === DELTAS_TOPIC) {
      if (!deltaOfRun(item.delta, runId)) continue;
      for (const event of deduper.accept(item.delta)) yield { ...event, offset: item.offset, runId };
      continue;
    }
    if (item.entry.runId !== runId) continue;
    const event = fromWireEvent(item.entry.event);
    yield { ...event, offset: item.offset, runId };
    if (event.type === "done") return event.result;
  }
  return undefined;
}
