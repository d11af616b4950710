import { randomUUID } from "node:crypto";
import type { WorkflowHandle } from "@temporalio/client";
import type { UpdateDefinition } from "@temporalio/common";
import type { RunResult } from "../kernel/vocabulary/events.js";
import { AgentError } from "../kernel/vocabulary/errors.js";
import type { Message } from "../kernel/vocabulary/messages.js";
import type { UserAnswer } from "../kernel/permission/types.js";
import { historyToJSONObject } from "./events/history-json.js";
import { readTranscript } from "./events/read-transcript.js";
import type { DurableEvent, EventStreamPosition } from "./events/run-event-stream.js";
import type { agentSession } from "../workflows/session/agent-session.js";
import {
  answerQuestionUpdate,
  cancelRunUpdate,
  closeSessionUpdate,
  decideToolCallUpdate,
  interruptUpdate,
  queueSteerUpdate,
} from "../contract/messages.js";
import type { DecideToolCallRequest, DecisionSignature } from "../contract/requests.js";
import type { SessionStatus } from "../contract/session-status.js";
import type { ClientContext } from "./client-context.js";
import { forkSession, type ForkedSession, type SessionForkOptions } from "./fork-session.js";
import { runEvents } from "./run-events.js";
import type { SessionRunOptions, StartedRun } from "./run-options.js";
import { sessionCall } from "./session-call.js";
import { decisionTarget, ownStatus, sessionStatus } from "./session-status.js";
import { updateSession } from "./session-update.js";
import { signDecision, type DecisionSigner } from "./decision-signer.js";
import { answerDecision } from "../plan/decision-message.js";

/** Who decides or answers, and why (`approve`, `deny`; `answer` takes no reason). */
export interface DecisionOptions {
  /** Default: the client's `actor`. */
  actor?: string;
  reason?: string;
  /** Signs the decision with this approver's key; default the client's `signer`, `false` for none. */
  signer?: DecisionSigner | false;
}

/**
 * One session, from `client.session(id)`: runs in it, their events, steering, decisions and what it holds. Every
 * operation fails with a `SessionError` that names it and the session.
 */
export class SessionHandle {
  /** The session's agent, once known (given to a start, or read from the session). */
  private agent: string | undefined;

  /** Made by `AgentClient.session`. */
  constructor(
    private readonly client: ClientContext,
    readonly sessionId: string,
  ) {}

  /** The session's Temporal workflow handle (its current execution). */
  get workflow(): WorkflowHandle<typeof agentSession> {
    return this.client.temporal.workflow.getHandle<typeof agentSession>(this.sessionId);
  }

  /** Queues a run (starting the session if needed, which then needs `agent`); returns where its events will be. */
  async start(input: string | Message[], options: SessionRunOptions = {}): Promise<StartedRun> {
    const agent = options.agent ?? this.agent ?? (await this.sessionAgent());
    const { runId = randomUUID(), images } = options;
    const request = { runId, agent, input, ...(images ? { images } : {}) };
    const started = await this.client.launcher.queueRun(this.sessionId, request);
    this.agent = agent;
    return { ...started, sessionId: this.sessionId };
  }

  /** Starts a run and yields its events as they happen; returns the run's result. */
  async *run(
    input: string | Message[],
    options: SessionRunOptions = {},
  ): AsyncGenerator<DurableEvent, RunResult> {
    const started = await this.start(input, options);
    return yield* this.events(started.runId, { fromOffset: started.offset });
  }

  /** Runs to the end and returns the result. */
  async send(input: string | Message[], options: SessionRunOptions = {}): Promise<RunResult> {
    const events = this.run(input, options);
    for (;;) {
      const next = await events.next();
      if (next.done) return next.value;
    }
  }

  /**
   * The events of one run from an offset, each once, in order: resume from the last `offset` seen plus one (and
   * the last `deltaId` seen) and nothing is missed or repeated; events whose history is gone come as one
   * `events_lost`. Its subagents' events are merged in. Ends with the run's `done`.
   */
  events(runId: string, position: EventStreamPosition = {}): AsyncGenerator<DurableEvent, RunResult> {
    return runEvents(this.client, this.sessionId, runId, position);
  }

  /**
   * Queues a steering message for the next turn start. `id` makes retries idempotent. One client's steers to a session
   * arrive in call order, even sent at once; several clients' in the order the session accepted them (ADR 0023).
   */
  steer(content: string | Message, options: { id?: string } = {}): Promise<void> {
    return this.queueSteer("steer", content, options.id);
  }

  /** Queues a message for when the model would stop. `id` makes retries idempotent. */
  followUp(content: string | Message, options: { id?: string } = {}): Promise<void> {
    return this.queueSteer("followUp", content, options.id);
  }

  /** Allows a pending tool call (in the session or a running subagent); rejected when unknown or decided. */
  approve(callId: string, options: DecisionOptions = {}): Promise<void> {
    return this.decide({ callId, decision: "allow", ...this.withActor(options) }, options.signer);
  }

  /** Denies a pending tool call; the model gets `Error: denied by user[: reason]`. */
  deny(callId: string, options: DecisionOptions = {}): Promise<void> {
    return this.decide({ callId, decision: "deny", ...this.withActor(options) }, options.signer);
  }

  /** Answers a pending question (`ask_user`): free text, or the selected options. */
  answer(
    callId: string,
    answer: string | UserAnswer,
    options: Omit<DecisionOptions, "reason"> = {},
  ): Promise<void> {
    const body = typeof answer === "string" ? { text: answer } : answer;
    return this.call("answer", async () => {
      const target = await decisionTarget(this.client.temporal, this.sessionId, callId, "pendingQuestions");
      const { actor } = this.withActor({ actor: options.actor });
      const request = { callId, ...body, ...(actor !== undefined ? { actor } : {}) };
      const decision = answerDecision(body);
      const signature = await this.signature(options.signer, { ...request, sessionId: target, decision });
      await updateSession(this.client.temporal, target, answerQuestionUpdate, [{ ...request, ...signature }]);
    });
  }

  /** Cancels the in-flight model call and re-plans now with the queued steers (`message` first); true if one was. */
  interrupt(message?: string): Promise<boolean> {
    const request = message === undefined ? { id: randomUUID() } : { id: randomUUID(), content: message };
    return this.call("interrupt", async () => (await this.update(interruptUpdate, [request])).interrupted);
  }

  /** Cancels the running run (or the given run, running or queued); returns the ids cancelled. */
  cancel(options: { runId?: string; reason?: string } = {}): Promise<string[]> {
    return this.call("cancel", async () => (await this.update(cancelRunUpdate, [options])).cancelled);
  }

  /** Closes the session: queued runs still finish, then its workflow completes; no new runs or steers. */
  close(): Promise<void> {
    return this.call("close", () => this.update(closeSessionUpdate, []));
  }

  /**
   * The session's status: current run and turn, queue, usage, stream offset. Its running subagents' approvals and
   * questions are listed with its own (each with the subagent's `sessionId`); answer them through either.
   */
  describe(): Promise<SessionStatus> {
    return this.call("describe", () => sessionStatus(this.client.temporal, this.sessionId));
  }

  /**
   * The whole transcript, however often it compacted: archived segments (read through the client's payload
   * storage, which must be the workers'), then the current messages not archived yet; each once, in order.
   */
  transcript(): Promise<Message[]> {
    const { externalStorage, payloadCodecs } = this.client.temporal.options.loadedDataConverter;
    return this.call("transcript", () => readTranscript(this.workflow, externalStorage, payloadCodecs));
  }

  /** The current workflow history, as Temporal's JSON (for `replay`, or to attach to a bug report). */
  history(): Promise<unknown> {
    return this.call("history", async () => historyToJSONObject(await this.workflow.fetchHistory()));
  }

  /**
   * Forks the session at the end of turn `atTurn` (read by replaying its history; the session is not touched): a
   * new idle session with its conversation then, optionally on another agent or model. Only ended turns fork.
   */
  fork(options: SessionForkOptions): Promise<ForkedSession> {
    return forkSession(this.client, this.sessionId, options);
  }

  /** The agent the session runs, from its status (a session that does not exist yet has none). */
  private async sessionAgent(): Promise<string> {
    return (await this.call("start run", () => ownStatus(this.client.temporal, this.sessionId))).agent;
  }

  private decide(
    { signer: _signer, ...request }: DecideToolCallRequest & { signer?: unknown },
    signer: DecisionSigner | false | undefined,
  ): Promise<void> {
    return this.call(request.decision === "allow" ? "approve" : "deny", async () => {
      const target = await decisionTarget(
        this.client.temporal,
        this.sessionId,
        request.callId,
        "pendingApprovals",
      );
      // Signed for the session the call waits in (a subagent's own), which is the one that checks it.
      const signature = await this.signature(signer, { ...request, sessionId: target });
      await updateSession(this.client.temporal, target, decideToolCallUpdate, [{ ...request, ...signature }]);
    });
  }

  /** `{ signature }` made by the call's signer or else the client's; empty when there is none. */
  private async signature(
    signer: DecisionSigner | false | undefined,
    fields: { sessionId: string; callId: string; decision: string; actor?: string; reason?: string },
  ): Promise<{ signature?: DecisionSignature }> {
    const chosen = signer === false ? undefined : (signer ?? this.client.signer);
    if (!chosen) return {};
    const { sessionId, callId, decision, actor, reason } = fields;
    const signed = {
      sessionId,
      callId,
      decision,
      ...(actor !== undefined ? { actor } : {}),
      ...(reason !== undefined ? { reason } : {}),
    };
    return { signature: await signDecision(chosen, signed) };
  }

  private queueSteer(
    kind: "steer" | "followUp",
    content: string | Message,
    id: string = randomUUID(),
  ): Promise<void> {
    if (typeof content === "string" && content.trim() === "")
      return Promise.reject(new AgentError(`${kind}: the message is empty`));
    return this.call(kind, () => this.update(queueSteerUpdate, [{ id, kind, content }]));
  }

  /** The call's options with an actor: the call's, else its signer's, else the client's. */
  private withActor<T extends { actor?: string; signer?: DecisionSigner | false }>(options: T): T {
    const actor = options.signer ? options.signer.actor : this.client.actor;
    return options.actor === undefined && actor !== undefined ? { ...options, actor } : options;
  }

  private update<Ret, Args extends unknown[]>(
    definition: UpdateDefinition<Ret, Args>,
    args: Args,
  ): Promise<Ret> {
    return updateSession(this.client.temporal, this.sessionId, definition, args);
  }

  /** Runs `call`, its errors mapped to SessionErrors naming `operation` and this session. */
  private call<T>(operation: string, call: () => Promise<T>): Promise<T> {
    return sessionCall(this.sessionId, operation, call);
  }
}
