import type { Client } from "@temporalio/client";
import { decodeFromPayloadsAtIndex } from "@temporalio/common/lib/internal-non-workflow/codec-helpers.js";
import type { ToolEventBatch } from "../../contract/stream/tool-event-batch.js";
import { LiveDeltas, type DeltaCursor } from "../../stream/live-deltas.js";
import { isLiveOutputSnapshot, snapshotDeltas } from "../../stream/live-output-window.js";
import type { StreamDelta } from "../../contract/stream/stream-delta.js";
import { isToolEventSnapshot } from "../../stream/tool-event-window.js";

/** The activities whose heartbeats carry live model output and tool events. */
const MODEL_ACTIVITY = "callModel";
const TOOL_ACTIVITY = "executeTool";

/** What one read of the session's pending activities brought. */
export interface LiveRead {
  /** Model output after the reader's cursor (none when the reader does not read model output here). */
  deltas: StreamDelta[];
  /** The window of events of each tool call in flight, as its last heartbeat carried it. */
  toolEvents: ToolEventBatch[];
}

/**
 * Reads what a session's in-flight activities heartbeat (model output, docs/decisions/0019; tool events, 0021) from
 * `DescribeWorkflowExecution`, not asking the worker; details are decoded with the client's converter, and those that
 * do not decode are skipped. Each read hands on the model output beyond its cursor and the tool events as windows.
 */
export class LiveOutputReader {
  private readonly live = new LiveDeltas();

  constructor(
    private readonly temporal: Client,
    private readonly sessionId: string,
    /** False when model output travels elsewhere (Redis): only tool events are read here. */
    private readonly withDeltas: boolean,
  ) {}

  /** The live output after `cursor` of the model calls in flight now, and the tool events of the tool calls. */
  async read(cursor: DeltaCursor): Promise<LiveRead> {
    const { raw } = await this.temporal.workflow.getHandle(this.sessionId).describe();
    const toolEvents: ToolEventBatch[] = [];
    for (const activity of raw.pendingActivities ?? []) {
      const type = activity.activityType?.name;
      if (type !== TOOL_ACTIVITY && !(this.withDeltas && type === MODEL_ACTIVITY)) continue;
      const details = await this.decode(
        activity.heartbeatDetails?.payloads,
        activity.activityId ?? undefined,
      );
      if (isLiveOutputSnapshot(details)) this.live.store(snapshotDeltas(details));
      else if (isToolEventSnapshot(details)) toolEvents.push(details.toolEvents);
    }
    return { deltas: this.withDeltas ? this.live.read(cursor) : [], toolEvents };
  }

  private async decode(
    payloads: Parameters<typeof decodeFromPayloadsAtIndex>[2],
    activityId: string | undefined,
  ): Promise<unknown> {
    if (!payloads?.length) return undefined;
    const context = {
      type: "activity" as const,
      namespace: this.temporal.options.namespace,
      workflowId: this.sessionId,
      isLocal: false,
      ...(activityId ? { activityId } : {}),
    };
    return decodeFromPayloadsAtIndex(this.temporal.options.loadedDataConverter, 0, payloads, context).catch(
      () => undefined,
    );
  }
}
