import type { DecisionSigner, SessionHandle } from "../client.js";
import { shownToolInput, toolInputView } from "./tool-input-view.js";
import type { ToolCall } from "../kernel/vocabulary/tool-calls.js";
import type { AgentEvent, AgentEventOf } from "../kernel/vocabulary/events.js";
import { errorMessage } from "../kernel/vocabulary/errors.js";
import { formatAnswer, parseApprovalReply, parseQuestionReply } from "./human-replies.js";
import type { InlinePrompter } from "./inline-prompter.js";
import { shellQuote } from "./shell-quote.js";

/** Options of {@link HumanResponder}. */
export interface HumanResponderOptions {
  /** The session of the run whose requests it answers. */
  session: SessionHandle;
  /** `--yes` / `--no`: the decision on every approval; else they are asked inline, or left waiting. */
  approvals?: "allow" | "deny";
  /** `--answer`: the reply to every question; else questions are asked inline (mode `ask`) or left waiting. */
  answer?: string;
  /** Recorded as who decided. */
  actor: string;
  /** Signs every decision and answer given from here (`--key-file`). */
  signer?: DecisionSigner;
  /** Present when a person at a terminal can be asked. */
  prompter?: InlinePrompter;
  /** `lite-agent [--address …]`, for the commands printed while waiting. */
  commandPrefix: string;
  /** A line on stderr. */
  say(line: string): void;
  /** Called before a prompt takes the terminal (to end the text line being streamed). */
  beforePrompt(): void;
}

/**
 * Answers the approvals and questions of a run while its events stream: decides them (`--yes`/`--no`/
 * `--answer`), asks the person at the terminal, or prints the exact command that answers them. A request
 * that is decided elsewhere is dropped from the terminal when its `*_resolved` event arrives.
 */
export class HumanResponder {
  private readonly open = new Map<string, AbortController>();
  /** The calls whose prompt is on the terminal (or queued for it). */
  private readonly prompting = new Set<string>();
  private readonly work = new Set<Promise<void>>();
  private settling = false;

  constructor(private readonly options: HumanResponderOptions) {}

  /** Looks at every event of the run; only requests and resolutions matter. */
  onEvent(event: AgentEvent): void {
    if (event.type === "approval_request")
      this.track(event.call.id, (signal) => this.approval(event, signal));
    else if (event.type === "input_request")
      this.track(event.call.id, (signal) => this.question(event, signal));
    else if (event.type === "approval_resolved" || event.type === "input_resolved")
      this.open.get(event.id)?.abort();
  }

  /** Drops the prompts still open (the run ended) and waits for the decisions being sent. */
  async settle(): Promise<void> {
    this.settling = true;
    for (const callId of this.prompting) this.open.get(callId)?.abort();
    await Promise.allSettled([...this.work]);
  }

  /** Asks at the terminal, unless the responder is settling (nobody would read the prompt). */
  private async ask<T>(
    callId: string,
    query: string,
    parse: (reply: string) => T | undefined,
    hint: string | ((reply: string) => string),
    signal: AbortSignal,
  ): Promise<T | undefined> {
    const prompter = this.options.prompter;
    if (!prompter || this.settling) return undefined;
    this.prompting.add(callId);
    this.options.beforePrompt();
    try {
      return await prompter.ask(query, parse, hint, signal);
    } finally {
      this.prompting.delete(callId);
    }
  }

  private track(callId: string, respond: (signal: AbortSignal) => Promise<void>): void {
    const controller = new AbortController();
    this.open.set(callId, controller);
    const task = respond(controller.signal)
      .catch((error: unknown) => this.options.say(`could not answer ${callId}: ${errorMessage(error)}`))
      .finally(() => {
        this.open.delete(callId);
        this.work.delete(task);
      });
    this.work.add(task);
  }

  /** Whether the call still waits (a watch from an early offset replays requests decided long ago). */
  private async stillPending(
    kind: "pendingApprovals" | "pendingQuestions",
    callId: string,
  ): Promise<boolean> {
    try {
      const status = await this.options.session.describe();
      return status[kind].some((pending) => pending.callId === callId);
    } catch {
      return true;
    }
  }

  private command(verb: string, callId: string, rest: string): string {
    const { commandPrefix, session } = this.options;
    return `${commandPrefix} ${verb} ${shellQuote(session.sessionId)} ${shellQuote(callId)}${rest}`;
  }

  private async approval(event: AgentEventOf<"approval_request">, signal: AbortSignal): Promise<void> {
    const { session, approvals, actor, signer, prompter } = this.options;
    const callId = event.call.id;
    if (!(await this.stillPending("pendingApprovals", callId)) || signal.aborted) return;
    let reply: { decision: "allow" | "deny"; reason?: string } | undefined;
    // No reason with --yes/--no: a denial's reason is what the model reads, and "--no" would tell it nothing.
    if (approvals) reply = { decision: approvals };
    else if (prompter) {
      reply = await this.ask(
        callId,
        approvalQuery(event.call),
        parseApprovalReply,
        approvalHint(event.call),
        signal,
      );
    } else {
      this.options.say(
        `waiting for a decision on ${callId}: ${this.command("approve", callId, "")}  (or deny … --reason '…')`,
      );
      return;
    }
    if (!reply || signal.aborted) return;
    const decide = reply.decision === "allow" ? session.approve.bind(session) : session.deny.bind(session);
    await decide(callId, {
      actor,
      ...(reply.reason ? { reason: reply.reason } : {}),
      ...(signer ? { signer } : {}),
    });
  }

  private async question(event: AgentEventOf<"input_request">, signal: AbortSignal): Promise<void> {
    const { session, answer, actor, signer, prompter } = this.options;
    const callId = event.call.id;
    if (!(await this.stillPending("pendingQuestions", callId)) || signal.aborted) return;
    const parse = (reply: string) => parseQuestionReply(reply, event.question);
    let reply = answer === undefined ? undefined : parse(answer);
    if (!reply && prompter) {
      const { question, options } = event.question;
      const choices =
        options && options.length > 0
          ? `\n${options.map((option, i) => `  ${i + 1}) ${option}`).join("\n")}\n`
          : " ";
      reply = await this.ask(
        callId,
        `${question}${choices}> `,
        parse,
        "Please type an answer (or option numbers).",
        signal,
      );
    } else if (!reply) {
      this.options.say(`waiting for an answer to ${callId}: ${this.command("answer", callId, " '<text>'")}`);
      return;
    }
    if (!reply || signal.aborted) return;
    await session.answer(callId, reply, { actor, ...(signer ? { signer } : {}) });
    if (answer !== undefined) this.options.say(`answered ${callId}: ${formatAnswer(reply)}`);
  }
}

/** Inputs up to this long (as JSON) are shown on the prompt's line. */
const INLINE_INPUT_CHARS = 100;

/** The approval prompt: a short input on the prompt's line; a longer one in full above it (cut past 4,000 chars). */
function approvalQuery(call: ToolCall): string {
  const json = JSON.stringify(call.input) ?? "";
  const choices = "[y/n, optionally followed by a reason; ? shows the input]";
  if (json.length <= INLINE_INPUT_CHARS) return `Allow ${call.name} ${json}? ${choices} `;
  return `Allow ${call.name} with this input?\n${shownToolInput(call.input)}\nAllow ${call.name}? ${choices} `;
}

/** What a reply that is not y or n gets: `?` the whole input, anything else how to answer. */
function approvalHint(call: ToolCall): (reply: string) => string {
  return (reply) =>
    reply.trim() === "?"
      ? `The input of ${call.name}, in full:\n${toolInputView(call.input)}`
      : "Please answer y or n (e.g. 'n not now'), or ? to see the input.";
}
