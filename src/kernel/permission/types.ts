import type { ToolCall } from "../vocabulary/tool-calls.js";

/** A permission verdict. */
export type Decision = "allow" | "deny" | "ask";

/** A verdict with its provenance. */
export interface PolicyVerdict {
  decision: Decision;
  ruleId?: string;
  reason?: string;
}

/** Decides whether a tool call may run. May throw; the gate then denies (fails closed). */
export interface PermissionPolicy {
  check(
    call: ToolCall,
    ctx: { sessionId: string },
  ): Decision | PolicyVerdict | Promise<Decision | PolicyVerdict>;
  /** The options `policy()` built it from, so a durable run can build it again (when they are plain data). */
  readonly options?: unknown;
}

/** The answer of a person (or a program) to an approval request. */
export type ApprovalAnswer =
  | "allow"
  | "deny"
  | {
      decision: "allow" | "deny";
      actor?: string;
      reason?: string;
      by?: "user" | "auto";
      /** When the decision was taken, ms since the epoch (durable approvals: workflow time). */
      at?: number;
      /** The approver key that signed the decision (durable approvals with `approverKeys`). */
      keyId?: string;
    };

/** Asks someone whether a tool call may run. */
export interface ApprovalHandler {
  request(
    call: ToolCall,
    ctx?: { sessionId: string; reason?: string },
  ): ApprovalAnswer | Promise<ApprovalAnswer>;
}

/** A question for the user. */
export interface UserQuestion {
  question: string;
  options?: string[];
  multiSelect?: boolean;
}

/** The user's answer. */
export interface UserAnswer {
  text?: string;
  selected?: string[];
}

/** Asks the user a question. */
export interface InputHandler {
  request(
    question: UserQuestion,
    ctx?: { sessionId: string; call?: ToolCall },
  ): UserAnswer | Promise<UserAnswer>;
}
