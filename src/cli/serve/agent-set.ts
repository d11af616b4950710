import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ProviderMap } from "../../activities/index.js";
import type { AgentDefinition } from "../../define-agent.js";
import { demoAgent } from "../../demo/demo-agent.js";
import { chooseDemoModel } from "../../demo/demo-model.js";
import { prepareSandbox } from "../../demo/prepare-sandbox.js";
import { usageError } from "../cli-error.js";

/** What a worker serves: agents and the model providers they run on. */
export interface AgentSet {
  agents: AgentDefinition[];
  providers: ProviderMap;
  /** A line about where the set comes from (the demo's model choice). */
  notice?: string;
}

const SHAPE =
  "its default export (or its named exports `agents` and `providers`) must be { agents: AgentDefinition[], providers: { [modelId]: ModelProvider } }";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isAgent(value: unknown): value is AgentDefinition {
  return isRecord(value) && typeof value.name === "string" && typeof value.model === "string";
}

function isProvider(value: unknown): boolean {
  return typeof value === "function" || (isRecord(value) && typeof value.stream === "function");
}

/**
 * The agent set a module exports, checked: a default export `{agents, providers}`, or named exports `agents`
 * and `providers`. Throws a usage error that says what is wrong.
 */
export function agentSetOf(module: Record<string, unknown>, file: string): AgentSet {
  const candidate = isRecord(module.default) && "agents" in module.default ? module.default : module;
  const { agents, providers } = candidate as { agents?: unknown; providers?: unknown };
  if (!Array.isArray(agents) || agents.length === 0) throw usageError(`${file} exports no agents: ${SHAPE}`);
  const bad = agents.findIndex((agent) => !isAgent(agent));
  if (bad >= 0)
    throw usageError(`${file}: agents[${bad}] is not an agent definition (it needs a name and a model)`);
  if (!isRecord(providers) || Object.keys(providers).length === 0)
    throw usageError(`${file} exports no providers: ${SHAPE}`);
  const badProvider = Object.entries(providers).find(([, provider]) => !isProvider(provider));
  if (badProvider)
    throw usageError(
      `${file}: providers['${badProvider[0]}'] is not a ModelProvider (it needs a stream() method)`,
    );
  return { agents: agents as AgentDefinition[], providers: providers as ProviderMap };
}

/**
 * Imports the agents module `file` (relative to `cwd`): JavaScript, or TypeScript where Node can load it (a
 * TypeScript loader such as tsx, as in this repository's source checkout, or a Node that strips types).
 */
export async function importAgentSet(file: string, cwd: string): Promise<AgentSet> {
  const absolute = path.resolve(cwd, file);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
  } catch (error) {
    const code = isRecord(error) ? error.code : undefined;
    if (code === "ERR_MODULE_NOT_FOUND" && String((error as Error).message).includes(absolute)) {
      throw usageError(`--agents: no module at ${absolute}`);
    }
    if (code === "ERR_UNKNOWN_FILE_EXTENSION" && /\.[cm]?tsx?$/.test(absolute)) {
      throw usageError(
        `--agents: this Node cannot load TypeScript (${file}): compile it to JavaScript, or give Node a ` +
          `TypeScript loader, e.g. NODE_OPTIONS="--import tsx" with tsx installed in your project`,
      );
    }
    throw error;
  }
  return agentSetOf(module, file);
}

/** The demo agent (`sandbox-analyst`) on the scripted model, or OpenAI when it is configured. */
export function demoAgentSet(cacheDir: string, env: NodeJS.ProcessEnv): AgentSet {
  const model = chooseDemoModel(env);
  const sandboxDir = path.join(cacheDir, "demo", "sandbox");
  prepareSandbox(sandboxDir);
  return {
    agents: [demoAgent(sandboxDir, model.id)],
    providers: { [model.id]: model.provider },
    notice: `${model.notice} Sandbox: ${sandboxDir}.`,
  };
}
