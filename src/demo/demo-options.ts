import path from "node:path";
import { parseArgs } from "node:util";

/** The prompt when none is given. */
export const DEFAULT_PROMPT =
  "Look at the files in the sandbox. What are the total units and revenue in the sales data, the average " +
  "revenue per unit, and which region earned the most?";

/** The task queue of the demo's worker, apart from other workers on a shared server. */
export const DEMO_TASK_QUEUE = "lite-agent-demo";

/** Everything `npm start` can be told. */
export interface DemoOptions {
  prompt: string;
  /** Leave the server (and worker) running after the run, until Ctrl-C, to browse the UI. */
  keep: boolean;
  /** Use the scripted model even when an OpenAI endpoint is configured. */
  scripted: boolean;
  /** Approve the agent's writes without asking (for scripts and CI); else asked at the terminal. */
  yes: boolean;
  help: boolean;
  /** Root of the demo's files: `<cacheDir>/temporal/demo.db` and `<cacheDir>/demo/sandbox`. */
  cacheDir: string;
  dbFile: string;
  sandboxDir: string;
  taskQueue: string;
  /** Web UI base URL for an external server (`TEMPORAL_UI_URL`); the embedded server reports its own. */
  uiUrl: string | undefined;
}

/** The `--help` text. */
export const DEMO_USAGE = `Usage: npm start -- [options] [prompt...]

Runs a demo agent durably on Temporal: starts a dev server (or uses TEMPORAL_ADDRESS), a worker, and one run
whose tools read files in a sandbox folder and compute figures from them, then save a report there once you
approve the write.

Options:
  --keep             leave the server running after the run to browse the Temporal UI; Ctrl-C stops it
  --scripted         use the scripted model even when an OpenAI endpoint is configured
  -y, --yes          approve the agent's report write without asking (asked at the terminal otherwise; declined
                     when there is no terminal to ask)
  --cache-dir <dir>  where the demo keeps its files (default .cache; env DEMO_CACHE_DIR)
  -h, --help         show this text

Environment:
  OPENAI_API_KEY, OPENAI_BASE_URL   use the OpenAI provider (any compatible server); else the scripted model
  OPENAI_MODEL                      model id (default gpt-4o-mini)
  TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE   use this Temporal server instead of starting one
  TEMPORAL_UI_URL                   Web UI of that server, for the session link
  DEMO_KEEP=1                       same as --keep
  DEMO_YES=1                        same as --yes
`;

/** Reads the command line (without `node` and the script) and the environment. Throws on unknown options. */
export function parseDemoOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string = process.cwd(),
): DemoOptions {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      keep: { type: "boolean", default: false },
      scripted: { type: "boolean", default: false },
      yes: { type: "boolean", short: "y", default: false },
      "cache-dir": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const cacheDir = path.resolve(cwd, values["cache-dir"] ?? (env.DEMO_CACHE_DIR || ".cache"));
  const prompt = positionals.join(" ").trim();
  return {
    prompt: prompt === "" ? DEFAULT_PROMPT : prompt,
    keep: values.keep || env.DEMO_KEEP === "1" || env.DEMO_KEEP === "true",
    scripted: values.scripted,
    yes: values.yes || env.DEMO_YES === "1" || env.DEMO_YES === "true",
    help: values.help,
    cacheDir,
    dbFile: path.join(cacheDir, "temporal", "demo.db"),
    sandboxDir: path.join(cacheDir, "demo", "sandbox"),
    taskQueue: DEMO_TASK_QUEUE,
    uiUrl: env.TEMPORAL_UI_URL || undefined,
  };
}
