import type { Client } from "@temporalio/client";
import type { UpdateDefinition } from "@temporalio/common";
import { UpdateLanes } from "../runtime/update-lanes.js";
import { boundaryWhenStuck, updateWithRetry } from "../runtime/update-with-retry.js";

/**
 * Each Temporal client's lanes: one update at a time per session, in call order. A session admits one update per
 * workflow task anyway, so more in flight only meet its busy refusals and the server's in-flight update limit.
 */
const lanesByClient = new WeakMap<Client, UpdateLanes>();

/**
 * Sends an update to the session (or subagent session) `target` with {@link updateWithRetry}, after this client's
 * earlier updates to it: again while the session refuses it as busy (a `taskBoundary` signal when two refusals came
 * with no new event between them) or the server pushes it back, always with the same update id.
 */
export function updateSession<Ret, Args extends unknown[]>(
  temporal: Client,
  target: string,
  definition: UpdateDefinition<Ret, Args>,
  args: Args,
  updateId?: string,
): Promise<Ret> {
  const handle = temporal.workflow.getHandle(target);
  const send = () =>
    updateWithRetry(
      // The SDK types an update's arguments by two overloads (none, or at least one); any list goes through as is.
      (id) =>
        handle.executeUpdate(definition as unknown as UpdateDefinition<Ret, [unknown]>, {
          args: args as unknown as [unknown],
          updateId: id,
        }),
      boundaryWhenStuck(handle),
      updateId,
    );
  return lanesOf(temporal).run(target, send);
}

function lanesOf(temporal: Client): UpdateLanes {
  let lanes = lanesByClient.get(temporal);
  if (!lanes) lanesByClient.set(temporal, (lanes = new UpdateLanes()));
  return lanes;
}
