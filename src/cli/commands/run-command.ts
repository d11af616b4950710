import { Option, type Command } from "commander";
import type { StartedRun } from "../../client.js";
import { resolveDecider, resolveSigner } from "../options/approver-key.js";
import { usageError } from "../cli-error.js";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";
import { followRun } from "../follow-run.js";
import { addOutputOption, type OutputFlags, type OutputFormat } from "../options/output-format.js";
import { addResponderOptions, type ResponderFlags } from "../options/responder-options.js";
import { jsonOutput } from "../render/json-output.js";
import { runCommands } from "../run-commands.js";

interface RunOptions extends ResponderFlags, OutputFlags {
  session?: string;
  detach?: boolean;
}

/** How long a start may take before the CLI suspects that no worker polls the task queue. */
const SLOW_START_MS = 5_000;

/** Starts the run; when it takes long, says what usually causes that (no worker on the task queue). */
async function startRun(
  scope: CliScope,
  agent: string,
  prompt: string,
  options: RunOptions,
): Promise<StartedRun> {
  const client = await scope.client();
  const timer = setTimeout(() => {
    const queue = `${scope.globals.taskQueue}.${agent}`;
    scope.note(
      scope.style.yellow(
        `still waiting for the run to start: is a worker polling task queue '${queue}'? (lite-agent dev, or lite-agent worker)`,
      ),
    );
  }, SLOW_START_MS);
  try {
    return await client.start(agent, prompt, options.session ? { sessionId: options.session } : {});
  } finally {
    clearTimeout(timer);
  }
}

/** `--detach`: the run's ids and the commands that follow and cancel it, on stdout (one JSON object with -o json). */
function printDetached(scope: CliScope, { sessionId, runId }: StartedRun, output: OutputFormat): number {
  if (output !== "table") {
    scope.io.stdout(jsonOutput({ sessionId, runId }, "jsonl"));
    return 0;
  }
  const { watch, cancel } = runCommands(scope, sessionId, runId);
  scope.io.stdout(`session ${sessionId}\nrun ${runId}\nfollow it: ${watch}\ncancel it: ${cancel}\n`);
  return 0;
}

async function run(
  scope: CliScope,
  [agent, words]: [string, string[]],
  options: RunOptions,
): Promise<number> {
  const prompt = words.join(" ").trim();
  if (prompt === "") throw usageError("the prompt is empty");
  // Before the start: a run that needs a decision must not begin when nobody can be named as deciding.
  const signer = options.detach ? undefined : await resolveSigner(options.keyFile, scope.io);
  const actor = options.detach ? "" : resolveDecider(options.actor, signer, scope.io);
  const started = await startRun(scope, agent, prompt, options);
  if (options.detach) return printDetached(scope, started, options.output);
  const { sessionId, runId } = started;
  scope.note(
    scope.style.dim(`session ${sessionId} · run ${runId}  (Ctrl-C stops following; the run goes on)`),
  );
  return followRun(scope, await scope.client(), {
    ...options,
    sessionId,
    runId,
    fromOffset: started.offset,
    actor,
    ...(signer ? { signer } : {}),
  });
}

/** `lite-agent run <agent> <prompt...>`: starts a run and streams it to the end. */
export function registerRunCommand(program: Command, runtime: CliRuntime): void {
  const command = program
    .command("run")
    .description(
      "start a run and stream its events; exit 0 on stop, 1 on error, 130 when cancelled or on Ctrl-C (which stops following and leaves the run going)",
    )
    .argument("<agent>", "the agent's name")
    .argument("<prompt...>", "what to ask (the words are joined with spaces)")
    .option("--session <id>", "run in this session (created on first use; default: a new session)")
    .addOption(
      new Option(
        "-d, --detach",
        "start the run, print its ids and how to follow or cancel it, and exit",
      ).conflicts(["yes", "no", "answer"]),
    );
  addOutputOption(
    command,
    "one JSON event per line either way (with --detach, the run's ids as one JSON object)",
  );
  addResponderOptions(command).action(commandAction<[string, string[]], RunOptions>(runtime, run));
}
