import { configDefaults, defineConfig } from "vitest/config";
import { REPLAY_MODE_VARIABLE, replayMode } from "./test/support/forced-replay.mjs";
import LongestFirst from "./test/support/longest-first.js";

/**
 * Last, once every other test has ended: the replay of every history the run's tests wrote on the suite's dev
 * server, cut at every workflow task boundary (test/support/replay-at-every-cut.ts), and beside it the chaos test,
 * which kills and restarts workers on a dev server of its own and replays what they wrote itself. Both take minutes
 * mostly on their own; together they keep both cores busy.
 */
const RUN_LAST = ["test/e2e/every-history-replays.test.ts", "test/e2e/chaos.test.ts"];

/** The suites a forced replay mode is for: those that run workflows. */
const REPLAYED = ["test/workflow/**/*.test.ts", "test/replay/**/*.test.ts", "test/e2e/**/*.test.ts"];

/**
 * Unit tests: in one process, one file after another, sharing the modules they import. Each needs a fraction of a
 * second; a process and a fresh import of the SDK per file would cost them more than their tests, on the cores the
 * end-to-end tests need. None of them mocks modules or changes the process's environment.
 */
const UNIT = ["test/unit/**/*.test.ts", "test/storage/**/*.test.ts", "test/lint/**/*.test.ts"];

/**
 * Tests left out of a forced replay mode (LITE_AGENT_TEST_REPLAY_MODE, test/support/forced-replay.mjs), with why:
 * - the promise count measures what the workflow code makes per turn against a hand-written loop; a mode changes
 *   how often both replay, so the figures it pins mean something else (it counts, it does not check behaviour);
 * - without the cache, each of the 2,000-turn run's thousands of workflow tasks replays its execution from the start
 *   (up to 2,000 events): far more replay than CI's time on two cores allows. Its histories are still replayed
 *   (test/e2e/every-history-replays.test.ts), and continue-as-new in the middle of runs still runs with the cache off
 *   in test/e2e/cancel-and-continue.test.ts;
 * - the reproduction of the SDK's buffered-query defect needs a worker that caches and a 100 ms sticky timeout of its
 *   own: without a cache there is nothing to reproduce, and the short-sticky mode forces what it sets already;
 * - the chaos test replays every execution its killed workers wrote, cut at every workflow task, itself; in a mode
 *   its workers would take the mode too, and its two speeds take minutes more than CI's time allows twice;
 * - the followed-streaming test sets a 100 ms sticky timeout of its own (it runs in the short-sticky pass): without a
 *   cache its eight followed sessions that stream fast replay far longer than its time (it ran out at 180 s);
 * - a burst of 1,000 updates into one session: without a cache each one replays the whole history (a second and a
 *   half each), so the burst that shows the client absorbing the server's pushback could not be sent;
 * - the bundle's own tests build and inspect the workflow code and start no worker: a mode changes nothing for them.
 */
const BUNDLE_ONLY = [
  "test/workflow/bundle.test.ts",
  "test/workflow/shared-modules.test.ts",
  "test/workflow/workflow-entry.test.ts",
];
const LEFT_OUT_OF_FORCED_REPLAY: Record<string, string[]> = {
  "no-cache": [
    "test/workflow/promises-per-turn.test.ts",
    "test/e2e/long-run.test.ts",
    "test/e2e/chaos.test.ts",
    "test/e2e/followed-streaming.test.ts",
    "test/workflow/sdk-buffered-query.test.ts",
    "test/e2e/update-bursts.test.ts",
    ...BUNDLE_ONLY,
  ],
  "short-sticky": [
    "test/workflow/promises-per-turn.test.ts",
    "test/workflow/sdk-buffered-query.test.ts",
    ...BUNDLE_ONLY,
  ],
};

/**
 * The mode a pass was started in (`.ci/run`'s short-sticky pass), or none (`npm test`). Without one, the suites run
 * with the workflow cache off (`no-cache`): every workflow task of every test replays its execution from the start,
 * at about the cost of a cached run (measured: 1,420 s of test files against 1,369 s); the files that mode leaves
 * out run with a cache beside them (CACHED).
 */
const passMode = replayMode();
const suiteMode = passMode ?? "no-cache";
const leftOut = LEFT_OUT_OF_FORCED_REPLAY[suiteMode] ?? [];
/** What a pass in a mode leaves out everywhere (none in npm test: there the cached projects run those files). */
const leftOutOfPass = passMode ? leftOut : [];
const CACHED = passMode ? [] : leftOut.filter((file) => !RUN_LAST.includes(file));
/** With the cache off the SDK may drop a run's plan (a local activity) in flight at each eviction, and the run waits
 * for its retry: a forced replay mode gives tests more time, not other checks. */
const FORCED_REPLAY_TIMEOUT_MS = 120_000;

export default defineConfig({
  test: {
    testTimeout: passMode ? FORCED_REPLAY_TIMEOUT_MS : 30_000,
    hookTimeout: 120_000,
    // What a test polls for comes from a real server and workers (a child's cancellation, a status), seconds away
    // under load or forced replay; vitest's default of 1 s failed the no-cache pass. Polls check that it happens.
    expect: { poll: { timeout: 20_000, interval: 100 } },
    pool: "forks",
    // Within each group, the longest files start first (test/support/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    exclude: [...configDefaults.exclude, ...leftOutOfPass],
    // Forced replay (LITE_AGENT_TEST_REPLAY_MODE): every worker a test process or its children start takes the mode's
    // options; without the variable it changes nothing. The suite project sets it (suiteMode).
    setupFiles: ["test/support/forced-replay.mjs"],
    // One Temporal dev server for the run, shared by every project (global-setup.ts counts its users).
    globalSetup: ["test/support/global-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          // The workflow, replay and end-to-end suites, in the pass's forced replay mode (no-cache in npm test).
          name: "replayed",
          include: REPLAYED,
          exclude: [...configDefaults.exclude, ...leftOut, ...RUN_LAST],
          env: { [REPLAY_MODE_VARIABLE]: suiteMode },
          testTimeout: FORCED_REPLAY_TIMEOUT_MS,
          // Most of a test's time is spent waiting on the server, timers and child processes: three files at a
          // time on two cores keep both busy (vitest's default here would be one).
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          // The rest (package, dev server, encryption, CLI processes) and what the mode leaves out, with a cache.
          name: "suite",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...REPLAYED, ...UNIT, ...RUN_LAST],
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
        },
      },
      ...(CACHED.length === 0
        ? []
        : [
            {
              extends: true as const,
              test: { name: "cached", include: CACHED, maxWorkers: 3, sequence: { groupOrder: 0 } },
            },
          ]),
      {
        extends: true,
        test: {
          name: "unit",
          include: UNIT,
          exclude: [...configDefaults.exclude, ...leftOutOfPass],
          isolate: false,
          // Vitest runs the projects of one group with the same number of workers.
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "last",
          include: RUN_LAST,
          exclude: [...configDefaults.exclude, ...leftOutOfPass],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
