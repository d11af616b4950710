import { describe, expect, it } from "vitest";
import {
  deploymentFromEnv,
  deploymentVersion,
  deploymentWorkerOptions,
} from "../../../src/worker/worker-deployment.js";

describe("worker deployment version", () => {
  it("reads TEMPORAL_DEPLOYMENT_NAME and TEMPORAL_WORKER_BUILD_ID, and is absent when neither is set", () => {
    expect(deploymentFromEnv({ TEMPORAL_DEPLOYMENT_NAME: "agents", TEMPORAL_WORKER_BUILD_ID: "b7" })).toEqual(
      {
        deploymentName: "agents",
        buildId: "b7",
      },
    );
    expect(deploymentFromEnv({})).toBeUndefined();
    expect(deploymentVersion("", "")).toBeUndefined();
  });

  it("refuses one part without the other", () => {
    expect(() => deploymentFromEnv({ TEMPORAL_WORKER_BUILD_ID: "b7" })).toThrow(
      /needs both a deployment name \(TEMPORAL_DEPLOYMENT_NAME, --deployment-name\) and a build id/,
    );
    expect(() => deploymentVersion("agents", undefined)).toThrow(/TEMPORAL_WORKER_BUILD_ID, --build-id/);
  });

  it("turns versioning on with pinned sessions for a version, and adds nothing without one", () => {
    expect(deploymentWorkerOptions({ deploymentName: "agents", buildId: "b7" })).toEqual({
      workerDeploymentOptions: {
        useWorkerVersioning: true,
        version: { deploymentName: "agents", buildId: "b7" },
        defaultVersioningBehavior: "PINNED",
      },
    });
    expect(deploymentWorkerOptions(undefined)).toEqual({});
  });
});
