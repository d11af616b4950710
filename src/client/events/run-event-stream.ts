import type { Client } from "@temporalio/client";
import { EVENTS_TOPIC } from "../../contract/stream/stream-entry.js";
import { toWireEvent } from "../../wire/wire-conversion.js";
import type { AgentEvent, RunResult } from "../../kernel/vocabulary/events.js";
import { runSummaryQuery } from "../../contract/messages.js";
import { mergeExternalDeltas, type MergeInput, type MergeSource } from "./external-delta-merge.js";
import { parseToolEventId } from "./place-tool-events.js";
import { SessionStreamReader } from "./session-stream-reader.js";
import type { StreamHistoryOptions } from "./stream-history.js";
import type { ExternalDeltaSource } from "../../stream/external-delta-source.js";
import type { DurableEvent, SessionStreamItem } from "./durable-event.js";

export type { ExternalDeltaSource };
export type { DurableEvent, SessionStreamItem } from "./durable-event.js";

/** Where to resume: the last offset seen plus one, and the last `deltaId` seen (model output or a tool's event). */
export interface EventStreamPosition {
  fromOffset?: number;
  fromDeltaId?: string;
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

/**
 * The reader's items, and the run's end when an `events_lost` range took it: once the run has finished (its summary
 * says so) and nothing of it follows the lost range (the next entry is another run's, or there is none), a `done`
 * made from the run's summary follows the `events_lost`, at its offset, so the reader still ends.
 */
export async function* withLostRunEnd(
  temporal: Client,
  reader: SessionStreamReader,
  runId: string,
): AsyncGenerator<MergeInput> {
  let lostEnd: { event: AgentEvent; offset: number } | undefined;
  const endItem = (end: { event: AgentEvent; offset: number }): MergeInput => ({
    kind: "event",
    item: { topic: EVENTS_TOPIC, offset: end.offset, entry: { runId, event: toWireEvent(end.event) } },
  });
  for await (const input of reader.items) {
    if (input.kind !== "event") {
      yield input;
      continue;
    }
    const { offset, entry } = input.item;
    if (lostEnd && entry.event.type !== "events_lost") {
      if (entry.runId !== runId) return yield endItem(lostEnd);
      lostEnd = undefined;
    }
    yield input;
    if (entry.event.type !== "events_lost") continue;
    const finished = await finishedRun(temporal, reader.sessionId, runId);
    if (!finished) continue;
    lostEnd = { event: finished.event, offset };
    if (reader.logEnd <= entry.event.to) return yield endItem(lostEnd);
  }
  if (lostEnd) yield endItem(lostEnd);
  if (reader.failure !== undefined) throw reader.failure;
}

/**
 * The events of one run, read with the session's `readStream` query (nothing is added to history), merged in
 * order with live output from the model activities' heartbeats or from an external transport, and deduplicated
 * across activity retries. Follows continue-as-new. Returns the run's result, or undefined if the session ended first.
 */
export async function* runEventStream(
  temporal: Client,
  sessionId: string,
  runId: string,
  position: EventStreamPosition,
  external?: ExternalDeltaSource,
  clientClosed?: AbortSignal,
  history?: StreamHistoryOptions,
): AsyncGenerator<DurableEvent, RunResult | undefined> {
  const fromOffset = position.fromOffset ?? 0;
  // The last live output seen may be a tool's event (its id resumes the tool events); model output resumes after a
  // model output id only (a tool event comes between model calls: no call's text was open then).
  const fromModelOutput =
    position.fromDeltaId !== undefined && !parseToolEventId(position.fromDeltaId)
      ? position.fromDeltaId
      : undefined;
  const reader = new SessionStreamReader(temporal, sessionId, {
    from: fromOffset,
    withDeltas: !external,
    fromDeltaId: position.fromDeltaId,
    clientClosed,
    history,
  });
  const ordered = withLostRunEnd(temporal, reader, runId);
  const stop = () => reader.stop();
  const source: MergeSource = external
    ? {
        items: eventsOnly(ordered),
        readDeltas: (signal) => external.read(sessionId, fromModelOutput, signal),
        stop,
      }
    : { ordered, stop };
  return yield* mergeExternalDeltas(source, runId, fromModelOutput !== undefined, fromModelOutput);
}

async function* eventsOnly(inputs: AsyncIterable<MergeInput>): AsyncGenerator<SessionStreamItem> {
  for await (const input of inputs) if (input.kind === "event") yield input.item;
}
