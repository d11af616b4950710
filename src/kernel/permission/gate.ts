import { BUILTIN_MIDDLEWARE } from "../middleware/builtin-middleware-ids.js";
import { errorMessage } from "../vocabulary/errors.js";
import { isPlainData } from "../vocabulary/plain-data.js";
import type { AgentEventOf, DecisionSource } from "../vocabulary/events.js";
import type {
  DurableMiddlewareRef,
  Middleware,
  ToolCallContext,
  ToolExec,
} from "../middleware/middleware.js";
import type { AbortSignalLike } from "../vocabulary/ports.js";
import type { ToolCall, ToolResult } from "../vocabulary/tools.js";
import { defaultRedactor, type Redactor } from "./redact.js";
import { serialLock, type SerialLock } from "./serial-lock.js";
import type { PolicyOptions } from "./policy.js";
import type { ApprovalAnswer, ApprovalHandler, PermissionPolicy, PolicyVerdict } from "./types.js";

/** The options of `permission()`. */
export interface PermissionOptions {
  /** Masks secrets in the call input of every emitted event; `defaultRedactor` when omitted. */
  redact?: Redactor;
  /** `dry-run` reports what the policy would decide (`simulated: true`) and always runs the tool. */
  mode?: "enforce" | "dry-run";
  /** Also persist every `permission_decision` through `ctx.recordSessionEvent` (with the turn). */
  audit?: boolean;
  /**
   * Prompt the approver for one call at a time, in arrival order (default true). The durable runtime passes
   * false so several approvals can be pending at once.
   */
  serializeApprovals?: boolean;
}

/** How an `ask` ended. */
interface Resolution {
  decision: "allow" | "deny";
  by: DecisionSource;
  actor?: string;
  reason?: string;
  at?: number;
  keyId?: string;
}

type DecisionFields = Omit<AgentEventOf<"permission_decision">, "type" | "call">;

interface GateSettings {
  policy: PermissionPolicy;
  approval: ApprovalHandler | undefined;
  redact: Redactor;
  dryRun: boolean;
  audit: boolean;
  lock: SerialLock | undefined;
}

const DECISIONS: readonly string[] = ["allow", "deny", "ask"];

/**
 * The permission gate, a `wrapToolCall` layer: allow runs the call; deny answers `Error: blocked by policy[: reason]`;
 * ask emits `approval_request`/`approval_resolved` around the approver (`approval`, else `ctx.approval`; none, a throw
 * or an abort deny). Each path emits one redacted `permission_decision`; a throwing policy denies (fail closed).
 */
export function permission(
  policy: PermissionPolicy,
  approval?: ApprovalHandler,
  opts: PermissionOptions = {},
): Middleware {
  const settings: GateSettings = {
    policy,
    approval,
    redact: opts.redact ?? defaultRedactor,
    dryRun: opts.mode === "dry-run",
    audit: opts.audit ?? false,
    lock: (opts.serializeApprovals ?? true) ? serialLock() : undefined,
  };
  const middleware: Middleware = {
    name: "permission",
    wrapToolCall: (ctx, next) => gate(settings, ctx, next),
  };
  // Over a `policy()` of plain options the gate also runs durably: it carries a `durable` reference.
  const durable = durablePermission(policy, approval, opts);
  return durable ? { ...middleware, durable } : middleware;
}

async function gate(settings: GateSettings, ctx: ToolCallContext, next: ToolExec): Promise<ToolResult> {
  const verdict = await evaluate(settings.policy, ctx);
  const safeCall = redactCall(ctx.call, settings.redact);
  const report = (fields: DecisionFields) => reportDecision(ctx, safeCall, fields, settings.audit);
  const provenance = { ...optional("ruleId", verdict.ruleId), ...optional("reason", verdict.reason) };
  if (settings.dryRun) {
    report({ decision: verdict.decision, by: "policy", ...provenance, simulated: true });
    return next();
  }
  if (verdict.decision !== "ask") {
    report({ decision: verdict.decision, by: "policy", ...provenance });
    return verdict.decision === "allow" ? next() : errorResult(ctx.call, "blocked by policy", verdict.reason);
  }
  ctx.emit({ type: "approval_request", call: safeCall, ...optional("reason", verdict.reason) });
  const resolution = await resolveApproval(settings, ctx, verdict);
  // A person's decision carries its time in both drivers: the approver's own, else the run's clock now.
  const at = resolution.at ?? (resolution.by === "user" ? ctx.ports.now() : undefined);
  const answer = {
    ...optional("actor", resolution.actor),
    ...optional("reason", resolution.reason),
    ...optional("at", at),
    ...optional("keyId", resolution.keyId),
  };
  ctx.emit({
    type: "approval_resolved",
    id: ctx.call.id,
    decision: resolution.decision,
    by: resolution.by,
    ...answer,
  });
  report({ decision: resolution.decision, by: resolution.by, ...provenance, ...answer });
  if (resolution.decision === "allow") return next();
  // A person's denial reads "denied by user"; an automatic one with a cause says what failed.
  const base =
    resolution.by === "auto" && resolution.reason !== undefined ? "approval failed" : "denied by user";
  return errorResult(ctx.call, base, resolution.reason);
}

/** Runs the policy; a throw or a malformed answer becomes a deny (fail closed). */
async function evaluate(policy: PermissionPolicy, ctx: ToolCallContext): Promise<PolicyVerdict> {
  try {
    const answer = await policy.check(ctx.call, { sessionId: ctx.sessionId });
    const verdict: PolicyVerdict = typeof answer === "string" ? { decision: answer } : { ...answer };
    if (!DECISIONS.includes(verdict?.decision)) throw new Error(`invalid decision ${JSON.stringify(answer)}`);
    return verdict;
  } catch (error) {
    return { decision: "deny", reason: `policy error: ${errorMessage(error)}` };
  }
}

/** Asks the approver, one call at a time when serialised; gives up (deny) on abort or when the approver throws. */
async function resolveApproval(
  settings: GateSettings,
  ctx: ToolCallContext,
  verdict: PolicyVerdict,
): Promise<Resolution> {
  // A gate without its own approver asks the run's (the `approval` config in-process, the board in durable runs).
  const approval = settings.approval ?? ctx.approval;
  if (approval === undefined) return { decision: "deny", by: "auto" };
  const slot = settings.lock?.acquire();
  try {
    // Waits for the previous prompt when serialised; a run that is already aborted is never prompted.
    const ready = await untilAborted(slot?.ready ?? Promise.resolve(), ctx.signal);
    if (ready === ABORTED) return abortedResolution();
    const approvalCtx = { sessionId: ctx.sessionId, ...optional("reason", verdict.reason) };
    // Through a promise so a synchronous throw is handled like a rejection.
    const asked = Promise.resolve().then(() => approval.request(ctx.call, approvalCtx));
    const answer = await untilAborted(asked, ctx.signal);
    return answer === ABORTED ? abortedResolution() : fromAnswer(answer);
  } catch (error) {
    return { decision: "deny", by: "auto", reason: `approval error: ${errorMessage(error)}` };
  } finally {
    // Released on abort too: a prompt left open by an aborted run must not block later runs' prompts.
    slot?.release();
  }
}

const ABORTED: unique symbol = Symbol("aborted");

/** Settles with `promise`, or with ABORTED as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignalLike): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise<T | typeof ABORTED>((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(errorMessage(error)));
      },
    );
  });
}

function abortedResolution(): Resolution {
  return { decision: "deny", by: "auto", reason: "aborted while waiting for approval" };
}

/** Normalises an approver's answer; anything but an explicit allow is a deny. */
function fromAnswer(answer: ApprovalAnswer): Resolution {
  if (typeof answer === "string") return { decision: answer === "allow" ? "allow" : "deny", by: "user" };
  if (answer === null || typeof answer !== "object") return { decision: "deny", by: "user" };
  return {
    decision: answer.decision === "allow" ? "allow" : "deny",
    // An approver that decides on its own (a timeout policy) says so.
    by: answer.by === "auto" ? "auto" : "user",
    ...optional("actor", answer.actor),
    ...optional("reason", answer.reason),
    ...optional("at", typeof answer.at === "number" ? answer.at : undefined),
    ...optional("keyId", typeof answer.keyId === "string" ? answer.keyId : undefined),
  };
}

function reportDecision(ctx: ToolCallContext, call: ToolCall, fields: DecisionFields, audit: boolean): void {
  ctx.emit({ type: "permission_decision", call, ...fields });
  if (audit) ctx.recordSessionEvent?.({ type: "permission_decision", call, ...fields, turn: ctx.turn });
}

/** The call with its input redacted; a redactor that throws hides the whole input rather than leak it. */
function redactCall(call: ToolCall, redact: Redactor): ToolCall {
  try {
    return { ...call, input: redact(call.input) };
  } catch {
    return { ...call, input: "[redacted]" };
  }
}

function errorResult(call: ToolCall, base: string, reason?: string): ToolResult {
  const content = `Error: ${base}${reason ? `: ${reason}` : ""}`;
  return { id: call.id, name: call.name, content, isError: true };
}

/** `{ [key]: value }` when the value is defined, `{}` otherwise, so events carry no undefined fields. */
function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** The options of the durable `permission` built-in: a `policy()`'s options and the gate's plain options. */
export interface DurablePermissionOptions {
  policy: PolicyOptions;
  mode?: "enforce" | "dry-run";
  audit?: boolean;
  serializeApprovals?: boolean;
}

/**
 * A gate can run durably when it asks the run's approver (no handler of its own), its policy came from `policy()`
 * with plain options (no `where`), and it keeps the default redactor.
 */
function durablePermission(
  policy: PermissionPolicy,
  approval: ApprovalHandler | undefined,
  opts: PermissionOptions,
): DurableMiddlewareRef | undefined {
  if (approval || opts.redact || policy.options === undefined || !isPlainData(policy.options))
    return undefined;
  const options: DurablePermissionOptions = {
    policy: policy.options as PolicyOptions,
    ...(opts.mode ? { mode: opts.mode } : {}),
    ...(opts.audit !== undefined ? { audit: opts.audit } : {}),
    ...(opts.serializeApprovals !== undefined ? { serializeApprovals: opts.serializeApprovals } : {}),
  };
  return { id: BUILTIN_MIDDLEWARE.permission, options };
}
