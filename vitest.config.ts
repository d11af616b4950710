import { configDefaults, defineConfig } from "vitest/config";

/**
 * Tests that measure recovery after kill -9 or restart a server: they run alone, after the others, so the load of
 * the rest of the suite does not stretch the times they check. The promise count runs its workflows on the test's
 * own thread (debugMode, ~300 turns) and the fresh recordings start a worker of their own and play four scenarios:
 * alone, they do not slow the suite's other sessions either.
 */
const RUN_ALONE = [
  "test/e2e/fast-recovery.test.ts",
  "test/e2e/worker-crash.test.ts",
  "test/e2e/server-restart.test.ts",
  "test/e2e/chaos.test.ts",
  "test/workflow/promises-per-turn.test.ts",
  "test/replay/fresh-recordings.test.ts",
];

/**
 * Runs after every other test: it replays every history the run's tests wrote on the suite's dev server, cut at every
 * workflow task boundary (test/support/replay-at-every-cut.ts).
 */
const RUN_LAST = ["test/e2e/every-history-replays.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Forced replay (LITE_AGENT_TEST_REPLAY_MODE): every worker a test process or its children start takes the mode's
    // options; without the variable it changes nothing.
    setupFiles: ["test/support/forced-replay.mjs"],
    // One Temporal dev server for the run, shared by every project (global-setup.ts counts its users).
    globalSetup: ["test/support/global-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "suite",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...RUN_ALONE, ...RUN_LAST],
          // Most of a test's time is spent waiting on the server, timers and child processes: three files at a
          // time on two cores keep both busy (vitest's default here would be one).
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: "alone", include: RUN_ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: "last", include: RUN_LAST, maxWorkers: 1, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
