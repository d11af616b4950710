import { ApplicationFailure } from "@temporalio/workflow";
import type { AgentPlan } from "../../contract/agent-plan.js";
import { subagentStatus } from "../../kernel/builtin-tools/delegate-tool.js";
import type { RunResult } from "../../kernel/vocabulary/events.js";
import type { ForkRequest, ForkRunner } from "../../kernel/loop/kernel-config.js";
import type { AnyTool } from "../../kernel/vocabulary/tools.js";
import { runChildSession, type ChildSpec } from "../children/child-session.js";
import type { StartForkRequest } from "../../contract/requests.js";
import { checkForkRequest } from "../admission/payload-checks.js";
import type { SessionInput } from "../../contract/session-input.js";
import type { ActiveRun } from "./active-run.js";
import type { ChildHost } from "../children/child-session.js";

/** What a tool's fork (`startFork`) reaches of the session: whether it is a child, and the running run's forks. */
export interface ForkHost {
  readonly input: Pick<SessionInput, "task">;
  readonly current: Pick<ActiveRun, "toolForks" | "forks"> | undefined;
}

/**
 * Where a durable run's forks run: each is a child session of this agent (`<session>/<forkId>`), seeded with the
 * conversation before the assistant message that called the tool. Its events stay in its session, between `subagent`
 * start and end events in the parent's stream, where clients merge them. Cancelling the parent's run cancels it.
 */
export function durableForkRunner(session: ChildHost, plan: AgentPlan): ForkRunner {
  return async (request) => {
    const unknown = (request.toolNames ?? []).filter(
      (name) => !plan.tools.some((tool) => tool.name === name),
    );
    if (unknown.length > 0)
      throw new Error(
        `a durable fork can use only its agent's tools; '${plan.name}' has no ${unknown.map((name) => `'${name}'`).join(", ")}`,
      );
    const { forkId, sessionId, emit } = request;
    emit({ type: "subagent", phase: "start", forkId, sessionId, agent: plan.name });
    const end = await runChildSession(session, forkSpec(session, plan, request), {
      signal: request.signal,
      detached: false,
    });
    const status = subagentStatus(end);
    emit({ type: "subagent", phase: "end", forkId, sessionId, agent: plan.name, status, usage: end.usage });
    // The fork's conversation is its own session's (`client.session(sessionId).transcript()`); the tool gets its answer.
    return { messages: [], ...end };
  };
}

function forkSpec(session: ChildHost, plan: AgentPlan, request: ForkRequest): ChildSpec {
  return {
    agent: plan.name,
    task: {
      input: request.input,
      parentSessionId: session.sessionId,
      forkId: request.forkId,
      fork: request.toolNames ? { tools: request.toolNames } : {},
    },
    seed: request.seed,
    summary: `fork ${request.forkId} of ${plan.name}`,
  };
}

/** Why a `startFork` request is refused, or undefined when a running tool call may start that fork. */
export function checkStartFork(session: ForkHost, request: unknown): string | undefined {
  const problem = checkForkRequest(request);
  if (problem) return problem;
  if (session.input.task) return "a fork or subagent cannot start forks of its own (one level, as the seed)";
  const { callId } = request as StartForkRequest;
  if (!session.current?.toolForks.has(callId))
    return `no tool call '${callId}' is running in this session; only a running tool can start a fork`;
  return undefined;
}

/**
 * Starts (or, asked again for the same call and fork id, rejoins) a fork for a tool running in an activity, and
 * resolves with its result. Checked by {@link checkStartFork} first.
 */
export function startFork(session: ForkHost, request: StartForkRequest): Promise<RunResult> {
  const run = session.current!;
  const key = `${request.callId}/${request.forkId}`;
  const known = run.forks.get(key);
  if (known) return known;
  const fork = run.toolForks.get(request.callId)!;
  const started = fork(request.input, {
    forkId: request.forkId,
    ...(request.tools ? { tools: request.tools.map(namedTool) } : {}),
  }).catch(refused);
  run.forks.set(key, started);
  return started;
}

/**
 * A fork that could not start fails its update with the reason. Only an ApplicationFailure does that: any other
 * error thrown by an update handler fails the workflow task, and the session would retry it forever.
 */
function refused(error: unknown): never {
  throw ApplicationFailure.nonRetryable(
    error instanceof Error ? error.message : String(error),
    "LiteAgent.ForkRefused",
  );
}

/** The durable fork runner reads only the names of a fork's tools; the implementations are the worker's. */
function namedTool(name: string): AnyTool {
  return { name } as AnyTool;
}
