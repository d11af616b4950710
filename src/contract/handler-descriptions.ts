/**
 * What each signal, update and query does and takes, by wire name: the Temporal UI shows these next to its
 * "Send a Signal" / update / query forms (they are served by the workflow's metadata query).
 */
export const HANDLER_DESCRIPTIONS = {
  startRun:
    "Queues a run: {agent, input, runId?, images?}. The agent must be the session's. Returns {runId, offset}.",
  queueSteer: 'Queues a steer or follow-up: {kind: "steer" | "followUp", id, content}. Deduplicated by id.',
  cancelRun: "Cancels the running run, or the given one: {runId?, reason?}. Returns the ids cancelled.",
  closeSession: "Closes the session: queued runs finish, then the workflow completes. No input.",
  steer: 'Steers the next turn: {"id": "unique", "content": "..."}. Deduplicated by id.',
  followUp: 'Follows up when the model would stop: {"id": "unique", "content": "..."}. Deduplicated by id.',
  cancel: 'Cancels the running run, or a queued one: {} or {"runId": "...", "reason": "..."}.',
  decideToolCall:
    'Decides a pending approval: {callId, decision: "allow" | "deny", actor?, reason?}. Refused when the call is unknown or settled, or the actor is not among its approvers.',
  approve:
    'Allows a pending tool call: {"callId": "...", "actor": "...", "reason": "..."} (see Current Details; an actor who is not among its approvers is listed and ignored).',
  deny: 'Denies a pending tool call: {"callId": "...", "actor": "...", "reason": "..."} (see Current Details; an actor who is not among its approvers is listed and ignored).',
  answerQuestion:
    "Answers a pending question: {callId, text?, selected?, actor?}. Refused when unknown or settled.",
  answer:
    'Answers a pending question: {"callId": "...", "text": "..."} or {"callId": "...", "selected": ["..."]}.',
  interruptRun:
    "Cancels the in-flight model call and re-plans: {id?, content?}. Returns whether a call was interrupted.",
  interrupt: 'Cancels the in-flight model call and re-plans: {} or {"content": "steer first"}.',
  startFork:
    "Used by a tool's ctx.fork: {callId, input, forkId, tools?} starts a fork of the agent as a child session and returns its result. Refused unless that tool call is running.",
  wake: "Does nothing but wake the session: after a rollout, an idle session moves to the new current build. No input.",
  taskBoundary:
    "Does nothing: a client sends it when an update was refused twice as busy with no new event between, to separate the update from finished work. No input.",
  sessionStatus:
    "The session: status, current run, pending approvals and questions, queue, usage, rejected inputs.",
  runSummary: "A finished run's outcome, by run id: {runId, stopReason, text, usage}.",
  sessionTranscript:
    "The transcript: archived segment references, then unarchived messages from {from?} (paged, about 1 MB).",
  modelRequest: "The model request of an in-flight model call, by key (read by the callModel activity).",
} as const;
