import type { WorkerDeploymentVersion } from "@temporalio/common";
import type { WorkerOptions } from "@temporalio/worker";

/** The environment variables that name a worker's deployment version (those Temporal's Worker Controller sets). */
export const DEPLOYMENT_NAME_ENV = "TEMPORAL_DEPLOYMENT_NAME";
export const BUILD_ID_ENV = "TEMPORAL_WORKER_BUILD_ID";

/**
 * The deployment version named by `TEMPORAL_DEPLOYMENT_NAME` and `TEMPORAL_WORKER_BUILD_ID`, or undefined when
 * neither is set. One without the other is a mistake, reported as such.
 */
export function deploymentFromEnv(env: NodeJS.ProcessEnv = process.env): WorkerDeploymentVersion | undefined {
  return deploymentVersion(env[DEPLOYMENT_NAME_ENV], env[BUILD_ID_ENV]);
}

/** A deployment version from its two parts, or undefined when both are absent; throws when only one is given. */
export function deploymentVersion(
  deploymentName: string | undefined,
  buildId: string | undefined,
): WorkerDeploymentVersion | undefined {
  if (!deploymentName && !buildId) return undefined;
  if (!deploymentName || !buildId)
    throw new TypeError(
      `a worker deployment version needs both a deployment name (${DEPLOYMENT_NAME_ENV}, --deployment-name) and a build id (${BUILD_ID_ENV}, --build-id)`,
    );
  return { deploymentName, buildId };
}

/**
 * Temporal worker options for a deployment version: versioning on, session workflows pinned to their start version
 * (they move at continue-as-new once another is their target); none without a version. Pinned is the worker's default,
 * not declared on the workflow: the SDK fails a workflow that declares it on an unversioned worker.
 */
export function deploymentWorkerOptions(
  version: WorkerDeploymentVersion | undefined,
): Pick<WorkerOptions, "workerDeploymentOptions"> {
  if (!version) return {};
  return {
    workerDeploymentOptions: { useWorkerVersioning: true, version, defaultVersioningBehavior: "PINNED" },
  };
}
