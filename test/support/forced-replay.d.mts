// Types of forced-replay.mjs (plain JavaScript, so a process can load it before tsx).

/** The variable that names the mode; unset or empty: workers keep their own options. */
export declare const REPLAY_MODE_VARIABLE: "LITE_AGENT_TEST_REPLAY_MODE";
/** The worker options each mode forces. */
export declare const REPLAY_MODES: {
  "no-cache": { maxCachedWorkflows: 0 };
  "short-sticky": { stickyQueueScheduleToStartTimeout: "100ms" };
};
/** A forced replay mode. */
export type ReplayMode = keyof typeof REPLAY_MODES;
/** The mode of this process, or undefined; throws on a name that is not a mode. */
export declare function replayMode(): ReplayMode | undefined;
/** What the environment of a child process needs to run its workers in this process's mode. Empty without a mode. */
export declare function forcedReplayEnv(): Record<string, string>;
