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
} from "../contract/messages.js";
import { HANDLER_DESCRIPTIONS as about } from "../contract/handler-descriptions.js";
import type { DecideToolCallRequest } from "../contract/requests.js";
import { checkCancel, checkInterrupt, checkSteer } from "./payload-checks.js";
import { undecodableReason } from "./lenient-payload-converter.js";
import type { SessionState } from "./session-state.js";
import { checkStartFork, startFork } from "./durable-fork.js";
import { workflowPorts } from "./workflow-ports.js";

/**
 * Wires every signal, update and query of the session workflow (ADR 0012 names them) to the session's state.
 * Handlers only validate, queue or flag; the workflow loop does the work. Called once, when the state is made,
 * after the stream's own handlers; the order is kept as it was, so buffered messages arrive as before.
 */
export function registerSessionHandlers(session: SessionState): void {
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
  setHandler(steerSignal, (request) => session.onSteerSignal("steer", request), { description: about.steer });
  setHandler(followUpSignal, (request) => session.onSteerSignal("followUp", request), {
    description: about.followUp,
  });
  setHandler(cancelRunUpdate, (request) => ({ cancelled: session.cancel(request ?? {}) }), {
    validator: (request) => rejectWith("cancelRun", checkCancel(request)),
    description: about.cancelRun,
  });
  setHandler(
    cancelRunSignal,
    (request) => {
      const problem = checkCancel(request);
      if (problem) session.reject(`cancel signal ignored: ${problem}`);
      else session.cancel(request ?? {});
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
  setHandler(sessionTranscriptQuery, (request) => session.transcriptPageOf(request), {
    description: about.sessionTranscript,
  });
  setHandler(modelRequestQuery, (key) => session.requests.get(key), { description: about.modelRequest });
}

/** Approvals, answers and interrupts: an update with a validator each, and a signal for the UI and CLI. */
function registerHumanHandlers(session: SessionState): void {
  setHandler(decideToolCallUpdate, (request) => session.decide(request, "update"), {
    validator: (request) => rejectWith("decideToolCall", session.board.checkDecision(request)),
    description: about.decideToolCall,
  });
  const decideBySignal = (decision: "allow" | "deny", name: string) => (request: unknown) => {
    const full = { ...(request as object), decision } as DecideToolCallRequest;
    const problem = session.board.checkDecision(full);
    if (!problem) return void session.decide(full, "signal");
    // Listed with who sent it and why, in the status, the current details and the event stream.
    if (typeof request === "object" && request !== null && !undecodableReason(request))
      session.board.rejectDecision(full, problem, workflowPorts.now());
    session.reject(`${name} signal ignored: ${problem}`, "rejected_decision");
    session.refreshVisibility();
  };
  setHandler(approveSignal, decideBySignal("allow", "approve"), { description: about.approve });
  setHandler(denySignal, decideBySignal("deny", "deny"), { description: about.deny });
  setHandler(answerQuestionUpdate, (request) => session.answer(request), {
    validator: (request) => rejectWith("answerQuestion", session.board.checkAnswer(request)),
    description: about.answerQuestion,
  });
  setHandler(
    answerSignal,
    (request) => {
      const problem = session.board.checkAnswer(request);
      if (problem) session.reject(`answer signal ignored: ${problem}`);
      else session.answer(request);
    },
    { description: about.answer },
  );
  setHandler(interruptUpdate, (request) => ({ interrupted: session.interrupt(request ?? {}) }), {
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
      else session.interrupt(request ?? {});
    },
    { description: about.interrupt },
  );
  // The recorded workflow task it brings is the point: the idle loop reads then whether its build changed.
  setHandler(wakeSignal, () => void (session.woken = true), { description: about.wake });
  // The event it records is the point (src/workflows/update-admission.ts); the session state does not change.
  setHandler(taskBoundarySignal, () => undefined, { description: about.taskBoundary });
}

/** An update validator's refusal: the operation and the reason, as the caller reads it. */
function rejectWith(operation: string, problem: string | undefined): void {
  if (problem) throw new TypeError(`${operation}: ${problem}`);
}
