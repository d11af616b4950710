import type { DecisionSigner } from "../client/decision-signer.js";
import type { AgentClient, SessionHandle } from "../client.js";
import { handleInterrupts } from "../terminal/interrupts.js";
import type { RunResult } from "../kernel/vocabulary/events.js";
import type { DurableEvent } from "../client/events/run-event-stream.js";
import type { CliScope } from "./cli-scope.js";
import { EventRenderer } from "./render/event-renderer.js";
import { EXIT, exitCodeForStop } from "./exit-codes.js";
import { HumanResponder } from "../terminal/human-responder.js";
import { InlinePrompter } from "../terminal/inline-prompter.js";
import type { OutputFormat } from "./options/output-format.js";
import type { ResponderFlags } from "./options/responder-options.js";
import { jsonEventLine } from "./render/json-event-line.js";
import { runCommands } from "./run-commands.js";

/** Which run to follow, how to print it, and who answers its approvals and questions. */
export interface FollowRunOptions extends ResponderFlags {
  sessionId: string;
  runId: string;
  fromOffset?: number;
  /** `json` and `jsonl` alike print one JSON event per line, as they come. */
  output: OutputFormat;
  /** Recorded with every decision and answer given from here (see `resolveActor`). */
  actor: string;
  /** Signs them (`--key-file`). */
  signer?: DecisionSigner;
}

const INTERRUPTED: unique symbol = Symbol("interrupted");

/**
 * What Ctrl-C did, said exactly: following stopped and the run goes on in its workflow, with the commands that
 * follow it again or cancel it. A run is durable; stopping to look at it must not be what ends it.
 */
function detachedLines(scope: CliScope, options: FollowRunOptions): string {
  const { watch, cancel } = runCommands(scope, options.sessionId, options.runId);
  return [
    `Ctrl-C: stopped following. Run ${options.runId} goes on in session ${options.sessionId}.`,
    `  follow it again: ${watch}`,
    `  cancel it:       ${cancel}`,
  ].join("\n");
}

function responderFor(
  scope: CliScope,
  session: SessionHandle,
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
    session,
    ...(options.yes ? { approvals: "allow" as const } : options.no ? { approvals: "deny" as const } : {}),
    ...(options.answer === undefined ? {} : { answer: options.answer }),
    actor: options.actor,
    ...(options.signer ? { signer: options.signer } : {}),
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
 * approvals and questions as the flags say, and returns the exit code of how it ended. Ctrl-C stops following
 * (exit 130) and leaves the run going.
 */
export async function followRun(
  scope: CliScope,
  client: AgentClient,
  options: FollowRunOptions,
): Promise<number> {
  const renderer = new EventRenderer(scope.io.stdout, scope.io.color);
  const session = client.session(options.sessionId);
  const responder = responderFor(scope, session, options, renderer);
  const interrupts = handleInterrupts(() => undefined);
  const interrupted = interrupts.interrupted.then((): typeof INTERRUPTED => INTERRUPTED);
  const events = session.events(options.runId, { fromOffset: options.fromOffset ?? 0 });
  const show = (event: DurableEvent) =>
    options.output !== "table"
      ? scope.io.stdout(jsonEventLine(event, options.sessionId))
      : renderer.render(event);
  try {
    let result: RunResult;
    for (;;) {
      const next = events.next();
      // Detaching leaves a poll pending; closing the connection ends it, and its rejection is expected.
      next.catch(() => undefined);
      const step = await Promise.race([next, interrupted]);
      if (step === INTERRUPTED) {
        renderer.endLine();
        scope.note(scope.style.yellow(detachedLines(scope, options)));
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
