import { setHandler } from "@temporalio/workflow";
import {
  answerQuestionUpdate,
  answerSignal,
  approveSignal,
  cancelRunSignal,
  cancelRunUpdate,
  closeSessionUpdate,
  decideToolCallUpdate,
  denySignal,
  followUpSignal,
  startForkUpdate,
  interruptSignal,
  interruptUpdate,
  modelRequestQuery,
  queueSteerUpdate,
  runSummaryQuery,
  sessionStatusQuery,
  sessionTranscriptQuery,
  startRunUpdate,
  steerSignal,
  wakeSignal,
  taskBoundarySignal,
} from "../../contract/messages.js";
import { HANDLER_DESCRIPTIONS as about } from "../../contract/handler-descriptions.js";
import type { Message } from "../../kernel/vocabulary/messages.js";
import type { ModelRequest } from "../../kernel/vocabulary/model.js";
import type {
  AnswerQuestionRequest,
  DecideToolCallRequest,
  StartRunRequest,
  StartRunResult,
  SteerRequest,
} from "../../contract/requests.js";
import type { SessionStatus } from "../../contract/session-status.js";
import type { RunSummary } from "../../contract/run-summary.js";
import type { TranscriptPageRequest } from "../../contract/transcript-page.js";
import { checkCancel, checkInterrupt, checkSteer } from "../admission/payload-checks.js";
import { undecodableReason } from "../admission/lenient-payload-converter.js";
import { checkStartFork, startFork, type ForkHost } from "../run/durable-fork.js";
import { cancelRuns, type CancelTarget } from "./run-cancel.js";
import { transcriptPage } from "../transcript/transcript-page.js";
import type { ActiveRun } from "../run/active-run.js";
import type { ApprovalBoard } from "../approvals/approval-board.js";
import type { SteerQueue } from "./steer-queue.js";
import type { TranscriptLedger } from "../transcript/transcript-ledger.js";
import { workflowPorts } from "../run/workflow-ports.js";

/** What the handlers reach of the session (SessionState): commands that only queue or flag, and what queries read. */
export interface HandledSession extends CancelTarget, ForkHost {
  readonly board: CancelTarget["board"] &
    Pick<ApprovalBoard, "checkDecision" | "checkAnswer" | "decide" | "answer" | "rejectDecision">;
  readonly current: ActiveRun | undefined;
  readonly steers: Pick<SteerQueue, "add" | "interruptWith">;
  readonly requests: ReadonlyMap<string, ModelRequest>;
  readonly lifecycle: { readonly closed: boolean };
  readonly transcript: TranscriptLedger;
  readonly messages: Message[];
  woken: boolean;
  validateStartRun(request: StartRunRequest): void;
  startRun(request: StartRunRequest): StartRunResult;
  rejectIfClosed(): void;
  reject(message: string, code?: string): void;
  close(): void;
  refreshVisibility(): void;
  status(): SessionStatus;
  runSummary(runId: string): RunSummary | undefined;
}

/**
 * Wires every signal, update and query of the session workflow (ADR 0012 names them) to the session's state.
 * Handlers only validate, queue or flag; the workflow loop does the work. Called once, right after the state is made
 * (which registers the stream's handlers first): the order is kept, so buffered messages arrive as before.
 */
export function registerSessionHandlers(session: HandledSession): void {
  registerHumanHandlers(session);
  setHandler(startRunUpdate, (request) => session.startRun(request), {
    validator: (request) => session.validateStartRun(request),
    description: about.startRun,
  });
  setHandler(queueSteerUpdate, (request) => void session.steers.add(request.kind, request), {
    validator: (request) => {
      session.rejectIfClosed();
      const problem =
        request?.kind === "steer" || request?.kind === "followUp"
          ? checkSteer(request)
          : (undecodableReason(request) ?? "'kind' must be steer or followUp");
      if (problem) throw new TypeError(`queueSteer: ${problem}`);
    },
    description: about.queueSteer,
  });
  const steerBySignal = (kind: "steer" | "followUp") => (request: unknown) => {
    const problem = session.lifecycle.closed ? "the session is closed" : checkSteer(request);
    if (problem) return session.reject(`${kind} signal ignored: ${problem}`);
    session.steers.add(kind, request as SteerRequest);
  };
  setHandler(steerSignal, steerBySignal("steer"), { description: about.steer });
  setHandler(followUpSignal, steerBySignal("followUp"), { description: about.followUp });
  setHandler(cancelRunUpdate, (request) => ({ cancelled: cancelRuns(session, request ?? {}) }), {
    validator: (request) => rejectWith("cancelRun", checkCancel(request)),
    description: about.cancelRun,
  });
  setHandler(
    cancelRunSignal,
    (request) => {
      const problem = checkCancel(request);
      if (problem) session.reject(`cancel signal ignored: ${problem}`);
      else cancelRuns(session, request ?? {});
    },
    { description: about.cancel },
  );
  // Every update has a validator: the update admission runs after it (update-admission.ts).
  setHandler(closeSessionUpdate, () => session.close(), {
    validator: () => undefined,
    description: about.closeSession,
  });
  setHandler(startForkUpdate, (request) => startFork(session, request), {
    validator: (request) => rejectWith("startFork", checkStartFork(session, request)),
    description: about.startFork,
  });
  setHandler(sessionStatusQuery, () => session.status(), { description: about.sessionStatus });
  setHandler(runSummaryQuery, (runId) => session.runSummary(runId), {
    description: about.runSummary,
  });
  setHandler(sessionTranscriptQuery, (request) => transcriptPageOf(session, request), {
    description: about.sessionTranscript,
  });
  setHandler(modelRequestQuery, (key) => session.requests.get(key), { description: about.modelRequest });
}

/** Approvals, answers and interrupts: an update with a validator each, and a signal for the UI and CLI. */
function registerHumanHandlers(session: HandledSession): void {
  setHandler(decideToolCallUpdate, (request) => decide(session, request, "update"), {
    validator: (request) => rejectWith("decideToolCall", session.board.checkDecision(request)),
    description: about.decideToolCall,
  });
  const decideBySignal = (decision: "allow" | "deny", name: string) => (request: unknown) => {
    const full = { ...(request as object), decision } as DecideToolCallRequest;
    const problem = session.board.checkDecision(full);
    if (!problem) return void decide(session, full, "signal");
    // Listed with who sent it and why, in the status, the current details and the event stream.
    if (typeof request === "object" && request !== null && !undecodableReason(request))
      session.board.rejectDecision(full, problem, workflowPorts.now());
    session.reject(`${name} signal ignored: ${problem}`, "rejected_decision");
    session.refreshVisibility();
  };
  setHandler(approveSignal, decideBySignal("allow", "approve"), { description: about.approve });
  setHandler(denySignal, decideBySignal("deny", "deny"), { description: about.deny });
  setHandler(answerQuestionUpdate, (request) => answer(session, request, true), {
    validator: (request) => rejectWith("answerQuestion", session.board.checkAnswer(request)),
    description: about.answerQuestion,
  });
  setHandler(
    answerSignal,
    (request) => {
      const problem = session.board.checkAnswer(request);
      if (problem) session.reject(`answer signal ignored: ${problem}`);
      else answer(session, request);
    },
    { description: about.answer },
  );
  setHandler(interruptUpdate, (request) => ({ interrupted: session.steers.interruptWith(request ?? {}) }), {
    validator: (request) => {
      session.rejectIfClosed();
      rejectWith("interrupt", checkInterrupt(request));
    },
    description: about.interruptRun,
  });
  setHandler(
    interruptSignal,
    (request) => {
      const problem = checkInterrupt(request);
      if (problem) session.reject(`interrupt signal ignored: ${problem}`);
      else session.steers.interruptWith(request ?? {});
    },
    { description: about.interrupt },
  );
  // The recorded workflow task it brings is the point: the idle loop reads then whether its build changed.
  setHandler(wakeSignal, () => void (session.woken = true), { description: about.wake });
  // The event it records is the point (src/workflows/admission/update-admission.ts); the session state does not change.
  setHandler(taskBoundarySignal, () => undefined, { description: about.taskBoundary });
}

/** An update validator's refusal: the operation and the reason, as the caller reads it. */
function rejectWith(operation: string, problem: string | undefined): void {
  if (problem) throw new TypeError(`${operation}: ${problem}`);
}

/**
 * Takes a decision that passed its check, at workflow time. An update's is checked again here: its validator does
 * not run on replay, and the handler's refusal (a bad signature, a used nonce) is then recorded in the history.
 */
function decide(
  session: HandledSession,
  request: DecideToolCallRequest,
  via: "update" | "signal",
): { callId: string; decision: "allow" | "deny" } {
  if (via === "update") rejectWith("decideToolCall", session.board.checkDecision(request));
  session.board.decide(request, workflowPorts.now(), via);
  return { callId: request.callId, decision: request.decision };
}

/** Takes an answer that passed its check; an update's is checked again, as {@link decide} says. */
function answer(session: HandledSession, request: AnswerQuestionRequest, update = false): { callId: string } {
  if (update) rejectWith("answerQuestion", session.board.checkAnswer(request));
  session.board.answer(request);
  return { callId: request.callId };
}

/** A page of the transcript; the run in progress shows its conversation as the kernel holds it. */
function transcriptPageOf(session: HandledSession, request: TranscriptPageRequest | undefined) {
  const from = typeof request === "object" && request !== null ? request.from : undefined;
  const conversation = session.current?.live ?? session.messages;
  return transcriptPage(session.transcript, conversation, typeof from === "number" ? from : 0);
}
