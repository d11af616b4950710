import type { Client } from "@temporalio/client";
import { decodeFromPayloadsAtIndex } from "@temporalio/common/lib/internal-non-workflow/codec-helpers.js";
import { LiveDeltas, type DeltaCursor } from "../stream/live-deltas.js";
import { isLiveOutputSnapshot, snapshotDeltas } from "../stream/live-output-window.js";
import type { StreamDelta } from "../stream/stream-delta.js";

/** The activity whose heartbeats carry live model output. */
const MODEL_ACTIVITY = "callModel";

/**
 * Reads the live output of a session's model calls where the Temporal-native transport puts it: in the heartbeat
 * details of its pending `callModel` activities, which `DescribeWorkflowExecution` returns (docs/decisions/0019).
 * The session's worker is not asked. Details are decoded with the client's data converter (its payload codecs),
 * as the worker encoded them; details that do not decode or are not live output are skipped (the final message
 * still comes). Each read hands on what goes beyond the reader's cursor.
 */
export class LiveOutputReader {
  private readonly live = new LiveDeltas();

  constructor(
    private readonly temporal: Client,
    private readonly sessionId: string,
  ) {}

  /** The live output after `cursor` of the model calls in flight now (and of the last few this reader saw). */
  async read(cursor: DeltaCursor): Promise<StreamDelta[]> {
    const { raw } = await this.temporal.workflow.getHandle(this.sessionId).describe();
    for (const activity of raw.pendingActivities ?? []) {
      if (activity.activityType?.name !== MODEL_ACTIVITY) continue;
      const snapshot = await this.decode(
        activity.heartbeatDetails?.payloads,
        activity.activityId ?? undefined,
      );
      if (isLiveOutputSnapshot(snapshot)) this.live.store(snapshotDeltas(snapshot));
    }
    return this.live.read(cursor);
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
