import {
  agentTools,
  mcpToolDefaults,
  toAgentPlan,
  workflowModulesOf,
  type AgentDefinition,
} from "../define-agent.js";
import { checkMcpServers, type McpServerConfig } from "../plan/mcp-servers.js";
import type { McpToolDefaults } from "../plan/mcp-tool-plans.js";
import { EffectNotImplementedError, type AnyEffectImplementation } from "../kernel/vocabulary/effects.js";
import type { AgentPlan, SkillDiagnostic } from "../contract/agent-plan.js";
import { checkApproverSettings, withWorkerGroups } from "../plan/approver-rules.js";
import type { ModelProvider } from "../kernel/vocabulary/model.js";
import type { AnyTool } from "../kernel/vocabulary/tools.js";

/** A provider, or a factory that makes one for a model id. */
export type ProviderEntry = ModelProvider | ((model: string) => ModelProvider);

/** Providers by model id; `"*"` serves every model without its own entry. */
export type ProviderMap = Record<string, ProviderEntry>;

/** A skill file one of the registered agents left out, and why. */
export interface AgentSkillDiagnostic extends SkillDiagnostic {
  agent: string;
}

/** Why a lookup failed, for a clear, non-retryable error. */
export class RegistryLookupError extends Error {
  constructor(
    message: string,
    readonly kind: "agent" | "model" | "tool" | "effect" | "mcp",
  ) {
    super(message);
    this.name = "RegistryLookupError";
  }
}

/** What a worker can run: agent definitions (with their tool implementations) and model providers. */
export class AgentRegistry {
  private readonly agents = new Map<string, AgentDefinition>();
  private readonly providerCache = new Map<string, ModelProvider>();
  private readonly skipped: AgentSkillDiagnostic[] = [];

  /**
   * @param approverGroups groups of actors for the agents' `permission.approvers`, filling the names an agent does
   * not define. Every agent's approvers are checked here, so a group nobody defines fails the worker's start.
   */
  constructor(
    agents: AgentDefinition[],
    private readonly providers: ProviderMap,
    private readonly approverGroups?: Record<string, string[]>,
  ) {
    for (const agent of agents) {
      if (this.agents.has(agent.name)) throw new TypeError(`two agents are named '${agent.name}'`);
      const problem =
        (agent.permission && checkApproverSettings(agent.permission, approverGroups)) ||
        (agent.mcpServers && checkMcpServers(agent.mcpServers));
      if (problem) throw new TypeError(`agent '${agent.name}': ${problem}`);
      // Fails now, with the agent and the reason, for anything a durable run cannot carry (such as middleware
      // that cannot be made again in the workflow), instead of at a session's first run. A broken skill file is
      // no such thing: it is left out of its agent's skills, and reported.
      const plan = toAgentPlan(agent);
      for (const entry of plan.skillDiagnostics ?? []) this.skipped.push({ agent: agent.name, ...entry });
      this.agents.set(agent.name, agent);
    }
  }

  /** The skill files the agents' plans left out when the worker was made (runs read the folders again). */
  skippedSkillFiles(): AgentSkillDiagnostic[] {
    return [...this.skipped];
  }

  /** The names of the registered agents. */
  agentNames(): string[] {
    return [...this.agents.keys()];
  }

  /** Whether an agent's budget prices a model: its sessions then show their cost (the `AgentCost` attribute). */
  pricesModels(): boolean {
    return [...this.agents.values()].some((agent) => Object.keys(agent.budget?.prices ?? {}).length > 0);
  }

  /** The plan of an agent. */
  plan(agent: string): AgentPlan {
    const plan = toAgentPlan(this.definition(agent));
    if (!plan.permission?.approvers) return plan;
    return { ...plan, permission: withWorkerGroups(plan.permission, this.approverGroups) };
  }

  /** The implementation of one of an agent's tools. */
  tool(agent: string, name: string): AnyTool {
    const tool = agentTools(this.definition(agent)).find((candidate) => candidate.name === name);
    if (!tool)
      throw new RegistryLookupError(
        `tool '${name}' of agent '${agent}' is not registered on this worker`,
        "tool",
      );
    return tool;
  }

  /** The implementation of an effect an agent's middleware calls. */
  effect(agent: string, name: string): AnyEffectImplementation {
    const effect = this.definition(agent).effects?.find((candidate) => candidate.ref.effect === name);
    if (!effect) throw new RegistryLookupError(new EffectNotImplementedError(name, agent).message, "effect");
    return effect;
  }

  /** How to reach one of an agent's MCP servers, and the timeouts of its tools. */
  mcpServer(agent: string, server: string): { config: McpServerConfig; defaults: McpToolDefaults } {
    const definition = this.definition(agent);
    const servers = definition.mcpServers ?? {};
    const config = Object.hasOwn(servers, server) ? servers[server] : undefined;
    if (!config)
      throw new RegistryLookupError(
        `MCP server '${server}' of agent '${agent}' is not registered on this worker`,
        "mcp",
      );
    return { config, defaults: mcpToolDefaults(definition) };
  }

  /** Every agent's MCP server entries (their headers and environments are secrets the worker scrubs). */
  mcpServerConfigs(): McpServerConfig[] {
    return [...this.agents.values()].flatMap((agent) => Object.values(agent.mcpServers ?? {}));
  }

  /** The workflow-safe modules of every agent's durable middleware, for the workflow bundle. */
  middlewareModules(): string[] {
    return workflowModulesOf([...this.agents.values()]);
  }

  /** The provider for a model id. */
  provider(model: string): ModelProvider {
    const cached = this.providerCache.get(model);
    if (cached) return cached;
    const entry = this.providers[model] ?? this.providers["*"];
    if (!entry) {
      const known = Object.keys(this.providers).join(", ") || "none";
      throw new RegistryLookupError(
        `no provider for model '${model}' on this worker (providers: ${known})`,
        "model",
      );
    }
    const provider = typeof entry === "function" ? entry(model) : entry;
    this.providerCache.set(model, provider);
    return provider;
  }

  private definition(agent: string): AgentDefinition {
    const definition = this.agents.get(agent);
    if (!definition) {
      const known = this.agentNames().join(", ") || "none";
      throw new RegistryLookupError(`unknown agent '${agent}' (this worker has: ${known})`, "agent");
    }
    return definition;
  }
}
