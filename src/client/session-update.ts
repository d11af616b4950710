import type { Client } from "@temporalio/client";
import type { UpdateDefinition } from "@temporalio/common";
import { boundaryWhenStuck, updateWithRetry } from "../runtime/update-with-retry.js";

/**
 * Sends an update to the session (or subagent session) `target` with {@link updateWithRetry}: again while the
 * session refuses it as busy, with a `taskBoundary` signal when two refusals came with no new event between them.
 */
export function updateSession<Ret, Args extends unknown[]>(
  temporal: Client,
  target: string,
  definition: UpdateDefinition<Ret, Args>,
  args: Args,
  updateId?: string,
): Promise<Ret> {
  const handle = temporal.workflow.getHandle(target);
  return updateWithRetry(
    // The SDK types an update's arguments by two overloads (none, or at least one); any list goes through as is.
    (id) =>
      handle.executeUpdate(definition as unknown as UpdateDefinition<Ret, [unknown]>, {
        args: args as unknown as [unknown],
        updateId: id,
      }),
    boundaryWhenStuck(handle),
    updateId,
  );
}
