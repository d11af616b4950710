import { proxySinks, workflowInfo } from "@temporalio/workflow";
import { STREAM_CAPTURE_REPLAY, type StreamCaptureSinks } from "../../wire/stream-capture.js";
import type { StreamEntry } from "../../contract/stream-entry.js";

const { liteAgentStreamCapture } = proxySinks<StreamCaptureSinks>();

/** Reports one appended stream entry to the stream reader's replayer. */
export type StreamCapture = (offset: number, entry: StreamEntry) => void;

/**
 * The capture of the session's stream entries, only on the stream reader's replayer (`readEntriesFromHistory`),
 * else undefined: a sink call adds no command, and a worker's own replays skip it (their task queue is never the
 * reader's), so workers pay nothing for it. Offsets are deterministic, so an entry the replayer appends in a
 * history's last task (which the SDK may run as not replaying) is the one the session appended there too.
 */
export function streamCapture(): StreamCapture | undefined {
  if (!workflowInfo().taskQueue.startsWith(STREAM_CAPTURE_REPLAY)) return undefined;
  return (offset, entry) => liteAgentStreamCapture.published(offset, entry);
}
