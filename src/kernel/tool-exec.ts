import { z } from "zod";
import { errorMessage } from "./errors.js";
import { addUsage } from "./model.js";
import type { ToolCallContext } from "./middleware.js";
import type { RunState } from "./run-state.js";
import type { AnyTool, ToolCall, ToolContext, ToolResult } from "./tools.js";

/**
 * The innermost layer of a tool call: unknown tools and invalid arguments become error results for the model
 * (the run never throws for them); otherwise the tool runs with its validated input.
 */
export function executeBaseTool(run: RunState, tctx: ToolCallContext): Promise<ToolResult> {
  const { call } = tctx;
  const tool = run.toolsByName.get(call.name);
  if (!tool) {
    const content = `Error: unknown tool '${call.name}'`;
    return Promise.resolve({ id: call.id, name: call.name, content, isError: true });
  }
  // Not async: handing on invokeTool's promise costs none of its own.
  return invokeTool(tool, call, toolContext(run, tctx));
}

/**
 * Validates a call's input against the tool's zod schema and runs it. Invalid input and anything the tool
 * throws become error results. Shared by the kernel and the durable `executeTool` activity. Not async: one promise
 * (the `then`) instead of two, each a stack trace in a workflow (docs/decisions/0014).
 */
export function invokeTool(tool: AnyTool, call: ToolCall, ctx: ToolContext): Promise<ToolResult> {
  const parsed = tool.schema.safeParse(call.input);
  if (!parsed.success) {
    const content = `Error: invalid arguments for tool '${call.name}': ${z.prettifyError(parsed.error)}`;
    return Promise.resolve({ id: call.id, name: call.name, content, isError: true });
  }
  const failed = (error: unknown): ToolResult => ({
    id: call.id,
    name: call.name,
    content: `Error: ${errorMessage(error)}`,
    isError: true,
  });
  try {
    return Promise.resolve(tool.execute(parsed.data, ctx)).then((output) => {
      if (typeof output === "string") return { id: call.id, name: call.name, content: output };
      return output.isError
        ? { id: call.id, name: call.name, content: output.content, isError: true }
        : { id: call.id, name: call.name, content: output.content };
    }, failed);
  } catch (error) {
    return Promise.resolve(failed(error));
  }
}

/** What the tool sees of the run. */
function toolContext(run: RunState, tctx: ToolCallContext): ToolContext {
  const { config } = run;
  const ctx: ToolContext = {
    sessionId: run.sessionId,
    signal: run.signal,
    emit: tctx.emit,
    call: tctx.call,
    turn: tctx.turn,
  };
  if (config.approval) ctx.approval = config.approval;
  if (config.input) ctx.input = config.input;
  if (config.sandbox) ctx.sandbox = config.sandbox;
  if (run.fork) ctx.fork = run.fork;
  ctx.addUsage = (usage) => void (run.usage = addUsage(run.usage, usage));
  if (run.background) ctx.background = run.background.tasks;
  if (tctx.recordSessionEvent) ctx.recordSessionEvent = tctx.recordSessionEvent;
  if (run.log.persistent)
    ctx.recordSnapshot = (path, before, truncated, encoding) =>
      recordSnapshot(run, tctx.turn, { path, before, truncated, encoding });
  return ctx;
}

interface Snapshot {
  path: string;
  before: string | null;
  truncated: boolean | undefined;
  encoding: "utf8" | "base64" | undefined;
}

/** Persists a file's content before a tool changes it, within the session's snapshot quota. */
function recordSnapshot(run: RunState, turn: number, snapshot: Snapshot): void {
  const quota = run.config.maxSnapshotBytesPerSession;
  const size = snapshot.before?.length ?? 0;
  const overQuota = quota !== undefined && run.snapshotBytes + size > quota;
  if (!overQuota) run.snapshotBytes += size;
  const event = {
    type: "file_snapshot" as const,
    path: snapshot.path,
    before: overQuota ? null : snapshot.before,
    turn,
    ...(overQuota || snapshot.truncated ? { truncated: true } : {}),
    ...(snapshot.encoding && !overQuota ? { encoding: snapshot.encoding } : {}),
  };
  // A failed append surfaces on the next awaited append of this run.
  void run.log.append(event)?.catch(() => undefined);
}
