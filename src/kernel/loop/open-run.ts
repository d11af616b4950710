import { createBackgroundTasks } from "../background/background-tasks.js";
import { withDetached } from "../background/with-detached.js";
import { createContextEngine } from "../context/context-engine.js";
import { EffectNotImplementedError, type EffectRef, type EffectRunner } from "../vocabulary/effects.js";
import type { EventOutlet } from "../coroutine/event-outlet.js";
import { EventSink } from "../coroutine/event-sink.js";
import { inputMessages } from "./input-messages.js";
import type { KernelConfig, RunInput, RunOptions } from "./kernel-config.js";
import { andThen, type MaybeAsync } from "../coroutine/maybe-async.js";
import type { Message } from "../vocabulary/messages.js";
import type { AgentContext } from "../middleware/middleware.js";
import { ZERO_USAGE } from "../vocabulary/model.js";
import { NEVER_ABORTED, type AbortSignalLike } from "../vocabulary/ports.js";
import { resolveConfig, type ResolvedConfig, type RunState } from "./run-state.js";
import { SessionLog, type OpenedSessionLog } from "../checkpoint/session-log.js";
import { sortedToolSpecs } from "../phases/sorted-tool-specs.js";
import { withSourceTools } from "../vocabulary/tool-source.js";
import type { ToolSpec } from "../vocabulary/tools.js";
import type { ContextEngine } from "../context/types.js";

/** How a run of `config` runs its forks (set on every run but a fork's own). */
export type Forker = (config: KernelConfig, parent: RunState) => RunState["fork"];

/**
 * Steps 1–3: load the session, recover interrupted tools, append the input. Awaits only what is asynchronous (tool
 * sources, a checkpointer): a durable run has neither, so opening it costs no promise (docs/decisions/0014).
 */
export function openRun(
  config: KernelConfig,
  input: RunInput,
  options: RunOptions & { sessionId: string; forkId?: string },
  out: EventOutlet,
  forker: Forker,
): MaybeAsync<RunState> {
  const configured = resolveConfig(config);
  const signal = options.signal ?? NEVER_ABORTED;
  const sink = new EventSink();
  // Listed once per run, so every request of the run offers the same tools.
  const resolving = config.toolSources?.length
    ? withSourceTools(configured.tools, config.toolSources, {
        sessionId: options.sessionId,
        signal,
        emit: sink.emit,
      }).then((tools) => ({ ...configured, tools }))
    : configured;
  return andThen(resolving, (resolved) =>
    andThen(
      SessionLog.open(options.sessionId, resolved.checkpointer, resolved.crashRecovery === "safe"),
      (opened) => {
        for (const tool of opened.recovered) sink.emit({ type: "tool_recovered", ...tool });
        // A resumed run's input is already part of its snapshot.
        const fresh = options.resume ? [] : inputMessages(input, options.images);
        const prior = options.resume?.messages ?? options.history ?? [];
        const history = prior.filter((message) => message.role !== "system");
        const messages: Message[] = [...history, ...opened.messages, ...fresh];
        return andThen(
          opened.log.append(...fresh.map((message) => ({ type: "user" as const, message }))),
          () => newRunState(config, resolved, options, { opened, messages, sink, signal, out }, forker),
        );
      },
    ),
  );
}

/** The state of a run whose session is loaded and whose input is appended. */
function newRunState(
  config: KernelConfig,
  resolved: ResolvedConfig,
  options: RunOptions & { sessionId: string; forkId?: string },
  parts: {
    opened: OpenedSessionLog;
    messages: Message[];
    sink: EventSink;
    signal: AbortSignalLike;
    out: EventOutlet;
  },
  forker: Forker,
): RunState {
  const { sessionId, forkId } = options;
  const { opened, sink, signal, out } = parts;
  const ctx = runContext(resolved, options, parts);
  const specs = sortedToolSpecs(resolved.tools);
  const engine = contextEngineOf(resolved, options, { opened, specs, record: ctx.recordSessionEvent });
  const run: RunState = {
    config: resolved,
    sessionId,
    ctx,
    log: opened.log,
    sink,
    out,
    signal,
    toolsByName: new Map(resolved.tools.map((tool) => [tool.name, tool])),
    specs,
    steer: options.steer,
    background: openBackground(resolved, sessionId, signal, sink),
    engine,
    forkId,
    usage: options.resume?.usage ?? ZERO_USAGE,
    abortedByHook: undefined,
    snapshotBytes: 0,
    fork: undefined,
  };
  if (forkId === undefined) run.fork = forker(config, run);
  return run;
}

/** The handle middleware gets on the run. */
function runContext(
  resolved: ResolvedConfig,
  options: RunOptions & { sessionId: string; forkId?: string },
  parts: { opened: OpenedSessionLog; messages: Message[]; sink: EventSink; signal: AbortSignalLike },
): RunState["ctx"] {
  const { sessionId, forkId } = options;
  const { opened, messages, sink, signal } = parts;
  return {
    sessionId,
    messages,
    turn: 0,
    signal,
    emit: sink.emit,
    state: new Map<string, unknown>(),
    ports: resolved.ports,
    effect: effectCaller(resolved.effects, sessionId, signal),
    ...(resolved.approval ? { approval: resolved.approval } : {}),
    ...(forkId !== undefined ? { forkId } : {}),
    ...(opened.log.persistent
      ? {
          recordSessionEvent: (event: Parameters<typeof opened.log.append>[0]) =>
            void opened.log.append(event)?.catch(() => undefined),
        }
      : {}),
  };
}

/** The run's ContextEngine, when the configuration turns it on: resumed with its state, when it has one. */
function contextEngineOf(
  resolved: ResolvedConfig,
  options: RunOptions & { sessionId: string },
  parts: { opened: OpenedSessionLog; specs: ToolSpec[]; record: AgentContext["recordSessionEvent"] },
): ContextEngine | undefined {
  if (!resolved.context) return undefined;
  return createContextEngine({
    sessionId: options.sessionId,
    ports: resolved.ports,
    provider: resolved.model,
    model: resolved.modelName,
    ...resolved.context,
    history: parts.opened.events,
    ...(options.resume?.contextState ? { state: options.resume.contextState } : {}),
    staticPrefix: { system: resolved.system, tools: parts.specs, codec: resolved.codec.name },
    record: parts.record,
  });
}

/** `ctx.effect`: through the configured runner, or a clear rejection when the run has none. */
function effectCaller(
  runner: EffectRunner | undefined,
  sessionId: string,
  signal: AbortSignalLike,
): AgentContext["effect"] {
  return async <Input, Output>(ref: EffectRef<Input, Output>, input: Input): Promise<Output> => {
    if (!runner) throw new EffectNotImplementedError(ref.effect);
    return (await runner(ref, input, { sessionId, signal })) as Output;
  };
}

function openBackground(
  config: RunState["config"],
  sessionId: string,
  signal: RunState["signal"],
  sink: EventSink,
): RunState["background"] {
  if (config.backgroundTasks) return { tasks: config.backgroundTasks(sessionId), owned: false };
  if (config.background === false) return undefined;
  const tasks = createBackgroundTasks({
    emit: sink.emit,
    signal,
    ports: config.ports,
    limits: config.backgroundLimits,
  });
  if (!config.detachedTasks) return { tasks, owned: true };
  return { tasks: withDetached(tasks, config.detachedTasks, config.backgroundLimits?.maxTotal), owned: true };
}
