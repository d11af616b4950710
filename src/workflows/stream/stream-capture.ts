import { proxySinks, workflowInfo } from "@temporalio/workflow";
import { STREAM_CAPTURE_REPLAY, type StreamCaptureSinks } from "../../wire/stream-capture.js";
import type { StreamEntry } from "../../contract/stream/stream-entry.js";

const { liteAgentStreamCapture } = proxySinks<StreamCaptureSinks>();

/** Reports one appended stream entry to the stream reader's replayer. */
export type StreamCapture = (offset: number, entry: StreamEntry) => void;

/**
 * The capture of session stream entries, only on the stream reader's replayer (`readEntriesFromHistory`), else
 * undefined: a sink call adds no command and workers' own replays skip it. Offsets are deterministic, so what the
 * replayer appends in a history's last task (maybe run as not replaying) is what the session appended there.
 */
export function streamCapture(): StreamCapture | undefined {
  if (!workflowInfo().taskQueue.startsWith(STREAM_CAPTURE_REPLAY)) return undefined;
  return (offset, entry) => liteAgentStreamCapture.published(offset, entry);
}
