import { expect, it } from "vitest";
import { runChaos } from "../../bench/chaos.js";

// The chaos benchmark, smaller, at two speeds: its own dev server (file DB), three worker processes, one SIGKILLed every
// 3-5 s while two are ready and replaced, the server down 15 s once (longer than the heartbeat timeouts), ten sessions of 8-turn runs for a
// minute, each continuing as new often (in the middle of runs, too), every run followed by a client. Slow: model calls
// of ~300 ms and tool calls of 400-1,200 ms, so kills land in calls. Fast: neither pauses, so runs race through
// continue-as-new while their followers read. What it checks are not figures but what must hold whatever the timing:
// no run lost, no completed tool call run again, no at-most-once call started twice, every follower got every offset
// of its run once and in order, every execution the live workers wrote replays from scratch, and no workflow task failed
// on a live worker other than by Temporal's bookkeeping (a nondeterminism error a later attempt passes is a defect too).
it.each([
  { speed: "slow" as const, maxHistoryEvents: 150 },
  { speed: "fast" as const, maxHistoryEvents: 100 },
])(
  "ten sessions through a minute of worker kills, a server restart and continue-as-new ($speed): no run lost, no tool call repeated, every event once, every execution replays",
  async ({ speed, maxHistoryEvents }) => {
    const { result, dir } = await runChaos({
      sessions: 10,
      chaosMs: 60_000,
      drainMs: 120_000,
      restarts: 1,
      maxHistoryEvents,
      speed,
    });
    const context = `ledger, worker logs and DB in ${dir}`;
    const { runsCompleted, kills, killIntervalBetweenRestartsSeconds, followers, recovery } = result;
    const figures = {
      runsCompleted,
      kills,
      killIntervalBetweenRestartsSeconds,
      followers,
      recovery: recovery.p99,
    };
    console.error(`chaos ${speed}: ${JSON.stringify(figures)}`);
    // Kills wait for two ready workers and for quiet around the restart: a loaded machine makes fewer.
    expect(result.kills, context).toBeGreaterThanOrEqual(3);
    expect(result.serverRestarts, context).toBe(1);
    expect(result.recovery.affected, context).toBeGreaterThan(0);
    expect(result.runsCompleted, context).toBeGreaterThanOrEqual(10);
    expect(result.lostRuns, context).toEqual([]);
    expect(result.completedToolCallsRepeated, context).toBe(0);
    expect(result.toolCallsStartedTwice, context).toBe(0);
    expect(result.unplannedWorkerExits, context).toBe(0);
    expect(result.followers, context).toMatchObject({ gaps: 0, duplicates: 0, outOfOrder: 0, eventsLost: 0 });
    expect(result.historiesNotReplaying, context).toEqual([]);
    expect(result.failedWorkflowTasks, context).toEqual([]);
  },
  420_000,
);
