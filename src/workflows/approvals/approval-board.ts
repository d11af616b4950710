import { describeApprovers, mayDecide } from "../../plan/approver-rules.js";
import type { UserAnswer } from "../../kernel/permission/types.js";
import { undecodableReason } from "../admission/lenient-payload-converter.js";
import type { AnswerQuestionRequest, DecideToolCallRequest } from "../../contract/requests.js";
import type {
  DecisionRecord,
  PendingApproval,
  PendingQuestion,
  RejectedDecision,
} from "../../contract/session-status.js";
import type { CarriedDecisions } from "../../contract/carried-state.js";
import { DecisionLog } from "./decision-log.js";
import { optional } from "../admission/optional-field.js";
import { answerDecision } from "../../plan/decision-message.js";
import { DecisionSignatures } from "./decision-signatures.js";

/** A decision as the session records it. */
export interface RecordedDecision {
  decision: "allow" | "deny";
  actor?: string;
  reason?: string;
  /** Workflow time of the decision (absent in sessions whose execution began before decisions were timed). */
  at?: number;
  /** The key that signed it, when it was signed. */
  keyId?: string;
}

/** An answer as the session records it. */
export interface RecordedAnswer {
  answer: UserAnswer;
  actor?: string;
  keyId?: string;
}

/** How many settled decisions the board remembers, to explain a late or repeated one. */
const REMEMBERED = 200;

/**
 * The session's pending approvals and questions, and what was decided. Several can be pending at once and be
 * answered in any order; a decision for an unknown or already settled call is refused with the reason.
 */
export class ApprovalBoard {
  private readonly approvals = new Map<string, PendingApproval>();
  private readonly questions = new Map<string, PendingQuestion>();
  private readonly decisions = new Map<string, RecordedDecision>();
  private readonly answers = new Map<string, RecordedAnswer>();
  private readonly settled = new Map<string, string>();
  /** Calls whose wait the previous execution carried in, until the resumed run waits on them again. */
  private readonly carriedWaits = new Set<string>();
  private readonly log: DecisionLog;
  private readonly signatures: DecisionSignatures;

  /**
   * @param carried the decisions the previous execution listed (its input: checked, never trusted).
   * @param sessionId the workflow id, which signed decisions name.
   */
  constructor(carried?: CarriedDecisions, sessionId = "") {
    // From the previous execution's input, which is never trusted: only well-formed entries are kept.
    this.log = new DecisionLog(carried);
    this.signatures = new DecisionSignatures(sessionId, carried?.nonces);
    for (const pending of wellFormedWaits<PendingApproval>(carried?.pendingApprovals)) {
      this.approvals.set(pending.callId, pending);
      this.carriedWaits.add(pending.callId);
    }
    for (const pending of wellFormedWaits<PendingQuestion>(carried?.pendingQuestions)) {
      this.questions.set(pending.callId, pending);
      this.carriedWaits.add(pending.callId);
    }
  }

  /** What the next execution carries: the listed decisions and ignored signals, and what waits for a person. */
  carry(): CarriedDecisions | undefined {
    const approvals = this.pendingApprovals();
    const questions = this.pendingQuestions();
    const nonces = this.signatures.carry();
    if (this.log.size + approvals.length + questions.length + nonces.length === 0) return undefined;
    return {
      ...this.log.carry(),
      ...(nonces.length > 0 ? { nonces } : {}),
      ...(approvals.length > 0 ? { pendingApprovals: approvals } : {}),
      ...(questions.length > 0 ? { pendingQuestions: questions } : {}),
    };
  }

  /**
   * The pending approval the previous execution carried for this call, the first time the resumed run asks for it
   * (it waits on that one, until its original deadline); undefined otherwise.
   */
  resumeApproval(callId: string): PendingApproval | undefined {
    return this.carriedWaits.delete(callId) ? this.approvals.get(callId) : undefined;
  }

  /** The pending question the previous execution carried for this call, as {@link resumeApproval}. */
  resumeQuestion(callId: string): PendingQuestion | undefined {
    return this.carriedWaits.delete(callId) ? this.questions.get(callId) : undefined;
  }

  /** Whether the call waits for a person: its approval or question is pending, and nobody answered it yet. */
  awaitsPerson(callId: string): boolean {
    if (this.approvals.has(callId)) return !this.decisions.has(callId);
    return this.questions.has(callId) && !this.answers.has(callId);
  }

  pendingApprovals(): PendingApproval[] {
    return [...this.approvals.values()];
  }

  pendingQuestions(): PendingQuestion[] {
    return [...this.questions.values()];
  }

  addApproval(pending: PendingApproval): void {
    this.approvals.set(pending.callId, pending);
  }

  /** The last decisions taken, newest last. */
  recentDecisions(): DecisionRecord[] {
    return this.log.recentDecisions();
  }

  /** The decision signals that were ignored, newest last. */
  rejectedDecisions(): RejectedDecision[] {
    return this.log.rejectedDecisions();
  }

  addQuestion(pending: PendingQuestion): void {
    this.questions.set(pending.callId, pending);
  }

  /** Why a decision cannot be taken, or undefined when it can. */
  checkDecision(request: DecideToolCallRequest): string | undefined {
    const shape = checkShape(request, ["callId"]);
    if (shape) return shape;
    if (request.decision !== "allow" && request.decision !== "deny")
      return '\'decision\' must be "allow" or "deny"';
    const pending = this.approvals.get(request.callId);
    if (!pending || this.decisions.has(request.callId))
      return this.explainUnknown(request.callId, "approval", [...this.approvals.keys()]);
    if (pending.approvers && !mayDecide(pending.approvers, request.actor)) {
      const who = describeApprovers(pending.approvers);
      return request.actor
        ? `actor '${request.actor}' may not decide tool '${pending.tool}' (call '${request.callId}'); its approvers are: ${who}`
        : `a decision on tool '${pending.tool}' (call '${request.callId}') must name its actor; its approvers are: ${who}`;
    }
    return this.signatures.problem(pending.signing, request, request.decision);
  }

  /** Why an answer cannot be taken, or undefined when it can. */
  checkAnswer(request: AnswerQuestionRequest): string | undefined {
    const shape = checkShape(request, ["callId"]);
    if (shape) return shape;
    if (request.text !== undefined && typeof request.text !== "string") return "'text' must be a string";
    if (
      request.selected !== undefined &&
      (!Array.isArray(request.selected) || !request.selected.every((s) => typeof s === "string"))
    ) {
      return "'selected' must be an array of strings";
    }
    const pending = this.questions.get(request.callId);
    if (!pending || this.answers.has(request.callId))
      return this.explainUnknown(request.callId, "question", [...this.questions.keys()]);
    if (!pending.multiSelect && (request.selected?.length ?? 0) > 1)
      return "this question takes a single option";
    const unknown = request.selected?.find((choice) => pending.options && !pending.options.includes(choice));
    if (unknown !== undefined)
      return `'${unknown}' is not one of the options: ${pending.options!.join(", ")}`;
    return this.signatures.problem(pending.signing, request, answerDecision(request));
  }

  /** Records a decision that passed {@link checkDecision}, taken at workflow time `at`. */
  decide(request: DecideToolCallRequest, at: number, via: DecisionRecord["via"]): void {
    const keyId = this.signatures.take(request);
    const who = { ...optional("actor", request.actor), ...optional("reason", request.reason) };
    this.decisions.set(request.callId, {
      decision: request.decision,
      ...who,
      at,
      ...optional("keyId", keyId),
    });
    const tool = this.approvals.get(request.callId)?.tool ?? "";
    const signed = { signed: keyId !== undefined, ...optional("keyId", keyId) };
    this.log.record({ callId: request.callId, tool, decision: request.decision, ...who, at, via, ...signed });
  }

  /** Lists a decision signal that was ignored, and why. */
  rejectDecision(request: DecideToolCallRequest, why: string, at: number): void {
    this.log.reject(request, this.approvals.get(request.callId)?.tool, why, at);
  }

  answer(request: AnswerQuestionRequest): void {
    const answer: UserAnswer = {
      ...optional("text", request.text),
      ...optional("selected", request.selected),
    };
    const keyId = this.signatures.take(request);
    this.answers.set(request.callId, {
      answer,
      ...optional("actor", request.actor),
      ...optional("keyId", keyId),
    });
  }

  decisionFor(callId: string): RecordedDecision | undefined {
    return this.decisions.get(callId);
  }

  answerFor(callId: string): RecordedAnswer | undefined {
    return this.answers.get(callId);
  }

  /** Removes a pending approval once it is settled (decided or timed out), remembering how. */
  settleApproval(callId: string, how: string): void {
    this.approvals.delete(callId);
    this.decisions.delete(callId);
    this.remember(callId, how);
  }

  settleQuestion(callId: string, how: string): void {
    this.questions.delete(callId);
    this.answers.delete(callId);
    this.remember(callId, how);
  }

  /** Settles an approval only if it is still pending (a cancelled run may have settled it already). */
  settleApprovalIfPending(callId: string, how: string): void {
    if (this.approvals.has(callId)) this.settleApproval(callId, how);
  }

  settleQuestionIfPending(callId: string, how: string): void {
    if (this.questions.has(callId)) this.settleQuestion(callId, how);
  }

  /**
   * Settles everything a run was waiting on (it was cancelled): a later decision or answer is refused with `how`.
   * Returns what was settled.
   */
  settleRun(runId: string, how: string): { approvals: PendingApproval[]; questions: PendingQuestion[] } {
    const approvals = [...this.approvals.values()].filter((pending) => pending.runId === runId);
    const questions = [...this.questions.values()].filter((pending) => pending.runId === runId);
    for (const pending of approvals) this.settleApproval(pending.callId, how);
    for (const pending of questions) this.settleQuestion(pending.callId, how);
    return { approvals, questions };
  }

  private remember(callId: string, how: string): void {
    this.settled.set(callId, how);
    if (this.settled.size > REMEMBERED) this.settled.delete(this.settled.keys().next().value!);
  }

  private explainUnknown(callId: string, kind: string, pending: string[]): string {
    const settled = this.settled.get(callId);
    if (settled) return `call '${callId}' was already settled (${settled})`;
    const decided = this.decisions.get(callId) ?? this.answers.get(callId);
    if (decided) return `call '${callId}' was already decided`;
    return `no pending ${kind} for call '${callId}' (pending: ${pending.join(", ") || "none"})`;
  }
}

function checkShape(request: unknown, required: string[]): string | undefined {
  const undecodable = undecodableReason(request);
  if (undecodable) return undecodable;
  if (typeof request !== "object" || request === null) return "expected an object";
  for (const key of required) {
    const value = (request as Record<string, unknown>)[key];
    if (typeof value !== "string" || value === "") return `'${key}' must be a non-empty string`;
  }
  const { actor, reason } = request as { actor?: unknown; reason?: unknown };
  if (actor !== undefined && typeof actor !== "string") return "'actor' must be a string";
  if (reason !== undefined && typeof reason !== "string") return "'reason' must be a string";
  return undefined;
}

/** The carried pending approvals or questions that have the fields a wait needs. */
function wellFormedWaits<T extends { callId: string; runId: string; expiresAt: number }>(
  entries: unknown,
): T[] {
  if (!Array.isArray(entries)) return [];
  return entries.filter(
    (entry: Partial<T> | null): entry is T =>
      typeof entry === "object" &&
      entry !== null &&
      typeof entry.callId === "string" &&
      typeof entry.runId === "string" &&
      Number.isFinite(entry.expiresAt),
  );
}
