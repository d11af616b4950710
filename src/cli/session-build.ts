import { decodeVersioningBehavior } from "@temporalio/common";
import type { WorkflowHandle } from "@temporalio/client";
import { toSessionError } from "../client/client-errors.js";

/**
 * The worker build the session's current execution runs on, as `<deployment>:<build id>, pinned`, or undefined when
 * its workers are unversioned. Fails as the client's `describe` does (`describe: session 'x' not found`), so a command
 * making both calls at once says the same whichever fails first.
 */
export async function sessionBuild(handle: WorkflowHandle): Promise<string | undefined> {
  const { raw } = await handle.describe().catch((error: unknown) => {
    throw toSessionError(error, handle.workflowId, "describe");
  });
  const info = raw.workflowExecutionInfo?.versioningInfo;
  const version = info?.deploymentVersion;
  if (!version?.buildId) return undefined;
  const behavior = decodeVersioningBehavior(info?.behavior);
  const how = behavior ? `, ${behavior.toLowerCase().replace("_", "-")}` : "";
  return `${version.deploymentName}:${version.buildId}${how}`;
}
