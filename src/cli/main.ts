import { processIo } from "./process-io.js";
import { runCli } from "./run-cli.js";
import { exitQuietlyOnBrokenPipe } from "./broken-pipe.js";

/** How long a finished command waits for the event loop to empty before it exits anyway. */
const EXIT_GRACE_MS = 2_000;

// The entry of `bin/lite-agent.js`.
exitQuietlyOnBrokenPipe();
process.exitCode = await runCli(process.argv.slice(2), processIo());
// Everything a command opened is closed by now; a timer some library left behind must not keep the shell
// waiting. The unref'd timer fires only if something else still holds the process.
setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
