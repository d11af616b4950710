import type { AgentClient } from "../client.js";
import { handleInterrupts } from "../demo/interrupts.js";
import { errorMessage } from "../kernel/errors.js";
import type { RunResult } from "../kernel/events.js";
import type { DurableEvent } from "../runtime/run-event-stream.js";
import type { CliScope } from "./cli-scope.js";
import { EventRenderer } from "./event-renderer.js";
import { EXIT, exitCodeForStop } from "./exit-codes.js";
import { HumanResponder } from "./human-responder.js";
import { InlinePrompter } from "./inline-prompter.js";
import { defaultActor, type ResponderFlags } from "./responder-options.js";
import { jsonEventLine } from "./json-event-line.js";

/** Which run to follow, how to print it, and what Ctrl-C does. */
export interface FollowRunOptions extends ResponderFlags {
  sessionId: string;
  runId: string;
  fromOffset?: number;
  json?: boolean;
  /** `cancel` (run): the first Ctrl-C cancels the run and waits for its end; `detach` (watch): stop following. */
  onInterrupt: "cancel" | "detach";
}

const INTERRUPTED: unique symbol = Symbol("interrupted");

/** What Ctrl-C does: cancel the run (the stream then ends with `done(aborted)`), or just stop following. */
function onFirstInterrupt(scope: CliScope, client: AgentClient, options: FollowRunOptions): () => void {
  return () => {
    if (options.onInterrupt === "detach") return;
    scope.note(`Ctrl-C: cancelling run ${options.runId}… (Ctrl-C again to quit and leave it running)`);
    client
      .cancel(options.sessionId, { runId: options.runId, reason: "Ctrl-C in lite-agent run" })
      .catch((error: unknown) => scope.note(`could not cancel: ${errorMessage(error)}`));
  };
}

function responderFor(
  scope: CliScope,
  client: AgentClient,
  options: FollowRunOptions,
  renderer: EventRenderer,
): HumanResponder {
  const { io } = scope;
  const prompter = io.interactive
    ? new InlinePrompter({
        input: io.stdin,
        output: io.promptOutput,
        onInterrupt: () => process.kill(process.pid, "SIGINT"),
      })
    : undefined;
  return new HumanResponder({
    client,
    sessionId: options.sessionId,
    ...(options.yes ? { approvals: "allow" as const } : options.no ? { approvals: "deny" as const } : {}),
    ...(options.answer === undefined ? {} : { answer: options.answer }),
    actor: options.actor ?? defaultActor(io.env),
    ...(prompter ? { prompter } : {}),
    commandPrefix: scope.globals.commandPrefix,
    say: (line) => {
      renderer.endLine();
      scope.note(scope.style.yellow(line));
    },
    beforePrompt: () => renderer.endLine(),
  });
}

/**
 * Follows one run to its end: prints its events (rendered, or one JSON object per line), answers its
 * approvals and questions as the flags say, and returns the exit code of how it ended.
 */
export async function followRun(
  scope: CliScope,
  client: AgentClient,
  options: FollowRunOptions,
): Promise<number> {
  const renderer = new EventRenderer(scope.io.stdout, scope.io.color);
  const responder = responderFor(scope, client, options, renderer);
  const interrupts = handleInterrupts(() => undefined);
  interrupts.signal.addEventListener("abort", onFirstInterrupt(scope, client, options), { once: true });
  const interrupted = interrupts.interrupted.then((): typeof INTERRUPTED => INTERRUPTED);
  const events = client.events(options.sessionId, options.runId, { fromOffset: options.fromOffset ?? 0 });
  const show = (event: DurableEvent) =>
    options.json ? scope.io.stdout(jsonEventLine(event, options.sessionId)) : renderer.render(event);
  try {
    let result: RunResult;
    for (;;) {
      const next = events.next();
      // Detaching leaves a poll pending; closing the connection ends it, and its rejection is expected.
      next.catch(() => undefined);
      const step = options.onInterrupt === "detach" ? await Promise.race([next, interrupted]) : await next;
      if (step === INTERRUPTED) {
        renderer.endLine();
        return EXIT.aborted;
      }
      if (step.done) {
        result = step.value;
        break;
      }
      show(step.value);
      responder.onEvent(step.value);
    }
    renderer.endLine();
    return exitCodeForStop(result.stopReason);
  } finally {
    await responder.settle();
    interrupts.dispose();
  }
}
