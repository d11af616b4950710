import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client, Connection } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AgentClient } from "../../src/client.js";
import { agentTaskQueue } from "../../src/runtime/agent-task-queue.js";
import type { DurableEvent } from "../../src/client.js";
import { runCliInProcess } from "../support/cli-in-process.js";
import { failedWorkflowTasks } from "../support/history-tasks.js";
import { uniqueTaskQueue } from "../support/temporal.js";
import { waitForLine } from "../support/worker-process.js";
import {
  buildOf as buildOfSession,
  executionsOf as executionsOfSession,
  setCurrent as setCurrentBuild,
  setRamping as setRampingBuild,
  wakeUntilOn,
  type Deployment,
} from "../support/worker-deployment.js";
import { wakeSignal } from "../../src/contract/messages.js";

// Issue 36: two builds of a worker, in two `lite-agent worker --deployment-name --build-id` processes on the
// suite's dev server. Sessions are pinned to the build they started on and move to a new current build at their
// next continue-as-new: a long run at its next turn boundary, a run waiting for an approval when woken (it carries
// its wait, and the approval is acted on by the new build), an idle session at its next run (or when woken), a subagent's child session at
// its own turn boundary and its parent once the subagent is done. Each build's tools say which build's worker
// ran them, and its middleware tags each tool result with the build whose workflow code handled the call.

const projectDir = path.resolve(import.meta.dirname, "..", "..");
const fixture = path.join("test", "e2e", "fixtures", "versioned-agents.ts");
const taskQueue = uniqueTaskQueue("versioning");
const deploymentName = `lite-agent-${taskQueue}`;
const dir = mkdtempSync(path.join(os.tmpdir(), "worker-versioning-"));
const sideEffects = path.join(dir, "side-effects.log");
const releaseFile = path.join(dir, "release");
const builds = new Map<string, ChildProcess>();
let connection: Connection;
let temporal: Client;
let agents: AgentClient;
let deployment: Deployment;

const setCurrent = (build: string) => setCurrentBuild(deployment, build);
const setRamping = (build: string, percentage: number) => setRampingBuild(deployment, build, percentage);
const buildOf = (sessionId: string) => buildOfSession(temporal, sessionId);
const executionsOf = (sessionId: string) => executionsOfSession(temporal, sessionId);

/** `lite-agent worker --deployment-name --build-id` for one build, as its own process; resolves once it polls. */
async function startBuild(build: string): Promise<void> {
  const args = [
    "worker",
    "--agents",
    fixture,
    "--task-queue",
    taskQueue,
    "--deployment-name",
    deploymentName,
  ];
  const child = spawn(process.execPath, [path.join("bin", "lite-agent.js"), ...args, "--build-id", build], {
    cwd: projectDir,
    env: {
      ...process.env,
      NO_COLOR: "1",
      BUILD: build,
      SIDE_EFFECTS: sideEffects,
      RELEASE_FILE: releaseFile,
      TEMPORAL_ADDRESS: inject("temporalAddress"),
      TEMPORAL_NAMESPACE: inject("temporalNamespace"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  builds.set(build, child);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`Deployment version ${deploymentName}:${build}`)) resolve();
    };
    child.stdout!.on("data", look);
    child.stderr!.on("data", look);
    child.once("exit", (code) => reject(new Error(`build ${build} exited with ${code}:\n${output}`)));
  });
}

/** Stops a build's worker (Ctrl-C: a clean shutdown) and waits until its process is gone. */
async function stopBuild(build: string): Promise<void> {
  const child = builds.get(build)!;
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGINT");
  await exited;
}

/** The tool results of a run's events, in order. */
function toolResults(events: DurableEvent[]): string[] {
  return events.flatMap((event) => (event.type === "tool_result" ? [String(event.result.content)] : []));
}

async function collect(stream: AsyncGenerator<DurableEvent, unknown>): Promise<DurableEvent[]> {
  const events: DurableEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function sideEffectLines(): string[] {
  return readFileSync(sideEffects, "utf8").trim().split("\n");
}

beforeAll(async () => {
  writeFileSync(sideEffects, "");
  connection = await Connection.connect({ address: inject("temporalAddress") });
  temporal = new Client({ connection, namespace: inject("temporalNamespace") });
  agents = new AgentClient(temporal, { taskQueue });
  deployment = { connection, namespace: inject("temporalNamespace"), deploymentName };
  await startBuild("build-1");
  await setCurrent("build-1");
}, 300_000);

afterAll(async () => {
  for (const child of builds.values()) if (child.exitCode === null) child.kill("SIGKILL");
  await connection?.close();
});

describe("worker deployment versioning", () => {
  it("keeps sessions on their build, moves each to the new current build at its next continue-as-new", async () => {
    // On build 1: a long run that holds in its second turn, a run waiting for an approval, a run whose subagent holds
    // in its second turn, an idle session.
    const long = await agents.start("versioned", "long");
    const longEvents = collect(
      agents.session(long.sessionId).events(long.runId, { fromOffset: long.offset }),
    );
    const approval = await agents.start("versioned", "approval");
    const approvalEvents = collect(
      agents.session(approval.sessionId).events(approval.runId, { fromOffset: approval.offset }),
    );
    const delegating = await agents.start("versioned", "delegate");
    const delegatingEvents = collect(
      agents.session(delegating.sessionId).events(delegating.runId, { fromOffset: delegating.offset }),
    );
    const idle = `idle-${taskQueue}`;
    const first = await agents.send("versioned", "idle first", { sessionId: idle });
    expect(first.text).toBe("first done");
    await waitForLine(sideEffects, /^hold l2 build-1$/m);
    await waitForLine(sideEffects, /^hold c2 build-1$/m);
    let pending = (await agents.session(approval.sessionId).describe()).pendingApprovals;
    while (pending.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      pending = (await agents.session(approval.sessionId).describe()).pendingApprovals;
    }

    // Build 2 deployed, not current: new work still goes to build 1, and every session stays there.
    await startBuild("build-2");
    const fresh = await agents.start("versioned", "fresh");
    const before = await collect(
      agents.session(fresh.sessionId).events(fresh.runId, { fromOffset: fresh.offset }),
    );
    expect(toolResults(before)).toEqual(["step f1 by build-1 [build-1]"]);
    for (const sessionId of [long.sessionId, approval.sessionId, delegating.sessionId, idle])
      expect(await buildOf(sessionId)).toBe("build-1");

    // Build 2 current. The held run goes on; the approval is answered; the idle session gets its next run.
    await setCurrent("build-2");
    console.log(
      `worker-versioning: the idle session is on ${await buildOf(idle)} after build 2 became current`,
    );
    writeFileSync(releaseFile, "");
    // Woken, the waiting session moves to build 2 before anyone answers, still waiting for the same approval.
    await wakeUntilOn(temporal, approval.sessionId, "build-2");
    const waitingChain = await executionsOf(approval.sessionId);
    expect(waitingChain.map((execution) => execution.build)).toEqual(["build-1", "build-2"]);
    const moved = await agents.session(approval.sessionId).describe();
    expect(moved.pendingApprovals).toEqual(pending);
    expect(moved.currentRun?.runId).toBe(approval.runId);
    await agents.session(approval.sessionId).approve(pending[0]!.callId, { actor: "tester" });
    const second = await collect(agents.run("versioned", "idle second", { sessionId: idle }));

    // Each finished, its first turns on build 1's code and workers, the turns after its continue-as-new on build 2's.
    expect(toolResults(await longEvents)).toEqual([
      "step l1 by build-1 [build-1]",
      "held l2 by build-1 [build-1]",
      "step l3 by build-2 [build-2]",
    ]);
    expect((await longEvents).at(-1)).toMatchObject({ type: "done", reason: "stop" });
    // The approved call ran once, on build 2, under build 2's middleware; each event reached its follower once.
    expect(toolResults(await approvalEvents)).toEqual([
      "published p1 by build-2 [build-2]",
      "step a2 by build-2 [build-2]",
    ]);
    const approvalOffsets = (await approvalEvents)
      .filter((event) => event.deltaId === undefined)
      .map((event) => event.offset);
    expect(approvalOffsets).toEqual(approvalOffsets.map((_, index) => approvalOffsets[0]! + index));
    expect((await approvalEvents).filter((event) => event.type === "approval_request")).toHaveLength(1);
    expect(toolResults(second)).toEqual(["step i2 by build-2 [build-2]"]);
    // The subagent follows the same rules: it moved at its own turn boundary, its parent once the subagent was done.
    const delegated = await delegatingEvents;
    expect(delegated.at(-1)).toMatchObject({ type: "done", reason: "stop" });
    const child = delegated.find((event) => event.type === "subagent");
    const childId = child?.type === "subagent" ? child.sessionId : "";
    expect(toolResults(delegated.filter((event) => event.forkId !== undefined))).toEqual([
      "step c1 by build-1 [build-1]",
      "held c2 by build-1 [build-1]",
      "step c3 by build-2 [build-2]",
    ]);
    // Acted on once: the approved call ran exactly once, every step once.
    const lines = sideEffectLines();
    expect(lines.filter((line) => line.startsWith("publish"))).toEqual(["publish p1 build-2"]);
    expect(lines).toEqual(
      expect.arrayContaining([
        "step l1 build-1",
        "step l3 build-2",
        "step a2 build-2",
        "step i1 build-1",
        "step i2 build-2",
        "step c1 build-1",
        "step c3 build-2",
      ]),
    );
    expect(new Set(lines).size).toBe(lines.length);

    // Every session's chain: build 1's executions, then build 2's; no workflow task failed in any of them.
    for (const sessionId of [long.sessionId, approval.sessionId, idle, delegating.sessionId, childId]) {
      const chain = await executionsOf(sessionId);
      expect(chain.at(0)?.build).toBe("build-1");
      expect(chain.at(-1)?.build).toBe("build-2");
      for (const { runId } of chain) {
        const history = await temporal.workflow.getHandle(sessionId, runId).fetchHistory();
        expect(failedWorkflowTasks(history), `${sessionId} ${runId}`).toEqual([]);
      }
    }

    // The session that stayed idle is still on build 1: nothing woke it. The rollout wakes the sessions left there.
    console.log(`worker-versioning: the untouched idle session is on ${await buildOf(fresh.sessionId)}`);
    const left: string[] = [];
    const onBuild1 = `TemporalWorkerDeploymentVersion = '${deploymentName}:build-1' AND ExecutionStatus = 'Running'`;
    for await (const execution of temporal.workflow.list({ query: onBuild1 }))
      left.push(execution.workflowId);
    expect(left).toContain(fresh.sessionId);
    for (const sessionId of left) await temporal.workflow.getHandle(sessionId).signal(wakeSignal);
    while ((await buildOf(fresh.sessionId)) !== "build-2")
      await new Promise((resolve) => setTimeout(resolve, 100));
    const woken = await executionsOf(fresh.sessionId);
    expect(woken.map((execution) => execution.build)).toEqual(["build-1", "build-2"]);
    for (const { runId } of woken) {
      const history = await temporal.workflow.getHandle(fresh.sessionId, runId).fetchHistory();
      expect(failedWorkflowTasks(history), `${fresh.sessionId} ${runId}`).toEqual([]);
    }

    // `lite-agent show` says where a session runs.
    const shown = await runCliInProcess(["show", idle, "--events", "0"], {
      TEMPORAL_ADDRESS: inject("temporalAddress"),
      TEMPORAL_NAMESPACE: inject("temporalNamespace"),
    });
    expect(shown.stdout).toContain(`Build    ${deploymentName}:build-2, pinned`);

    // Build 1 stopped: no running session is left on it.
    await stopBuild("build-1");
    const running: string[] = [];
    const queue = agentTaskQueue(taskQueue, "versioned");
    for await (const execution of temporal.workflow.list({
      query: `TaskQueue = '${queue}' AND ExecutionStatus = 'Running'`,
    })) {
      running.push(`${execution.workflowId} ${await buildOf(execution.workflowId)}`);
    }
    expect(running.length).toBeGreaterThanOrEqual(3);
    expect(running.filter((line) => !line.endsWith(" build-2"))).toEqual([]);

    // Rollback: build 1 again current (its worker back), and new sessions start on it.
    await startBuild("build-1");
    await setCurrent("build-1");
    const rolledBack = await agents.start("versioned", "fresh");
    const rolledBackEvents = await collect(
      agents.session(rolledBack.sessionId).events(rolledBack.runId, { fromOffset: rolledBack.offset }),
    );
    expect(toolResults(rolledBackEvents)).toEqual(["step f1 by build-1 [build-1]"]);
    expect(await buildOf(rolledBack.sessionId)).toBe("build-1");
  }, 240_000);

  it("a ramp at 100 % starts new sessions on the ramping build and moves a woken idle session there", async () => {
    // Both builds' workers run and build 1 is current (as the test above leaves them, made sure here).
    if (builds.get("build-2")?.exitCode !== null) await startBuild("build-2");
    if (builds.get("build-1")?.exitCode !== null) await startBuild("build-1");
    await setCurrent("build-1");
    const idle = `ramp-idle-${taskQueue}`;
    expect((await agents.send("versioned", "idle first", { sessionId: idle })).text).toBe("first done");
    expect(await buildOf(idle)).toBe("build-1");

    await setRamping("build-2", 100);
    const ramped = await agents.start("versioned", "fresh");
    const events = await collect(
      agents.session(ramped.sessionId).events(ramped.runId, { fromOffset: ramped.offset }),
    );
    expect(toolResults(events)).toEqual(["step f1 by build-2 [build-2]"]);
    expect(await buildOf(ramped.sessionId)).toBe("build-2");
    // The idle session's target is now the ramping build: woken, it continues as new onto it.
    await temporal.workflow.getHandle(idle).signal(wakeSignal);
    while ((await buildOf(idle)) !== "build-2") await new Promise((resolve) => setTimeout(resolve, 100));
    const chain = await executionsOf(idle);
    expect(chain.map((execution) => execution.build)).toEqual(["build-1", "build-2"]);
    const second = await collect(agents.run("versioned", "idle second", { sessionId: idle }));
    expect(toolResults(second)).toEqual(["step i2 by build-2 [build-2]"]);
    for (const { runId } of chain) {
      const history = await temporal.workflow.getHandle(idle, runId).fetchHistory();
      expect(failedWorkflowTasks(history), `${idle} ${runId}`).toEqual([]);
    }
  }, 120_000);
});
