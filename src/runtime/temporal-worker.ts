import { createRequire } from "node:module";
import type * as TemporalWorker from "@temporalio/worker";
import { missingPackageOr } from "./optional-package.js";

/** What needs `@temporalio/worker` when it is a worker: `createWorker`, the CLI's `dev`, `worker` and the demo. */
export const RUNNING_A_WORKER = "Running a worker";

/** What needs `@temporalio/worker` to replay a session's history: `replay`, forks, reading events a session dropped. */
export const REPLAYING_A_HISTORY = "Replaying a session's history";

const require = createRequire(import.meta.url);

/**
 * `@temporalio/worker` (an optional peer dependency: its native core is most of a plain install), loaded where it is
 * used, so the main entry, `./client` and `./storage` load without it. Synchronous: the package is CommonJS, and the
 * module is the one `import` gives (Node shares CommonJS modules between both). Without the package, a
 * `MissingPackageError` naming `feature` and the `npm install` to run.
 */
export function temporalWorker(feature: string = RUNNING_A_WORKER): typeof TemporalWorker {
  try {
    return require("@temporalio/worker") as typeof TemporalWorker;
  } catch (error) {
    throw missingPackageOr(error, feature, ["@temporalio/worker"]);
  }
}
