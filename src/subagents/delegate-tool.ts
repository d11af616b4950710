import { createAgent, type Agent } from "../agent.js";
import { AgentRegistry, type ProviderMap } from "../activities/agent-registry.js";
import { type AgentDefinition } from "../define-agent.js";
import { localAgentConfig } from "../local-agent-config.js";
import {
  DELEGATE_BUILTIN,
  DELEGATE_TOOL,
  delegateDescription,
  delegateSchema,
  executeDelegation,
  subagentStatus,
  type DelegateInput,
  type DelegateTask,
  type DelegationSink,
  type SubagentOutcome,
} from "../kernel/builtin-tools/delegate-tool.js";
import { ZERO_USAGE } from "../kernel/vocabulary/model.js";
import type { Tool } from "../kernel/vocabulary/tools.js";
import { isAbortError } from "../kernel/vocabulary/errors.js";

/** Options of {@link delegateTool}. */
export interface DelegateToolOptions {
  /** The agents the model may delegate to (by their names, the tool's `subagent_type`). */
  agents: AgentDefinition[];
  /**
   * In-process runs: the providers of the subagents' models (`"*"` for any). Durable runs use the workers'
   * providers instead (each subagent is a child session on its agent's task queue).
   */
  providers?: ProviderMap;
  /** The tool's name; default `Agent`, as the seed SDK's. */
  name?: string;
  /**
   * What a group the model starts with `run_in_background` is: `joinable` (default: the run waits for its report
   * before it ends) or `detached` (the run may end first; the report reaches the session's next run).
   */
  backgroundKind?: "joinable" | "detached";
}

/** The delegation tool, with the agents it may start. */
export type DelegateTool = Tool<DelegateInput> & {
  readonly subagents: readonly string[];
  readonly backgroundKind?: "joinable" | "detached";
};

/**
 * The subagent tool: the model delegates tasks (`{ tasks: [{ display_name, subagent_type, prompt }] }`) to agents run
 * in parallel in their own sessions and gets one report section per task. Their events reach the parent's stream
 * stamped with `forkId`, their usage its run. One level only; durably each task is a child workflow.
 */
export function delegateTool(options: DelegateToolOptions): DelegateTool {
  const subagents = options.agents.map((agent) => agent.name);
  return {
    name: options.name ?? DELEGATE_TOOL,
    builtin: DELEGATE_BUILTIN,
    subagents,
    ...(options.backgroundKind ? { backgroundKind: options.backgroundKind } : {}),
    description: delegateDescription(subagents),
    schema: delegateSchema(),
    execute: (input, ctx) =>
      executeDelegation(input, ctx, {
        subagents,
        ...(options.backgroundKind ? { backgroundKind: options.backgroundKind } : {}),
        runTask: (task, sessionId, forkId, sink) => runLocalTask(options, task, sessionId, forkId, sink),
      }),
  };
}

/** Runs one task in-process, forwarding the subagent's events (stamped with its fork id) into the parent's stream. */
async function runLocalTask(
  options: DelegateToolOptions,
  task: DelegateTask,
  sessionId: string,
  forkId: string,
  sink: DelegationSink,
): Promise<Pick<SubagentOutcome, "status" | "text" | "usage">> {
  const definition = options.agents.find((agent) => agent.name === task.subagent_type)!;
  let child: Agent | undefined;
  try {
    const provider = new AgentRegistry([], options.providers ?? {}).provider(definition.model);
    child = createAgent(localAgentConfig(withoutDelegation(definition), provider));
    const events = child.run(task.prompt, { sessionId, signal: sink.signal });
    for (;;) {
      const next = await events.next();
      if (next.done)
        return { status: subagentStatus(next.value), text: next.value.text, usage: next.value.usage };
      sink.emit({ ...next.value, forkId });
    }
  } catch (error) {
    const status = isAbortError(error) ? "cancelled" : "failed";
    return { status, text: `Error: ${String(error)}`, usage: ZERO_USAGE };
  } finally {
    // The subagent's MCP connections (and server processes) are its own: they end with its task.
    await child?.close();
  }
}

/** A subagent's definition without delegation tools: one level, as the seed. */
export function withoutDelegation(definition: AgentDefinition): AgentDefinition {
  const tools = definition.tools?.filter((tool) => tool.builtin !== DELEGATE_BUILTIN);
  return tools ? { ...definition, tools } : definition;
}
