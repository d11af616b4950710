import type { ContextPlannerInput, ContextProposal } from "../kernel/context/types.js";
import type { EffectRef } from "../kernel/vocabulary/effects.js";
import type { ModelPrice } from "../kernel/vocabulary/budget.js";
import type { SamplingSettings } from "../kernel/vocabulary/model.js";
import type { BackgroundLimits } from "../kernel/background/types.js";
import type { PermissionRule } from "../kernel/permission/policy.js";
import type { JsonSchema, ToolRetryClass } from "../kernel/vocabulary/tools.js";
import type { ApproverKey, ApproverRule } from "./approvers.js";
import type { McpToolInfo } from "./mcp-tool-info.js";

export type { CodecName } from "../kernel/codecs/codec-for.js";
import type { CodecName } from "../kernel/codecs/codec-for.js";

/** What the workflow knows of a tool: its spec and how it may be retried. The implementation stays on the worker. */
export interface DurableToolPlan {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** `at-most-once` (default) never runs twice; `idempotent` is retried and gets a stable idempotency key. */
  retry: ToolRetryClass;
  /** Start-to-close timeout of one call. */
  timeoutMs: number;
  /** A call that stops heartbeating this long is treated as interrupted (its worker died). */
  heartbeatTimeoutMs: number;
  /** The task queue of this tool's activity, when not the session's. */
  taskQueue?: string;
  /** A runtime tool that runs inside the workflow instead of as an activity (`ask_user`, the delegation tool). */
  builtin?: "ask_user" | "delegate";
  /** The delegation tool: the agents it may start as child sessions. */
  subagents?: string[];
  /** The delegation tool: what a `run_in_background` group is (default joinable: the run waits for its report). */
  backgroundKind?: "joinable" | "detached";
  /** A tool of an MCP server: each call is one `callMcpTool` activity over the worker's connection to it. */
  mcp?: McpToolRef;
}

/** Which MCP server and tool an agent tool stands for, and the hints the server gave (as it listed them). */
export interface McpToolRef {
  server: string;
  /** The tool's name on the server (the agent tool's name is prefixed and sanitised). */
  tool: string;
  annotations?: McpToolInfo["annotations"];
}

/** Permission rules that travel with the plan (no functions: `where` is not allowed). */
export interface PermissionPlan {
  allow?: string[];
  ask?: string[];
  deny?: string[];
  rules?: Omit<PermissionRule, "where">[];
  default?: "allow" | "ask" | "deny";
  mode?: "enforce" | "dry-run";
  audit?: boolean;
  /** How long a durable approval may wait; default 24 h. */
  approvalTimeoutMs?: number;
  /** What a timed-out approval becomes; default deny. */
  onTimeout?: "deny" | "allow" | "fail";
  /**
   * Who may decide approvals, per tool pattern (every matching rule counts). A tool no rule names may be decided
   * by anyone, as when there are no approvers. A decision from anyone else is refused (update) or listed and
   * ignored (signal).
   */
  approvers?: ApproverRule[];
  /** Groups of actors that `approvers` names; the worker's `approverGroups` add the ones not defined here. */
  groups?: Record<string, string[]>;
  /** The approvers' Ed25519 public keys: signed decisions are checked against them (docs/operations.md). */
  approverKeys?: ApproverKey[];
}

/** How the model activity is retried (Temporal retry policy), following the seed's `retry()` semantics. */
export interface ModelRetryPlan {
  maximumAttempts: number;
  initialIntervalMs: number;
  maximumIntervalMs: number;
  backoffCoefficient: number;
  /** Start-to-close timeout of one model call. */
  timeoutMs: number;
  heartbeatTimeoutMs: number;
}

/** When a session continues as new (between runs, or inside a run at a turn boundary). */
export interface ContinueAsNewPlan {
  /** Continue when the history holds more events than this (Temporal also suggests it near its limits). */
  maxHistoryEvents: number;
  /** Continue when the history is larger than this many bytes. */
  maxHistoryBytes?: number;
  /** Continue after this many runs in one workflow execution. */
  maxRunsPerExecution: number;
}

/**
 * How the session's carried conversation is compacted, durably and in-process alike: before a model call above
 * `tokenThreshold` estimated tokens, the compactor's form replaces the conversation and is carried across
 * continue-as-new. Durable runs archive what a compaction removes first (see `session.transcript()`).
 */
export interface CompactionPlan {
  /**
   * `default`: the model-free passes (snip middle turns, blank old tool-result bodies). `llm`: older turns are
   * replaced by a summary that a model writes (an activity in durable runs), the newest `keepRecentTurns` kept.
   */
  strategy: "default" | "llm";
  /** Compact only while the estimated tokens (characters / 4) are above this. Default 120,000. */
  tokenThreshold?: number;
  /** `llm`: the newest turns kept verbatim. Default 3. */
  keepRecentTurns?: number;
  /** `llm`: the model id of the summary call; default the agent's model. */
  summaryModel?: string;
  /** `llm`: the summary call's system prompt; default `DEFAULT_SUMMARY_PROMPT`. */
  summaryPrompt?: string;
  /** `llm`: consecutive summary failures after which a run stops asking (per run and execution). Default 2. */
  maxFailures?: number;
  /** `default`: snip middle turns only beyond this many messages. Default 50. */
  maxMessages?: number;
  /** `default`: how many of the newest tool results keep their body. Default 3. */
  keepRecentToolResults?: number;
}

/**
 * The ContextEngine's settings. With a `planner` (an effect taking `ContextPlannerInput` and answering a
 * `ContextProposal`) level 3 asks it which older segments to keep, summarise or archive: an activity in durable
 * runs, so give it `plannerTimeoutMs` to match (default 100 ms, the seed's, then level 4 runs instead).
 */
export interface ContextPlan {
  windowTokens?: number;
  planner?: EffectRef<ContextPlannerInput, ContextProposal>;
  plannerTimeoutMs?: number;
}

/**
 * What a run and a session may spend (checked before each model call; a run over a limit ends with stop reason
 * `budget`). Costs need `prices` for the agent's model, in one currency per million tokens.
 */
export interface BudgetPlan {
  maxRunTokens?: number;
  maxSessionTokens?: number;
  maxRunCost?: number;
  maxSessionCost?: number;
  prices?: Record<string, ModelPrice>;
}

/** A middleware the workflow makes again: the id of its registered factory and its options (plain data). */
export interface MiddlewarePlan {
  id: string;
  options?: unknown;
}

/**
 * The serialisable description of an agent: it is the workflow's input for a run and shows in the Temporal UI.
 * Implementations (tool functions, providers) are registered on the worker under the same names.
 */
export interface AgentPlan extends SamplingSettings {
  name: string;
  /** The model id; the worker resolves it to a provider. */
  model: string;
  system?: string;
  codec: CodecName;
  tools: DurableToolPlan[];
  maxTurns: number;
  maxParallelTools: number;
  maxDecodeRetries: number;
  permission?: PermissionPlan;
  /** The ContextEngine's settings; off unless present. */
  context?: ContextPlan;
  /** Compaction of the carried conversation; off unless present. */
  compaction?: CompactionPlan;
  /** Token and cost limits per run and per session; none unless present. */
  budget?: BudgetPlan;
  /** The seed's limits on background tasks (a subagent group started with `run_in_background`). */
  backgroundLimits?: BackgroundLimits;
  /** The definition's own middleware, outer → inner, inside the permission gate and compaction. */
  use?: MiddlewarePlan[];
  /**
   * The names of the agent's MCP servers: each run lists their tools once, by an activity on the worker, and the
   * listing is recorded. How to reach them (commands, URLs, headers) stays on the worker, out of the history.
   */
  mcpServers?: string[];
  /**
   * The agent's skills, read from its skill folders when the plan is made (on the worker, in the `resolveAgent`
   * activity, so a replay sees the same list); listed in the system prompt, loaded with the `load_skill` tool.
   */
  skills?: SkillSummary[];
  /** The `SKILL.md` files left out of `skills` because they could not be read; absent when every one was. */
  skillDiagnostics?: SkillDiagnostic[];
  modelRetry: ModelRetryPlan;
  continueAsNew: ContinueAsNewPlan;
  /**
   * How the worker that resolved the plan (the `resolveAgent` activity) publishes live model output: in the model
   * activity's heartbeats (`temporal`, ADR 0019), into Redis (`redis`), or not at all (`none`): readers describe the
   * session for live output only with `temporal`. Absent in plans made elsewhere.
   */
  liveOutput?: "temporal" | "redis" | "none";
  /**
   * The resolving worker's clock (ms since the epoch). Recorded with the plan, so every replay reads the time the
   * live run did, unlike workflow time (the session's progress clock, docs/decisions/0014). Absent in plans made
   * elsewhere and in histories recorded before it was carried.
   */
  resolvedAt?: number;
}

/** What the model is told of a skill before it loads it. */
export interface SkillSummary {
  name: string;
  description: string;
}

/** A skill file (or folder) left out of an agent's skills, and why: the other skills work without it. */
export interface SkillDiagnostic {
  /** The `SKILL.md` file, or the skill folder that could not be listed. */
  file: string;
  error: string;
}
