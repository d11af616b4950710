import { WorkflowStreamClient } from "@temporalio/workflow-streams/client";
import { DEFAULT_BATCH_MS, DELTAS_TOPIC, type DeltaSink, type StreamDelta } from "./stream-delta.js";

/**
 * The Temporal-native transport: deltas go into the session workflow's own stream (a signal per batch), the
 * same offset-addressed log that carries the durable events, so a client reads both in order from one place.
 * Needs no other service. Must be created inside the model activity.
 */
export function temporalDeltaSink(): DeltaSink {
  // The publisher batches and flushes each send at once; the library's own timer only backs that up.
  const client = WorkflowStreamClient.fromWithinActivity({ batchInterval: DEFAULT_BATCH_MS });
  const topic = client.topic<StreamDelta>(DELTAS_TOPIC);
  return {
    async send(deltas) {
      for (const delta of deltas) topic.publish(delta);
      await client.flush();
    },
    close: () => client[Symbol.asyncDispose](),
  };
}
