import type { Command } from "commander";
import { toWireEvent } from "../../wire/wire-conversion.js";
import { errorMessage } from "../../kernel/vocabulary/errors.js";
import type { DurableEvent } from "../../client/events/run-event-stream.js";
import { eventSummary } from "../render/event-summary.js";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";
import { addOutputOption, type OutputFlags } from "../options/output-format.js";
import { parseWholeNumber } from "../options/parse-options.js";
import { jsonOutput } from "../render/json-output.js";
import { sessionReport } from "../render/session-report.js";

interface ShowOptions extends OutputFlags {
  events: number;
}

/** How long `show` waits for the recent events before it reports without them. */
const EVENTS_TIMEOUT_MS = 10_000;

async function lastEvents(
  scope: CliScope,
  sessionId: string,
  end: number,
  options: ShowOptions,
): Promise<DurableEvent[] | { unavailable: string }> {
  const client = await scope.client();
  const { recentEvents } = await import("../render/recent-events.js");
  // The report shows only events worth a line; JSON shows every durable event.
  const wanted =
    options.output !== "table" ? undefined : (event: DurableEvent) => eventSummary(event) !== undefined;
  const reading = recentEvents(client.temporal, sessionId, end, options.events, wanted);
  // A read that loses the race is ended by closing the connection; its rejection is expected then.
  reading.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ unavailable: string }>((resolve) => {
    timer = setTimeout(
      () => resolve({ unavailable: "the event stream did not answer in time" }),
      EVENTS_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([reading, timeout]);
  } catch (error) {
    return { unavailable: errorMessage(error) };
  } finally {
    clearTimeout(timer);
  }
}

async function show(scope: CliScope, [sessionId]: [string], options: ShowOptions): Promise<number> {
  const client = await scope.client();
  const { sessionBuild } = await import("../session-build.js");
  // The status is a query, the build a describe: two calls, made at once.
  const [status, build] = await Promise.all([
    client.session(sessionId).describe(),
    sessionBuild(client.session(sessionId).workflow),
  ]);
  const events = options.events > 0 ? await lastEvents(scope, sessionId, status.offset, options) : undefined;
  if (options.output !== "table") {
    const wire = Array.isArray(events)
      ? events.map(({ offset, runId, ...event }) => ({ ...toWireEvent(event), offset, runId }))
      : (events ?? []);
    scope.io.stdout(
      jsonOutput({ ...status, ...(build ? { build } : {}), recentEvents: wire }, options.output),
    );
    return 0;
  }
  scope.io.stdout(
    sessionReport(status, {
      now: Date.now(),
      commandPrefix: scope.globals.commandPrefix,
      events,
      style: scope.style,
      ...(build ? { build } : {}),
    }),
  );
  return 0;
}

/** `lite-agent show <session>`: status, pending approvals with the commands that answer them, usage, events. */
export function registerShowCommand(program: Command, runtime: CliRuntime): void {
  const command = program
    .command("show")
    .description(
      "show a session: status, current run, pending approvals and questions (with the commands that answer them), usage, last events",
    )
    .argument("<session>", "the session id")
    .option("--events <n>", "how many recent events to show (0: none)", parseWholeNumber, 10);
  addOutputOption(command, "the status and the events as one JSON object").action(
    commandAction<[string], ShowOptions>(runtime, show),
  );
}
