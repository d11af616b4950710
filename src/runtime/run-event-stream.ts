import type { Client } from "@temporalio/client";
import type { EVENTS_TOPIC, StreamEntry } from "../common/wire-event.js";
import type { AgentEvent, RunResult } from "../kernel/events.js";
import type { StreamDelta } from "../stream/stream-delta.js";
import { runSummaryQuery } from "../workflows/messages.js";
import { mergeExternalDeltas, type MergeInput, type MergeSource } from "./external-delta-merge.js";
import { SessionStreamReader } from "./session-stream-reader.js";

/** An event of a durable run, with its place in the session stream (resume from `offset + 1`). */
export type DurableEvent = AgentEvent & { offset: number; runId: string; deltaId?: string };

/** How a client reads live deltas that do not come from the session itself (Redis). */
export interface ExternalDeltaSource {
  /** Deltas of the session after `fromId` (exclusive), each with its id, as they arrive, until `signal` aborts. */
  read(
    sessionId: string,
    fromId: string | undefined,
    signal: AbortSignal,
  ): AsyncIterable<{ id: string; delta: StreamDelta }>;
}

/** Where to resume: the last offset seen plus one, and the last delta id seen. */
export interface EventStreamPosition {
  fromOffset?: number;
  fromDeltaId?: string;
}

/** One entry of the session stream, decoded. */
export type SessionStreamItem = { topic: typeof EVENTS_TOPIC; offset: number; entry: StreamEntry };

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

/**
 * The reader's items, where entries were dropped before the reader got them (a reader that lagged far behind)
 * with a finished run's outcome from its summary instead, so the reader still ends.
 */
async function* withLostEntriesSummarised(
  temporal: Client,
  reader: SessionStreamReader,
  runId: string,
  fromOffset: number,
): AsyncGenerator<MergeInput> {
  let expected = fromOffset;
  for await (const input of reader.items) {
    if (input.kind === "event") {
      const item = input.item;
      if (item.offset > expected) {
        const finished = await finishedRun(temporal, reader.sessionId, runId);
        if (finished) {
          const event = {
            type: "done" as const,
            reason: finished.result.stopReason,
            result: finished.result,
          };
          yield { kind: "event", item: { ...item, entry: { runId, event } } };
          return;
        }
      }
      expected = item.offset + 1;
    }
    yield input;
  }
  if (reader.failure !== undefined) throw reader.failure;
}

/**
 * The events of one run, read with the session's `readStream` query (nothing is added to history), merged in
 * order with live output from the session or from an external transport, and deduplicated across activity
 * retries. Follows continue-as-new. Unless `wakeAtRunEnd` is false, the session wakes the reader at the run's end
 * (`awaitRunEnd`). Returns the run's result, or undefined if the session ended first.
 */
export async function* runEventStream(
  temporal: Client,
  sessionId: string,
  runId: string,
  position: EventStreamPosition,
  external?: ExternalDeltaSource,
  clientClosed?: AbortSignal,
  wakeAtRunEnd = true,
): AsyncGenerator<DurableEvent, RunResult | undefined> {
  const fromOffset = position.fromOffset ?? 0;
  const reader = new SessionStreamReader(temporal, sessionId, {
    from: fromOffset,
    withDeltas: !external,
    fromDeltaId: position.fromDeltaId,
    clientClosed,
    wakeAtEndOf: wakeAtRunEnd ? runId : undefined,
  });
  const ordered = withLostEntriesSummarised(temporal, reader, runId, fromOffset);
  const stop = () => reader.stop();
  const source: MergeSource = external
    ? {
        items: eventsOnly(ordered),
        readDeltas: (signal) => external.read(sessionId, position.fromDeltaId, signal),
        stop,
      }
    : { ordered, stop };
  return yield* mergeExternalDeltas(source, runId, position.fromDeltaId !== undefined);
}

async function* eventsOnly(inputs: AsyncIterable<MergeInput>): AsyncGenerator<SessionStreamItem> {
  for await (const input of inputs) if (input.kind === "event") yield input.item;
}
