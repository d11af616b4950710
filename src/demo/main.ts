import { DEMO_USAGE, parseDemoOptions, type DemoOptions } from "./demo-options.js";
import { runDemo } from "./run-demo.js";
import { wantsColor } from "../terminal/terminal-style.js";
import { workerLogLine } from "../terminal/worker-log-line.js";
import { MissingPackageError } from "../runtime/optional-package.js";
import { temporalWorker } from "../runtime/temporal-worker.js";

/** `npm start`: see DEMO_USAGE (`npm start -- --help`). */
async function main(): Promise<number> {
  let options: DemoOptions;
  try {
    options = parseDemoOptions(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${DEMO_USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(DEMO_USAGE);
    return 0;
  }
  let worker;
  try {
    worker = temporalWorker();
  } catch (error) {
    if (!(error instanceof MissingPackageError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  const { DefaultLogger, Runtime } = worker;
  // The worker's routine state changes would drown the run's output; warnings and errors still show. No
  // shutdown signals: on Ctrl-C the demo first cancels the run, then stops the worker itself.
  const logger = new DefaultLogger("WARN", (entry) => process.stderr.write(`${workerLogLine(entry)}\n`));
  Runtime.install({ logger, shutdownSignals: [] });
  const write = (text: string) => void process.stdout.write(text);
  return runDemo(options, {
    write,
    color: wantsColor(process.stdout, process.env),
    env: process.env,
    input: process.stdin,
    output: process.stdout,
  });
}

/** How long a finished demo waits for the event loop to empty before it exits anyway. */
const EXIT_GRACE_MS = 2_000;

process.exitCode = await main();
// Everything the demo started is stopped by now. A timer some library left behind must not keep the terminal
// waiting; the unref'd timer fires only if something else still holds the process.
setTimeout(() => {
  process.stderr.write("demo: something still held the event loop after shutdown; exiting anyway\n");
  process.exit();
}, EXIT_GRACE_MS).unref();
