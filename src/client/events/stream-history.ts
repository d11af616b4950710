import { WorkflowNotFoundError, type Client } from "@temporalio/client";
import type { temporal } from "@temporalio/proto";
import type { InjectedSinks } from "@temporalio/worker";
import { REPLAYING_A_HISTORY, temporalWorker } from "../../runtime/temporal-worker.js";
import { STREAM_CAPTURE_REPLAY, type StreamCaptureSinks } from "../../wire/stream-capture.js";
import type { StreamEntry } from "../../contract/stream/stream-entry.js";
import type { LoggedEntry } from "../../contract/stream/stream-entry.js";
import { unknownMiddlewareIn } from "../../kernel/middleware/durable-middleware.js";
import type { ConversationAtTurnOptions } from "./conversation-at-turn.js";
import { StreamHistoryError } from "./stream-history-error.js";
import { loadWorkflowBundle } from "../../worker/workflow-bundle.js";

type History = temporal.api.history.v1.IHistory;

/** A range of stream offsets, `to` exclusive. */
export interface OffsetRange {
  from: number;
  to: number;
}

/** What the histories hold of a range: its entries, and the ranges whose history is gone (deleted by retention). */
export interface HistoryEntries {
  items: LoggedEntry[];
  lost: OffsetRange[];
}

/** Options of {@link readEntriesFromHistory}: what any replay of a session's histories needs, as for a fork. */
export type StreamHistoryOptions = ConversationAtTurnOptions;

/**
 * The entries of a session's stream in `range`, for a reader that fell behind what the session keeps: its executions
 * are replayed newest first (the current one last, if needed) against the current workflow code, which reports what
 * each appends, to `range.from`. Gone history comes back as `lost`; a failed replay throws {@link StreamHistoryError}.
 */
export async function readEntriesFromHistory(
  client: Client,
  sessionId: string,
  range: OffsetRange,
  options: StreamHistoryOptions = {},
): Promise<HistoryEntries> {
  const found = new Map<number, StreamEntry>();
  let earliest = Number.POSITIVE_INFINITY;
  const sinks: InjectedSinks<StreamCaptureSinks> = {
    liteAgentStreamCapture: {
      published: {
        fn: (_info, offset, entry) => {
          earliest = Math.min(earliest, offset);
          if (offset >= range.from && offset < range.to) found.set(offset, entry);
        },
        callDuringReplay: true,
      },
    },
  };
  const current = (await client.workflow.getHandle(sessionId).describe()).runId;
  // Pulled one at a time, after the previous one replayed: each step decides from what the replays found so far.
  async function* histories(): AsyncGenerator<{ history: History; workflowId: string }> {
    let runId = await continuedFrom(client, sessionId, current);
    while (runId !== undefined && earliest > range.from) {
      const history = await historyOf(client, sessionId, runId);
      if (!history) break;
      yield { history, workflowId: sessionId };
      runId =
        history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
    }
    if (found.size === range.to - range.from) return;
    const history = await historyOf(client, sessionId, current);
    if (history) yield { history, workflowId: sessionId };
  }
  const replays = temporalWorker(REPLAYING_A_HISTORY).Worker.runReplayHistories(
    {
      workflowBundle: await loadWorkflowBundle({ modules: options.workflowModules ?? [] }),
      sinks,
      replayName: STREAM_CAPTURE_REPLAY,
      ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
    },
    histories(),
  );
  for await (const { error } of replays) {
    if (error)
      throw new StreamHistoryError(
        `reading the earlier events of session '${sessionId}' from its history failed: ${whyNotReplayed(error)}`,
        { cause: error },
      );
  }
  return collect(found, range);
}

/** Why a replay failed, in the reader's terms when the agent's own middleware is not in the replay's code. */
function whyNotReplayed(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const id = unknownMiddlewareIn(message);
  if (id === undefined) return message;
  return (
    `the session runs middleware '${id}' from a defineMiddleware module, which reading its history replays: ` +
    "pass the modules its workers bundle as the client's `workflowModules` (e.g. workflowModulesOf(agents))"
  );
}

/** The run the execution `runId` continued as new from, if any (from its first history event only). */
async function continuedFrom(client: Client, sessionId: string, runId: string): Promise<string | undefined> {
  const page = await client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution: { workflowId: sessionId, runId },
    maximumPageSize: 1,
  });
  const started = page.history?.events?.[0]?.workflowExecutionStartedEventAttributes;
  return started?.continuedExecutionRunId || undefined;
}

/** One execution's history; undefined when it is gone (deleted by retention, or by hand). */
async function historyOf(client: Client, sessionId: string, runId: string): Promise<History | undefined> {
  try {
    return await client.workflow.getHandle(sessionId, runId).fetchHistory();
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

function isNotFound(error: unknown): boolean {
  if (error instanceof WorkflowNotFoundError) return true;
  return (error as { code?: unknown } | null)?.code === 5; // gRPC NOT_FOUND
}

/** The entries found in `range`, in order, and the ranges of offsets not found. */
function collect(found: Map<number, StreamEntry>, range: OffsetRange): HistoryEntries {
  const items: LoggedEntry[] = [];
  const lost: OffsetRange[] = [];
  for (let offset = range.from; offset < range.to; offset++) {
    const entry = found.get(offset);
    if (entry) items.push({ offset, entry });
    else if (lost.at(-1)?.to === offset) lost.at(-1)!.to++;
    else lost.push({ from: offset, to: offset + 1 });
  }
  return { items, lost };
}
