import { Context } from "@temporalio/activity";
import { LiveOutputWindow } from "./live-output-window.js";
import type { DeltaSink } from "./stream-delta.js";

/**
 * The Temporal-native transport: each batch goes into the attempt's {@link LiveOutputWindow} and out as the model
 * activity's heartbeat details, which no history event records (docs/decisions/0019); clients read them by
 * describing the session. Create it inside the model activity.
 */
export function heartbeatDeltaSink(origin: { key: string; attempt: number }): DeltaSink {
  const context = Context.current();
  const window = new LiveOutputWindow(origin);
  return {
    async send(deltas) {
      window.add(deltas);
      context.heartbeat(window.snapshot());
    },
    heartbeatDetails: () => window.snapshot(),
    close: async () => undefined,
  };
}
