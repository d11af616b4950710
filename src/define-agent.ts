import type {
  AgentPlan,
  CodecName,
  BudgetPlan,
  CompactionPlan,
  ContextPlan,
  ContinueAsNewPlan,
  DurableToolPlan,
  MiddlewarePlan,
  ModelRetryPlan,
  PermissionPlan,
} from "./contract/agent-plan.js";
import { ASK_USER_TOOL } from "./kernel/builtin-tools/ask-user-tool.js";
import { DELEGATE_BUILTIN } from "./kernel/builtin-tools/delegate-tool.js";
import type { Middleware } from "./kernel/middleware/middleware.js";
import type { BackgroundLimits } from "./kernel/background/types.js";
import { checkEffectNames, type AnyEffectImplementation } from "./kernel/vocabulary/effects.js";
import { nonPlainPath } from "./kernel/vocabulary/plain-data.js";
import { checkCompactionPlan } from "./plan/check-compaction-plan.js";
import { OPTIONAL_PLAN_FIELDS } from "./plan/plan-settings.js";
import type { SamplingSettings } from "./kernel/vocabulary/model.js";
import { toToolSpec, type AnyTool } from "./kernel/vocabulary/tools.js";
import { checkMcpServers, type McpServerConfig } from "./plan/mcp-servers.js";
import type { McpToolDefaults } from "./plan/mcp-tool-plans.js";
import { LOAD_SKILL_TOOL } from "./plan/skills-prompt.js";
import { loadSkillTool } from "./skills/load-skill-tool.js";
import { readSkills, skillSummaries, type SkillsOption } from "./skills/load-skills.js";

/** Defaults of the durable runtime, each overridable per agent. */
export const DURABLE_DEFAULTS = {
  toolTimeoutMs: 5 * 60_000,
  toolHeartbeatTimeoutMs: 10_000,
  modelRetry: {
    maximumAttempts: 8,
    initialIntervalMs: 250,
    maximumIntervalMs: 8_000,
    backoffCoefficient: 2,
    timeoutMs: 10 * 60_000,
    // Every streamed chunk heartbeats (and a pulse covers the wait for the first): a dead worker's call is
    // retried elsewhere after this long.
    heartbeatTimeoutMs: 10_000,
  } satisfies ModelRetryPlan,
  continueAsNew: {
    maxHistoryEvents: 10_000,
    maxHistoryBytes: 4 * 1024 * 1024,
    maxRunsPerExecution: 200,
  } satisfies ContinueAsNewPlan,
};

/** An agent, defined once and run in-process (`localAgent`) or durably (register it on a worker). */
export interface AgentDefinition extends SamplingSettings {
  /** Unique per worker; sessions name their agent by it. */
  name: string;
  /** The model id; in durable runs the worker resolves it to a provider. */
  model: string;
  system?: string;
  tools?: AnyTool[];
  codec?: CodecName;
  maxTurns?: number;
  maxParallelTools?: number;
  maxDecodeRetries?: number;
  permission?: PermissionPlan;
  /** The ContextEngine (compaction levels by window use); off unless given. */
  context?: ContextPlan;
  /**
   * Compaction of the conversation the session keeps (off unless given): `{ strategy: "default" }` (model-free
   * passes) or `{ strategy: "llm", summaryModel? }`, above `tokenThreshold`. In-process runs add the `compaction`
   * middleware; durable runs also archive what each compaction removes (`client.session(id).transcript()`).
   */
  compaction?: CompactionPlan;
  /**
   * Middleware of this agent, outer → inner, inside the plan's permission gate and compaction, in both drivers.
   * Durable runs rebuild each in the workflow, so each must be a built-in with plain options (`retry()`,
   * `permission(...)`) or come from `defineMiddleware` in a workflow-safe module; the worker refuses any other.
   */
  use?: Middleware[];
  /**
   * MCP servers by name (letters, digits, `-`): `{ command, args?, env?, cwd? }` (stdio) or `{ url, headers? }`, with
   * `allow?`, `trustAnnotations?`, `timeoutMs?`. Allowed tools become `<server>__<tool>`, listed once a run (durably:
   * a recorded activity); calls are at-most-once unless the server marks the tool read-only or idempotent.
   */
  mcpServers?: Record<string, McpServerConfig>;
  /** What the middleware's `ctx.effect` calls do (`implementEffect`); in durable runs each call is an activity. */
  effects?: AnyEffectImplementation[];
  /**
   * Token and cost limits per run and per session (`maxRunTokens`, `maxSessionTokens`, `maxRunCost`,
   * `maxSessionCost`; costs with `prices` by model id, per million tokens). A run over one ends with stop reason
   * `budget` and a `budget_exceeded` event. In-process there is no session total: session limits count this run only.
   */
  budget?: BudgetPlan;
  /** The seed's limits on background tasks (`maxTotal`, `maxJoinable`, `maxDetached`, `maxTaskMs`, ...). */
  backgroundLimits?: BackgroundLimits;
  /**
   * Skills: folders of `SKILL.md` files (a later folder wins a name clash), listed in the system prompt, read by
   * `load_skill`; durably the worker reads them. A file that cannot be read or parsed is left out with a
   * `skill_skipped` diagnostic; the other skills work.
   */
  skills?: SkillsOption;
  /** Durable-only settings. */
  durable?: {
    toolTimeoutMs?: number;
    toolHeartbeatTimeoutMs?: number;
    modelRetry?: Partial<ModelRetryPlan>;
    continueAsNew?: Partial<ContinueAsNewPlan>;
  };
}

/**
 * Declares an agent. The same definition runs in-process and on Temporal.
 * @example
 * const researcher = defineAgent({ name: "researcher", model: "gpt-4o-mini", tools: [readFile] });
 */
export function defineAgent(definition: AgentDefinition): AgentDefinition {
  if (!/^[A-Za-z0-9][\w.-]*$/.test(definition.name)) {
    throw new TypeError(
      `agent name '${definition.name}' must start with a letter or digit and use only letters, digits, '_', '.', '-'`,
    );
  }
  const names = new Set<string>();
  if (definition.skills) {
    if (
      !Array.isArray(definition.skills.dirs) ||
      definition.skills.dirs.some((dir) => typeof dir !== "string")
    )
      throw new TypeError(`agent '${definition.name}': 'skills.dirs' must be a list of folder paths`);
    names.add(LOAD_SKILL_TOOL);
  }
  for (const tool of definition.tools ?? []) {
    if (tool.name === LOAD_SKILL_TOOL && definition.skills)
      throw new TypeError(
        `agent '${definition.name}' has skills, so its tools cannot include one named '${LOAD_SKILL_TOOL}'`,
      );
    if (names.has(tool.name))
      throw new TypeError(`agent '${definition.name}' has two tools named '${tool.name}'`);
    names.add(tool.name);
  }
  const servers = definition.mcpServers && checkMcpServers(definition.mcpServers);
  if (servers) throw new TypeError(`agent '${definition.name}': ${servers}`);
  const effects = checkEffectNames(definition.effects ?? []);
  if (effects) throw new TypeError(`agent '${definition.name}': ${effects}`);
  if (definition.compaction !== undefined) {
    const problem = checkCompactionPlan(definition.compaction);
    if (problem) throw new TypeError(`agent '${definition.name}': 'compaction' ${problem}`);
  }
  return definition;
}

/** The serialisable plan of an agent, as the workflow receives it. */
export function toAgentPlan(definition: AgentDefinition): AgentPlan {
  const durable = definition.durable ?? {};
  const plan: AgentPlan = {
    name: definition.name,
    model: definition.model,
    codec: definition.codec ?? "native",
    tools: agentTools(definition).map((tool) => toolPlan(tool, durable)),
    maxTurns: definition.maxTurns ?? 50,
    maxParallelTools: definition.maxParallelTools ?? 10,
    maxDecodeRetries: definition.maxDecodeRetries ?? 2,
    modelRetry: { ...DURABLE_DEFAULTS.modelRetry, ...durable.modelRetry },
    continueAsNew: { ...DURABLE_DEFAULTS.continueAsNew, ...durable.continueAsNew },
  };
  const optional = [...OPTIONAL_PLAN_FIELDS, "permission", "compaction", "budget"] as const;
  for (const key of optional)
    if (definition[key] !== undefined) Object.assign(plan, { [key]: definition[key] });
  if (definition.use?.length)
    plan.use = definition.use.map((layer) => middlewarePlan(definition.name, layer));
  const servers = Object.keys(definition.mcpServers ?? {});
  if (servers.length) plan.mcpServers = servers;
  // Read here, where the plan is made: on a worker, in the run's resolveAgent activity (its result is recorded).
  if (definition.skills) Object.assign(plan, skillsPlan(definition.skills));
  return plan;
}

/** The plan's skills and, only when some file was left out, its diagnostics (older plans never carry the field). */
function skillsPlan(option: SkillsOption): Pick<AgentPlan, "skills" | "skillDiagnostics"> {
  const { skills, diagnostics } = readSkills(option.dirs);
  return diagnostics.length
    ? { skills: skillSummaries(skills), skillDiagnostics: diagnostics }
    : { skills: skillSummaries(skills) };
}

/** The timeouts of an agent's MCP tools, where a server entry sets none. */
export function mcpToolDefaults(definition: AgentDefinition): McpToolDefaults {
  return {
    timeoutMs: definition.durable?.toolTimeoutMs ?? DURABLE_DEFAULTS.toolTimeoutMs,
    heartbeatTimeoutMs: definition.durable?.toolHeartbeatTimeoutMs ?? DURABLE_DEFAULTS.toolHeartbeatTimeoutMs,
  };
}

/** The tools of an agent: its own, and `load_skill` when it has skills. */
export function agentTools(definition: AgentDefinition): AnyTool[] {
  const tools = definition.tools ?? [];
  return definition.skills ? [...tools, loadSkillTool(definition.skills.dirs)] : tools;
}

/** How the workflow makes a middleware again; a clear error for one that cannot run durably. */
function middlewarePlan(agent: string, layer: Middleware): MiddlewarePlan {
  const ref = layer.durable;
  if (!ref)
    throw new TypeError(
      `agent '${agent}': middleware '${layer.name}' cannot run durably: make it with defineMiddleware({ id, module: ` +
        "import.meta.url }, factory) in a workflow-safe module (built-ins qualify only with plain options)",
    );
  const path = nonPlainPath(ref.options, "options");
  if (path)
    throw new TypeError(
      `agent '${agent}': middleware '${ref.id}' cannot run durably: ${path} is not plain data (functions and class ` +
        "instances cannot reach the workflow; build them inside the middleware's factory)",
    );
  return ref.options === undefined ? { id: ref.id } : { id: ref.id, options: ref.options };
}

/** The workflow-safe modules that define an agent's durable middleware: the worker bundles them. */
export function middlewareModules(definition: AgentDefinition): string[] {
  return (definition.use ?? []).flatMap((layer) => (layer.durable?.module ? [layer.durable.module] : []));
}

/**
 * The workflow-safe modules of some agents' own middleware (`defineMiddleware`), each once, sorted: what their worker
 * bundles, and what replaying one of their sessions' histories needs (the `workflowModules` of `session.fork`).
 */
export function workflowModulesOf(agents: readonly AgentDefinition[]): string[] {
  return [...new Set(agents.flatMap((agent) => middlewareModules(agent)))].sort();
}

function toolPlan(tool: AnyTool, durable: NonNullable<AgentDefinition["durable"]>): DurableToolPlan {
  const plan: DurableToolPlan = {
    ...toToolSpec(tool),
    retry: tool.retry ?? "at-most-once",
    timeoutMs: tool.timeoutMs ?? durable.toolTimeoutMs ?? DURABLE_DEFAULTS.toolTimeoutMs,
    heartbeatTimeoutMs: durable.toolHeartbeatTimeoutMs ?? DURABLE_DEFAULTS.toolHeartbeatTimeoutMs,
  };
  if (tool.taskQueue !== undefined) plan.taskQueue = tool.taskQueue;
  if (tool.builtin === ASK_USER_TOOL) plan.builtin = ASK_USER_TOOL;
  if (tool.builtin === DELEGATE_BUILTIN) {
    plan.builtin = DELEGATE_BUILTIN;
    const delegation = tool as { subagents?: readonly string[]; backgroundKind?: "joinable" | "detached" };
    plan.subagents = [...(delegation.subagents ?? [])];
    if (delegation.backgroundKind) plan.backgroundKind = delegation.backgroundKind;
  }
  return plan;
}
