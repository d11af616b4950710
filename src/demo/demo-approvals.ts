import type { Readable, Writable } from "node:stream";
import type { SessionHandle } from "../client.js";
import { osUserName } from "../terminal/os-user.js";
import { HumanResponder } from "../terminal/human-responder.js";
import { InlinePrompter } from "../terminal/inline-prompter.js";

/** Where the demo can ask a person, and what it was told on the command line. */
export interface DemoApprovalOptions {
  /** The demo run's session. */
  session: SessionHandle;
  /** `--yes`: approve without asking. */
  yes: boolean;
  input: Readable & { isTTY?: boolean };
  output: Writable;
  say(line: string): void;
}

/**
 * Answers the demo run's approval requests: approves them with `--yes`, asks the person at the terminal (y/n,
 * inline, while the run waits durably), or, with no terminal to ask and no `--yes`, declines them and says how
 * to approve next time. Ctrl-C at the prompt is the demo's Ctrl-C (it cancels the run).
 */
export function demoApprovals(options: DemoApprovalOptions): HumanResponder {
  const { session, yes, input, output, say } = options;
  const interactive = input.isTTY === true;
  if (!yes && !interactive)
    say("No terminal to ask for approvals: the report write is declined (--yes approves it).");
  const prompter = interactive
    ? new InlinePrompter({ input, output, onInterrupt: () => process.kill(process.pid, "SIGINT") })
    : undefined;
  return new HumanResponder({
    session,
    ...(yes ? { approvals: "allow" as const } : interactive ? {} : { approvals: "deny" as const }),
    actor: osUserName() ?? "demo user",
    ...(prompter ? { prompter } : {}),
    commandPrefix: "npx lite-agent",
    say,
    beforePrompt: () => output.write("\n"),
  });
}
