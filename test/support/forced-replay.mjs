// Forced replay for the tests (docs/operations.md, "Forced replay"): with LITE_AGENT_TEST_REPLAY_MODE set, every
// Temporal worker a test process creates takes the mode's options over its own, so the workflow code is replayed far
// more often than a live worker would:
//   no-cache      the worker caches no workflow (maxCachedWorkflows 0): every workflow task replays the execution's
//                 whole history from its start, and no task goes to a sticky queue;
//   short-sticky  the cache stays on, but a task waits only 100 ms on the sticky queue of the worker that has the
//                 workflow cached before any worker may take it: under load, tasks often go to a worker (or a worker
//                 thread) that replays the history while the cached copy is stale.
// Vitest loads this file in every test process (setupFiles), and it adds itself to NODE_OPTIONS there, so the worker
// processes tests start (test/support, the CLI, the chaos benchmark's) load it too. Plain JavaScript: a process loads
// it before tsx. Only tests read the variable: the product's code never does.
/** The variable that names the mode; unset or empty: workers keep their own options. */
export const REPLAY_MODE_VARIABLE = "LITE_AGENT_TEST_REPLAY_MODE";

/** The worker options each mode forces. */
export const REPLAY_MODES = {
  "no-cache": { maxCachedWorkflows: 0 },
  "short-sticky": { stickyQueueScheduleToStartTimeout: "100ms" },
};

/** The mode of this process, or undefined; throws on a name that is not a mode (a typo must not pass silently). */
export function replayMode() {
  const mode = process.env[REPLAY_MODE_VARIABLE];
  if (!mode) return undefined;
  if (!Object.hasOwn(REPLAY_MODES, mode))
    throw new Error(`${REPLAY_MODE_VARIABLE}=${mode}: not one of ${Object.keys(REPLAY_MODES).join(", ")}`);
  return mode;
}

/** The flag that makes a Node process load this file first. */
const IMPORT_FLAG = `--import=${import.meta.url}`;

/**
 * What the environment of a child process needs to run its workers in this process's mode: for tests that build a
 * child's environment from scratch (without NODE_OPTIONS or LITE_AGENT_*). Empty without a mode.
 */
export function forcedReplayEnv() {
  const mode = replayMode();
  return mode ? { [REPLAY_MODE_VARIABLE]: mode, NODE_OPTIONS: IMPORT_FLAG } : {};
}

const mode = replayMode();
// Loaded only with a mode: without one, a test process (most are unit tests) pays nothing for this file.
const { Worker } = mode ? await import("@temporalio/worker") : {};
if (mode && !Worker.create.forcedReplayMode) {
  const create = Worker.create.bind(Worker);
  const forced = REPLAY_MODES[mode];
  Worker.create = Object.assign((options) => create({ ...options, ...forced }), { forcedReplayMode: mode });
  const nodeOptions = process.env.NODE_OPTIONS ?? "";
  if (!nodeOptions.includes(IMPORT_FLAG)) process.env.NODE_OPTIONS = `${nodeOptions} ${IMPORT_FLAG}`.trim();
}
