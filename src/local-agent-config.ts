import type { CreateAgentConfig } from "./agent.js";
import { agentTools, mcpToolDefaults, toAgentPlan, type AgentDefinition } from "./define-agent.js";
import { directEffectRunner } from "./kernel/vocabulary/effects.js";
import { planBudget } from "./plan/plan-budget.js";
import { planPermission } from "./plan/plan-permission.js";
import { planCompactor } from "./plan/plan-compactor.js";
import { compaction } from "./kernel/compaction/compaction-middleware.js";
import { planSettings } from "./plan/plan-settings.js";
import { skillDiagnostics } from "./plan/skill-diagnostics.js";
import type { ApprovalHandler, InputHandler } from "./kernel/permission/types.js";
import type { Middleware } from "./kernel/middleware/middleware.js";
import type { ModelProvider } from "./kernel/vocabulary/model.js";
import { mcpToolSource } from "./mcp/mcp-tool-source.js";
import { assertMcpInstalled } from "./mcp/mcp-sdk.js";
import { SecretScrubber, declaredSecrets } from "./wire/scrub-secrets.js";
import { environmentSecrets, mcpServerSecrets } from "./wire/known-secrets.js";
import { scrubSecretsMiddleware } from "./wire/scrub-middleware.js";

/** What an in-process run adds to a definition: who approves, who answers, extra middleware. */
export interface LocalAgentOptions {
  /** Asked for every `ask` verdict of the definition's permission rules; without one they are denied. */
  approval?: ApprovalHandler;
  /** Answers `ask_user`. */
  input?: InputHandler;
  /** Middleware inside the permission gate, compaction and the definition's own `use`. */
  use?: Middleware[];
}

/**
 * The in-process configuration of a definition, for `createAgent`: permission rules, compaction and skipped skill
 * files become middleware as in durable runs (`llm` summaries come from `model`, asked for `summaryModel`; nothing is
 * archived). Its MCP servers become a tool source the agent owns: `agent.close()` ends their connections.
 */
export function localAgentConfig(
  definition: AgentDefinition,
  model: ModelProvider,
  options: LocalAgentOptions = {},
): CreateAgentConfig {
  // Everything runs in-process, so any middleware will do: only the durable plan needs them to be rebuildable.
  const plan = toAgentPlan({ ...definition, use: [] });
  const effects = directEffectRunner(definition.effects ?? [], definition.name);
  const config: CreateAgentConfig = {
    ...planSettings(plan, effects),
    model,
    tools: agentTools(definition),
    use: [
      // Outermost, as a worker's activities are: nothing else sees a secret (docs/operations.md#secrets).
      scrubSecretsMiddleware(localSecrets(definition, model)),
      ...skillDiagnostics(plan.skillDiagnostics),
      ...planPermission(plan.permission, options.approval),
      ...(plan.compaction
        ? [compaction(planCompactor(plan.compaction, { provider: model, model: plan.model }))]
        : []),
      ...(definition.use ?? []),
      ...(options.use ?? []),
    ],
    effects,
  };
  if (definition.mcpServers && Object.keys(definition.mcpServers).length) {
    assertMcpInstalled();
    config.toolSources = [mcpToolSource(definition.mcpServers, mcpToolDefaults(definition))];
  }
  const budget = planBudget(plan);
  if (budget) config.budget = budget;
  if (options.approval) config.approval = options.approval;
  if (options.input) config.input = options.input;
  return config;
}

/** The secrets an in-process run scrubs: the environment's API keys, the model's declared keys, MCP credentials. */
function localSecrets(definition: AgentDefinition, model: ModelProvider): SecretScrubber {
  const servers = Object.values(definition.mcpServers ?? {});
  return new SecretScrubber([
    ...environmentSecrets(process.env),
    ...declaredSecrets(model),
    ...mcpServerSecrets(servers),
  ]);
}
