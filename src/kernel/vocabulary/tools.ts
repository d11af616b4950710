import { z, type ZodType } from "zod";
import type { AgentEvent, RunResult } from "./events.js";
import type { AbortSignalLike } from "./ports.js";
import type { Usage } from "./model.js";
import type { JsonSchema, ToolCall, ToolSpec } from "./tool-calls.js";
import type { SessionEvent } from "./session-events.js";
import type { ApprovalHandler, InputHandler } from "../permission/types.js";
import type { BackgroundTasks } from "../background/types.js";

export type { JsonSchema, ToolCall, ToolResult, ToolSpec } from "./tool-calls.js";

/** Options of a fork. */
export interface ForkOptions {
  /** The fork's identity; every event of the fork carries it. Default `task-<n>`. */
  forkId?: string;
  /** The tools the fork may use; default: the parent's. */
  tools?: AnyTool[];
}

/**
 * How a tool may be retried in the durable runtime. `at-most-once` (the default) never runs twice: a crash
 * mid-call gives a synthetic interrupted result. `idempotent` is retried with backoff and gets a stable
 * `idempotencyKey`.
 */
export type ToolRetryClass = "at-most-once" | "idempotent";

/** What a tool declares about its reach; shown to policies and operators. */
export interface ToolSecurity {
  network?: "none" | "loopback" | "private" | "unrestricted";
  filesystem?: "none" | "read" | "write";
  sideEffects?: boolean;
}

/** Where a wrapped command will run. */
export interface SandboxWrapOptions {
  cwd: string;
}

/** Runs shell commands inside an isolation layer. */
export interface Sandbox {
  id: string;
  wrap(command: string, options: SandboxWrapOptions): string | Promise<string>;
  initialize?(): Promise<void>;
  dispose?(): Promise<void>;
}

/** Everything a tool receives besides its input. */
export interface ToolContext {
  sessionId: string;
  signal: AbortSignalLike;
  emit(event: AgentEvent): void;
  call?: ToolCall;
  /** The turn the call belongs to. */
  turn?: number;
  approval?: ApprovalHandler;
  input?: InputHandler;
  sandbox?: Sandbox;
  background?: BackgroundTasks;
  /** A key that stays the same across retries of this call (durable runtime). */
  idempotencyKey?: string;
  /** Persists the content of a file before the tool changes it (only with a checkpointer). */
  recordSnapshot?(
    path: string,
    before: string | null,
    truncated?: boolean,
    encoding?: "utf8" | "base64",
  ): void;
  /** Persists a sidecar event in the session log (only with a checkpointer). */
  recordSessionEvent?(event: SessionEvent): void;
  /** Runs a fork of the agent (a parallel clone seeded with the conversation so far); absent inside a fork. */
  fork?(input: string, options?: ForkOptions): Promise<RunResult>;
  /** Counts model usage the tool caused (a subagent's) toward the run's usage. */
  addUsage?(usage: Usage): void;
  /** Reports liveness for long tools (an activity heartbeat in the durable runtime). */
  heartbeat?(details?: unknown): void;
}

/** A zod-typed tool. */
export interface Tool<I = unknown> {
  name: string;
  description: string;
  schema: ZodType<I>;
  /** The JSON Schema sent to the model; generated from `schema` when omitted. */
  parameters?: JsonSchema;
  security?: ToolSecurity;
  /** Durable retry class; `at-most-once` when omitted. */
  retry?: ToolRetryClass;
  /** Durable start-to-close timeout of one call, in ms. */
  timeoutMs?: number;
  /** Durable: run this tool's activity on another task queue (workers with special access or hardware). */
  taskQueue?: string;
  /** Set on the runtime's own tools (e.g. `ask_user`), which durable runs execute inside the workflow. */
  builtin?: string;
  execute(input: I, ctx: ToolContext): ToolOutput | Promise<ToolOutput>;
}

/** What a tool returns: its text, or the text with an explicit error flag. */
export type ToolOutput = string | { content: string; isError?: boolean };

/**
 * Defines a tool with a zod schema; the input type is inferred.
 * @example defineTool({ name: "add", description: "Adds", schema, execute: ({ a, b }) => String(a + b) })
 */
export function defineTool<S extends ZodType>(def: Tool<z.infer<S>> & { schema: S }): Tool<z.infer<S>> {
  return def;
}

/** The model-facing spec of a tool, with JSON Schema generated from its zod schema. */
export function toToolSpec(tool: Tool<never> | Tool<unknown>): ToolSpec {
  const parameters =
    tool.parameters ?? (z.toJSONSchema(tool.schema, { unrepresentable: "any" }) as JsonSchema);
  return { name: tool.name, description: tool.description, parameters };
}

/** A tool of any input type, as agents hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any>;
