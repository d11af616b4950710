import { defineQuery, defineSignal, defineUpdate } from "@temporalio/workflow";
import type { ModelRequest } from "../kernel/vocabulary/model.js";
import type { RunResult } from "../kernel/vocabulary/events.js";
import type {
  AnswerQuestionRequest,
  ApprovalSignal,
  CancelRunRequest,
  DecideToolCallRequest,
  InterruptRequest,
  QueueSteerRequest,
  StartForkRequest,
  StartRunRequest,
  StartRunResult,
  SteerRequest,
} from "./requests.js";
import type { SessionStatus } from "./session-status.js";
import type { RunSummary } from "./run-summary.js";
import type { TranscriptPage, TranscriptPageRequest } from "./transcript-page.js";

// The session's signals, updates and queries, by wire name (their payloads are in the files imported above). The
// names are recorded in histories and typed into the Temporal UI: they never change (docs/decisions/0012).

/**
 * The failure type of an update the session refused only because its workflow task held other work
 * (src/workflows/admission/update-admission.ts): nothing of it was applied; send it again with the same update id.
 */
export const SESSION_BUSY = "LiteAgent.SessionBusy";

export const startRunUpdate = defineUpdate<StartRunResult, [StartRunRequest]>("startRun");
export const queueSteerUpdate = defineUpdate<void, [QueueSteerRequest]>("queueSteer");
export const cancelRunUpdate = defineUpdate<{ cancelled: string[] }, [CancelRunRequest]>("cancelRun");
export const closeSessionUpdate = defineUpdate<void, []>("closeSession");
export const steerSignal = defineSignal<[SteerRequest]>("steer");
export const followUpSignal = defineSignal<[SteerRequest]>("followUp");
export const cancelRunSignal = defineSignal<[CancelRunRequest]>("cancel");
export const decideToolCallUpdate = defineUpdate<
  { callId: string; decision: "allow" | "deny" },
  [DecideToolCallRequest]
>("decideToolCall");
export const approveSignal = defineSignal<[ApprovalSignal]>("approve");
export const denySignal = defineSignal<[ApprovalSignal]>("deny");
export const answerQuestionUpdate = defineUpdate<{ callId: string }, [AnswerQuestionRequest]>(
  "answerQuestion",
);
export const answerSignal = defineSignal<[AnswerQuestionRequest]>("answer");
export const interruptUpdate = defineUpdate<{ interrupted: boolean }, [InterruptRequest]>("interruptRun");
export const interruptSignal = defineSignal<[InterruptRequest]>("interrupt");
/** A tool running in an activity starts a fork of the agent (`ctx.fork`): a child session; resolves with its end. */
export const startForkUpdate = defineUpdate<RunResult, [StartForkRequest]>("startFork");
/**
 * Does nothing but give the session a workflow task. Temporal tells a pinned session that a new build is its target
 * only in a workflow task, and an idle session has none until its next message: a rollout sends this to the
 * sessions left on the old build so they move now (docs/operations.md, "Rollout").
 */
export const wakeSignal = defineSignal<[]>("wake");
/**
 * Does nothing: a client sends it when an update was refused as busy twice with no new event in the session's history
 * between the refusals, so that the history has an event between a finished task and the update's next attempt
 * (src/workflows/admission/update-admission.ts). Its jobs count as no work.
 */
export const taskBoundarySignal = defineSignal<[]>("taskBoundary");
export const sessionStatusQuery = defineQuery<SessionStatus>("sessionStatus");
export const runSummaryQuery = defineQuery<RunSummary | undefined, [string]>("runSummary");
/** The model request of an in-flight model call, by key: the model activity reads it instead of carrying it. */
export const modelRequestQuery = defineQuery<ModelRequest | undefined, [string]>("modelRequest");
export const sessionTranscriptQuery = defineQuery<TranscriptPage, [TranscriptPageRequest?]>(
  "sessionTranscript",
);
