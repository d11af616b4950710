import { expect, it } from "vitest";
import { runChaos } from "../../bench/chaos.js";

// The chaos benchmark, smaller: its own dev server (file DB), two worker processes, one SIGKILLed every 3-5 s and
// replaced, the server down 10 s once, ten sessions of 8-turn runs for a minute, each continuing as new every ~150
// history events (in the middle of runs, too). What it checks are not figures but what must hold whatever the timing:
// no run lost, no completed tool call run again, no at-most-once call started twice, and every execution the live
// workers wrote replays from scratch (a session a later takeover would find stuck otherwise, as `patch-set-2` fixed
// twice: ADR 0014, phase 15).
it("ten sessions through a minute of worker kills, a server restart and continue-as-new: no run lost, no tool call repeated, every execution replays", async () => {
  const { result, dir } = await runChaos({
    sessions: 10,
    chaosMs: 60_000,
    drainMs: 120_000,
    restarts: 1,
    maxHistoryEvents: 150,
  });
  const context = `ledger, worker logs and DB in ${dir}`;
  expect(result.kills, context).toBeGreaterThanOrEqual(5);
  expect(result.serverRestarts, context).toBe(1);
  expect(result.recovery.affected, context).toBeGreaterThan(0);
  expect(result.runsCompleted, context).toBeGreaterThanOrEqual(10);
  expect(result.lostRuns, context).toEqual([]);
  expect(result.completedToolCallsRepeated, context).toBe(0);
  expect(result.toolCallsStartedTwice, context).toBe(0);
  expect(result.unplannedWorkerExits, context).toBe(0);
  expect(result.historiesNotReplaying, context).toEqual([]);
}, 420_000);
