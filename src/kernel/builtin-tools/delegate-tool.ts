import { z } from "zod";
import { idDigest } from "../hash/index.js";
import type { AgentEvent, RunResult, SubagentStatus } from "../vocabulary/events.js";
import type { AbortSignalLike } from "../vocabulary/ports.js";
import type { ToolContext, ToolOutput } from "../vocabulary/tools.js";
import type { Usage } from "../vocabulary/model.js";
import type { BackgroundStatus } from "../background/types.js";

/** The marker of the delegation tool: durable runs execute it in the workflow, each task a child session. */
export const DELEGATE_BUILTIN = "delegate";

/** The tool's default name, as the seed SDK's subagent tool. */
export const DELEGATE_TOOL = "Agent";

/** The delegation tool's input: one or more tasks, each for a registered agent (the seed's `Agent` schema). */
const delegateInput = z.object({
  tasks: z
    .array(
      z.object({
        display_name: z.string().min(1).describe("A short name for this task, shown to the user"),
        subagent_type: z.string().min(1).describe("Which agent to delegate to"),
        prompt: z.string().min(1).describe("Everything the subagent needs to know: it sees nothing else"),
      }),
    )
    .min(1),
  run_in_background: z
    .boolean()
    .optional()
    .describe("Start the tasks and go on at once; their report arrives later as a background note"),
});

/**
 * The delegation tool's input schema. A function, not an exported schema: the worker freezes what the shared
 * workflow modules export (docs/decisions/0014), and a zod schema adds members to itself when first used.
 */
export function delegateSchema(): typeof delegateInput {
  return delegateInput;
}

/** One task of a delegation. */
export type DelegateTask = z.infer<typeof delegateInput>["tasks"][number];

/** The delegation tool's input. */
export type DelegateInput = z.infer<typeof delegateInput>;

/** How one subagent's task ended. */
export interface SubagentOutcome {
  task: DelegateTask;
  sessionId: string;
  status: SubagentStatus;
  text: string;
  usage: Usage;
}

/** The description the model reads, naming the agents it may delegate to. */
export function delegateDescription(agents: readonly string[]): string {
  return (
    "Delegate self-contained tasks to subagents, which work independently with their own tools and answer with a " +
    `report. Agents: ${agents.join(", ")}. Tasks run in parallel; give each everything it needs.`
  );
}

/** A subagent's status from its run's result (the seed: failed on max_turns or an empty answer). */
export function subagentStatus(result: Pick<RunResult, "stopReason" | "text">): SubagentStatus {
  if (result.stopReason === "aborted") return "cancelled";
  if (result.stopReason !== "stop" || result.text.trim() === "") return "failed";
  return "completed";
}

/** The tool's result: one section per task, in input order. */
export function renderDelegation(outcomes: readonly SubagentOutcome[]): string {
  return outcomes
    .map(
      (outcome) =>
        `## ${outcome.task.display_name} (agentId: ${outcome.sessionId}; status: ${outcome.status})\n` +
        (outcome.text.trim() || "(no answer)"),
    )
    .join("\n\n");
}

/** Why a task cannot run: an agent the tool was not given. */
export function unknownSubagent(task: DelegateTask, agents: readonly string[]): string | undefined {
  if (agents.includes(task.subagent_type)) return undefined;
  return `unknown subagent_type '${task.subagent_type}' (available: ${agents.join(", ")})`;
}

/** The label of a background group, as the seed's: `Subagent group: a, b`. */
export function groupLabel(tasks: readonly DelegateTask[]): string {
  return `Subagent group: ${tasks.map((task) => task.display_name).join(", ")}`;
}

/** What the tool answers at once for a group it started in the background. */
export function groupAccepted(id: string, tasks: readonly DelegateTask[]): string {
  return `[background:${id}] accepted group with ${tasks.length} subagent${tasks.length === 1 ? "" : "s"}; the report arrives as a background note`;
}

/** A group's status: all completed, all failed, all cancelled, or partial. */
export function groupStatus(outcomes: readonly SubagentOutcome[]): BackgroundStatus {
  const statuses = new Set(outcomes.map((outcome) => outcome.status));
  if (statuses.size !== 1) return "partial";
  return [...statuses][0]!;
}

/** The fork id of task `index` of a call: unique in the session, stable on replay, no text of the call id. */
export function taskForkId(callId: string, index: number): string {
  return `task-${idDigest(callId)}-${index + 1}`;
}

/** Where one task reports: its events, its usage, what cancels it, and whether it may outlive the run. */
export interface DelegationSink {
  emit(event: AgentEvent): void;
  signal: AbortSignalLike;
  addUsage?: (usage: Usage) => void;
  /** A task of a detached group: it outlives the run that started it. */
  detached: boolean;
}

/** The driver's part of a task: run the subagent in session `sessionId` to its end (never throws). */
export type SubagentRunner = (
  task: DelegateTask,
  sessionId: string,
  forkId: string,
  sink: DelegationSink,
) => Promise<Pick<SubagentOutcome, "status" | "text" | "usage">>;

/** What a driver gives {@link executeDelegation}. */
export interface DelegationSettings {
  subagents: readonly string[];
  /** What a `run_in_background` group is; default joinable. */
  backgroundKind?: "joinable" | "detached";
  runTask: SubagentRunner;
  /** Where a detached group's usage goes (its run may have ended); nowhere when absent. */
  detachedUsage?: (usage: Usage) => void;
}

/**
 * The delegation tool's `execute`, the same in both drivers: checks the tasks, runs them in parallel (each between
 * `subagent` start and end events, its usage added to the run), and answers the report, or, with
 * `run_in_background`, starts them as a background group and answers at once.
 */
export async function executeDelegation(
  { tasks, run_in_background }: DelegateInput,
  ctx: ToolContext,
  settings: DelegationSettings,
): Promise<ToolOutput> {
  for (const task of tasks) {
    const problem = unknownSubagent(task, settings.subagents);
    if (problem) return { content: `Error: ${problem}`, isError: true };
  }
  const callId = ctx.call?.id ?? "call";
  const runAll = (sink: DelegationSink) =>
    Promise.all(
      tasks.map((task, index) => runOne(task, ctx.sessionId, taskForkId(callId, index), sink, settings)),
    );
  if (run_in_background && ctx.background) {
    const detached = settings.backgroundKind === "detached";
    const { id } = ctx.background.spawn({
      label: groupLabel(tasks),
      kind: detached ? "detached" : "joinable",
      run: async (signal, emit) => {
        const addUsage = detached ? settings.detachedUsage : ctx.addUsage;
        const outcomes = await runAll({ emit, signal, detached, ...(addUsage ? { addUsage } : {}) });
        return { content: renderDelegation(outcomes), status: groupStatus(outcomes) };
      },
    });
    return groupAccepted(id, tasks);
  }
  const sink = { emit: ctx.emit, signal: ctx.signal, detached: false };
  return renderDelegation(await runAll(ctx.addUsage ? { ...sink, addUsage: ctx.addUsage } : sink));
}

async function runOne(
  task: DelegateTask,
  parentSessionId: string,
  forkId: string,
  sink: DelegationSink,
  settings: DelegationSettings,
): Promise<SubagentOutcome> {
  const sessionId = `${parentSessionId}/${forkId}`;
  const agent = task.subagent_type;
  sink.emit({ type: "subagent", phase: "start", forkId, sessionId, agent });
  const outcome = { task, sessionId, ...(await settings.runTask(task, sessionId, forkId, sink)) };
  sink.addUsage?.(outcome.usage);
  sink.emit({
    type: "subagent",
    phase: "end",
    forkId,
    sessionId,
    agent,
    status: outcome.status,
    usage: outcome.usage,
  });
  return outcome;
}
