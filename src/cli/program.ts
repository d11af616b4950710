import { Command } from "commander";
import type { CliRuntime } from "./command-action.js";
import { registerAnswerCommand } from "./commands/answer-command.js";
import { registerCancelCommand } from "./commands/cancel-command.js";
import { registerCloseCommand } from "./commands/close-command.js";
import { registerCodecServerCommand } from "./serve/codec-server-command.js";
import { registerDecisionCommands } from "./commands/decision-commands.js";
import { registerDevCommand } from "./serve/dev-command.js";
import { registerForkCommand } from "./commands/fork-command.js";
import { registerHistoryCommand } from "./commands/history-command.js";
import { registerInterruptCommand } from "./commands/interrupt-command.js";
import { registerKeygenCommand } from "./commands/keygen-command.js";
import { registerListCommand } from "./commands/list-command.js";
import { registerReplayCommand } from "./commands/replay-command.js";
import { registerRunCommand } from "./commands/run-command.js";
import { registerShowCommand } from "./commands/show-command.js";
import { registerTranscriptCommand } from "./commands/transcript-command.js";
import { registerSteerCommand } from "./commands/steer-command.js";
import { registerWatchCommand } from "./commands/watch-command.js";
import { registerWorkerCommand } from "./serve/worker-command.js";
import { addGlobalOptions } from "./options/global-options.js";
import { packageVersion } from "./package-version.js";

type Register = (program: Command, runtime: CliRuntime) => void;

/** The commands, by help group. */
const GROUPS: [string, Register[]][] = [
  ["Servers:", [registerDevCommand, registerWorkerCommand, registerCodecServerCommand]],
  ["Runs:", [registerRunCommand, registerWatchCommand]],
  [
    "People in the loop:",
    [
      registerDecisionCommands,
      registerAnswerCommand,
      registerSteerCommand,
      registerInterruptCommand,
      registerCancelCommand,
      registerKeygenCommand,
    ],
  ],
  [
    "Sessions:",
    [
      registerListCommand,
      registerShowCommand,
      registerTranscriptCommand,
      registerForkCommand,
      registerCloseCommand,
    ],
  ],
  ["Histories:", [registerHistoryCommand, registerReplayCommand]],
];

const EPILOG = `
Exit codes: 0 success (a run that stopped normally), 1 failure (failed run, rejected request, unreachable
server), 2 misuse of the command line, 130 interrupted or aborted.

Environment: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_CONFIG_FILE / TEMPORAL_PROFILE (a profile of Temporal's
config file; its TLS / API key settings too), LITE_AGENT_TASK_QUEUE, LITE_AGENT_ACTOR (who decides),
LITE_AGENT_APPROVER_KEY_FILE / LITE_AGENT_APPROVER_KEY (the key that signs decisions), LITE_AGENT_ENCRYPTION_KEYS
(payload encryption; also read by codec-server), LITE_AGENT_CODEC_TOKEN (codec-server's bearer token),
OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL (the demo agent's model).
`;

/**
 * The `lite-agent` program: global options, every command, and output and errors routed through the runtime's
 * io. Commander exits are overridden so `runCli` decides the exit code.
 */
export function buildProgram(runtime: CliRuntime): Command {
  const { io } = runtime;
  const program = new Command("lite-agent")
    .description(
      "Run durable lite-agent sessions on Temporal and operate them: approvals, questions, steering, history.",
    )
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError("(run with --help for usage)")
    // `-v` is `dev --verbose`: commander reads the program's flags after the command name too.
    .version(packageVersion(), "-V, --version", "print the version of lite-agent")
    // Before the commands are added: each copies it, so its help lists the global options too.
    .configureHelp({ showGlobalOptions: true })
    .addHelpText("after", EPILOG);
  addGlobalOptions(program);
  for (const [heading, registers] of GROUPS) {
    program.commandsGroup(heading);
    for (const register of registers) register(program, runtime);
  }
  return program;
}
