import { createBackgroundTasks } from "./background/background-tasks.js";
import { backgroundCompletionMessage } from "./background/completion-message.js";
import { withDetached } from "./background/with-detached.js";
import type { BackgroundTasks } from "./background/types.js";
import { budgetOverrun } from "./budget.js";
import { createContextEngine } from "./context/context-engine.js";
import { EventSink } from "./event-sink.js";
import { forkOutlet, send, type EventOutlet } from "./event-outlet.js";
import { pullEvents, RunClosedError } from "./pull-events.js";
import { isAbortError, toAgentError } from "./errors.js";
import type { AgentEvent, RunResult, StopReason } from "./events.js";
import type { KernelConfig, RunInput, RunOptions } from "./kernel-config.js";
import { messageText, type Message } from "./messages.js";
import { runLifecycle, type AgentContext } from "./middleware.js";
import { EffectNotImplementedError, type EffectRef, type EffectRunner } from "./effects.js";
import { modelPhase } from "./model-phase.js";
import type { PreparedView } from "./model-request.js";
import { ZERO_USAGE, addUsage } from "./model.js";
import { NEVER_ABORTED, type AbortSignalLike } from "./ports.js";
import { resolveConfig, type ResolvedConfig, type RunState } from "./run-state.js";
import { SessionLog, type OpenedSessionLog } from "./session-log.js";
import { sortedToolSpecs } from "./sorted-tool-specs.js";
import { announceToolCalls, runToolCalls } from "./tool-phase.js";
import { inputMessages } from "./input-messages.js";
import { andThen, forEachMaybeAsync, type MaybeAsync } from "./maybe-async.js";
import type { ContextEngine } from "./context/types.js";
import { forkConfig, forkSeed, type ForkOptions, type ForkRequest, type ForkRunner } from "./fork.js";
import { withSourceTools } from "./tool-source.js";
import { driveSteps, wait, type Steps } from "./drive-steps.js";
import type { OpenToolPhase, RunSnapshot } from "./run-snapshot.js";
import type { ToolCall, ToolResult } from "./tools.js";

/**
 * The turn loop: encode → call model → decode → execute tools → feed back, until the model stops, the run is
 * aborted or `maxTurns` is used up. Yields every `AgentEvent` and returns the `RunResult`. It never throws for
 * a model or tool failure: a fatal error ends with an `error` event and `done(error)`.
 */
export function runKernel(
  config: KernelConfig,
  input: RunInput,
  options: RunOptions & { sessionId: string; forkId?: string },
): AsyncGenerator<AgentEvent, RunResult> {
  return pullEvents((outlet) => runKernelInto(outlet, config, input, options));
}

/**
 * The turn loop of `runKernel`, delivering its events to `outlet` instead of yielding them: a driver that takes
 * every event at once (the workflow's) pays no promise per event (docs/decisions/0014).
 */
export function runKernelInto(
  outlet: EventOutlet,
  config: KernelConfig,
  input: RunInput,
  options: RunOptions & { sessionId: string; forkId?: string },
): Promise<RunResult> {
  const out = options.forkId === undefined ? outlet : forkOutlet(outlet, options.forkId);
  return driveSteps(runSteps(config, input, options, out));
}

function* runSteps(
  config: KernelConfig,
  input: RunInput,
  options: RunOptions & { sessionId: string; forkId?: string },
  out: EventOutlet,
): Steps<RunResult> {
  const opening = openRun(config, input, options, out);
  const run = yield* wait(opening);
  // Where the loop yielded as a generator, it delivers and pauses; it waits only for a pause that is a promise.
  let paused = send(out, ...run.sink.drain());
  if (paused) yield paused;
  const { resume, suspend } = options;
  let reason: StopReason;
  try {
    // A resumed run already ran its beforeAgent hooks where it started.
    const before = resume ? undefined : runLifecycle(run.config.use, "beforeAgent", run.ctx);
    if (before) yield before;
    paused = send(out, ...run.sink.drain());
    if (paused) yield paused;
    reason = "stop";
    const firstTurn = resume?.turn ?? 0;
    let turn = firstTurn;
    // Background joins do not consume the budget; turn numbers still stay unique (docs/decisions/0002).
    let budgetUsed = resume?.budgetUsed ?? 0;
    // A run paused in a tool phase goes on there: the turn's answer is already in the conversation.
    let resumedPhase = resume?.toolPhase;
    // Steps 5–9, turn after turn, inline here: short functions would each need their own pauses.
    turns: for (;;) {
      let calls: ToolCall[];
      const finished = new Map<string, ToolResult>();
      if (resumedPhase) {
        calls = resumedPhase.calls;
        for (const result of resumedPhase.results) finished.set(result.id, result);
        resumedPhase = undefined;
        run.ctx.turn = turn;
      } else {
        if (run.signal.aborted) {
          reason = "aborted";
          break turns;
        }
        if (turn > firstTurn && suspend?.requested()) {
          suspend.suspend(snapshotOf(run, turn, budgetUsed));
          return { messages: run.ctx.messages, text: "", usage: run.usage, stopReason: "stop" };
        }
        if (budgetUsed >= run.config.maxTurns) {
          reason = "max_turns";
          break turns;
        }
        const overrun = run.config.budget && budgetOverrun(run.config.budget, run.usage);
        if (overrun) {
          paused = send(out, { type: "budget_exceeded", ...overrun });
          if (paused) yield paused;
          reason = "budget";
          break turns;
        }
        turn++;
        budgetUsed++;
        run.ctx.turn = turn;
        paused = send(out, { type: "turn_start", turn });
        if (paused) yield paused;
        // Each wait below happens only when there is something to wait for (docs/decisions/0014).
        const injected = injectAtTurnStart(run);
        paused = send(out, ...(yield* wait(injected)));
        if (paused) yield paused;
        const beforeModel = runLifecycle(run.config.use, "beforeModel", run.ctx);
        if (beforeModel) yield beforeModel;
        paused = send(out, ...run.sink.drain());
        if (paused) yield paused;
        const { view, events } = run.engine ? yield* wait(prepareContext(run, run.engine)) : NO_CONTEXT;
        paused = send(out, ...events);
        if (paused) yield paused;
        const phase = modelPhase(run, turn, view);
        const model = yield* wait(phase);
        if (model.kind === "aborted") {
          reason = "aborted";
          break turns;
        }
        if (model.kind === "interrupted") {
          // Re-plan at once: the next turn starts with whatever was steered in.
          paused = send(out, { type: "turn_end", turn, stopReason: "interrupted" });
          if (paused) yield paused;
          continue;
        }
        if (model.kind === "error") {
          paused = send(out, { type: "error", error: model.error, fatal: true });
          if (paused) yield paused;
          reason = "error";
          break turns;
        }
        if (model.decoded.calls.length === 0) {
          // An answer cut off at the output limit says so (the seed's `max_tokens`); the run still stops here.
          const stopReason = model.stopReason === "max_tokens" ? "max_tokens" : "stop";
          paused = send(out, { type: "turn_end", turn, stopReason });
          if (paused) yield paused;
          const pendingFollowUps = resumeWithFollowUps(run);
          const followUps = yield* wait(pendingFollowUps);
          paused = send(out, ...followUps);
          if (paused) yield paused;
          if (followUps.length > 0) continue;
          if (yield* wait(joinBackground(run))) {
            budgetUsed--;
            continue;
          }
          break turns;
        }
        calls = model.decoded.calls;
        paused = send(out, ...announceToolCalls(calls));
        if (paused) yield paused;
      }
      // The calls' events reach `out` live, as they come; the loop goes on once the consumer took them.
      suspend?.toolPhase?.(openToolPhase(run, turn, budgetUsed, calls, finished));
      const phase = runToolCalls(run, turn, calls, finished);
      const tools = yield* wait(phase);
      suspend?.toolPhase?.(undefined);
      paused = out.pause();
      if (paused) yield paused;
      const afterTurn = runLifecycle(run.config.use, "afterTurn", run.ctx);
      if (afterTurn) yield afterTurn;
      paused = send(out, ...run.sink.drain(), { type: "turn_end", turn, stopReason: "tool_use" });
      if (paused) yield paused;
      if (tools.aborted) {
        reason = "aborted";
        break turns;
      }
    }
  } catch (error) {
    // A tool phase that threw left its live delivery on.
    run.sink.endLive();
    if (error instanceof RunClosedError) throw error;
    // A throwing hook or registry ends the run like a provider failure: an error event, then done.
    if (run.signal.aborted || isAbortError(error)) reason = "aborted";
    else {
      paused = send(out, ...run.sink.drain(), { type: "error", error: toAgentError(error), fatal: true });
      if (paused) yield paused;
      reason = "error";
    }
  }
  const ending = finish(run, reason);
  paused = send(out, ...(yield* wait(ending)));
  if (paused) yield paused;
  return run.result!;
}

/** The run paused at the end of turn `turn` (or, with `toolPhase`, in its tool phase). */
function snapshotOf(run: RunState, turn: number, budgetUsed: number): RunSnapshot {
  const contextState = run.engine?.state?.();
  return {
    messages: run.ctx.messages,
    turn,
    budgetUsed,
    usage: run.usage,
    ...(contextState ? { contextState } : {}),
  };
}

/** The tool phase of turn `turn` as its driver sees it: which calls are open, and the run paused there. */
function openToolPhase(
  run: RunState,
  turn: number,
  budgetUsed: number,
  calls: ToolCall[],
  finished: ReadonlyMap<string, ToolResult>,
): OpenToolPhase {
  return {
    open: () => calls.filter((call) => !finished.has(call.id)).map((call) => call.id),
    snapshot: () => ({
      ...snapshotOf(run, turn, budgetUsed),
      messages: [...run.ctx.messages],
      toolPhase: { calls, results: [...finished.values()] },
    }),
  };
}

/**
 * Steps 1–3: load the session, recover interrupted tools, append the input. Awaits only what is asynchronous (tool
 * sources, a checkpointer): a durable run has neither, so opening it costs no promise (docs/decisions/0014).
 */
function openRun(
  config: KernelConfig,
  input: RunInput,
  options: RunOptions & { sessionId: string; forkId?: string },
  out: EventOutlet,
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
          () => newRunState(config, resolved, options, { opened, messages, sink, signal, out }),
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
): RunState {
  const { sessionId, forkId } = options;
  const { opened, messages, sink, signal, out } = parts;
  const state = new Map<string, unknown>();
  const ctx = {
    sessionId,
    messages,
    turn: 0,
    signal,
    emit: sink.emit,
    state,
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
  const specs = sortedToolSpecs(resolved.tools);
  const engine = resolved.context
    ? createContextEngine({
        sessionId,
        ports: resolved.ports,
        provider: resolved.model,
        model: resolved.modelName,
        ...resolved.context,
        history: opened.events,
        ...(options.resume?.contextState ? { state: options.resume.contextState } : {}),
        staticPrefix: {
          system: resolved.system,
          tools: specs,
          codec: resolved.codec.name,
        },
        record: ctx.recordSessionEvent,
      })
    : undefined;
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

/**
 * Runs forks to completion and adds their usage to the parent's: through the configured runner (a durable child
 * workflow), or as a sub-loop here whose every event (stamped with the fork id) goes into the parent's stream.
 */
function forker(config: KernelConfig, parent: RunState): RunState["fork"] {
  let forks = 0;
  return async (input, options = {}) => {
    const forkId = options.forkId ?? `task-${++forks}`;
    const request: ForkRequest = {
      input,
      forkId,
      sessionId: `${parent.sessionId}/${forkId}`,
      seed: forkSeed(parent.ctx.messages),
      ...(options.tools ? { toolNames: options.tools.map((tool) => tool.name) } : {}),
      signal: parent.signal,
      emit: parent.sink.emit,
    };
    const result = await (config.forkRunner ?? forkInProcess(config, options.tools))(request);
    parent.usage = addUsage(parent.usage, result.usage);
    return result;
  };
}

/** A fork as a sub-loop of this process: the agent's configuration, minus its start hooks and checkpointer. */
function forkInProcess(config: KernelConfig, tools: ForkOptions["tools"]): ForkRunner {
  return async ({ input, sessionId, forkId, signal, seed, emit }) => {
    const fork = runKernel(forkConfig(config, tools), input, { sessionId, forkId, signal, history: seed });
    for (;;) {
      const next = await fork.next();
      if (next.done) return next.value;
      emit(next.value);
    }
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

/**
 * Step 5: queued steers, then background completions, become user messages before the model call. Synchronous
 * (no promise) when there are none.
 */
function injectAtTurnStart(run: RunState): MaybeAsync<AgentEvent[]> {
  const steers = run.steer?.takeSteers() ?? [];
  if (steers.length > 0 || (run.background?.owned && run.background.tasks.hasCompleted()))
    return injectMessages(run, steers);
  return [];
}

async function injectMessages(run: RunState, steers: Message[]): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  if (steers.length > 0) {
    events.push(...(await appendUserMessages(run, steers)), { type: "steer", messages: steers });
  }
  if (!run.background?.owned) return events;
  for (const completion of run.background.tasks.takeCompleted()) {
    events.push(...(await appendUserMessages(run, [backgroundCompletionMessage(completion)])));
    events.push({ type: "background_completed", completion });
  }
  return events;
}

/** Step 8: follow-ups resurrect a run that would stop; returns their events (none, synchronously, when none). */
function resumeWithFollowUps(run: RunState): MaybeAsync<AgentEvent[]> {
  const followUps = run.steer?.takeFollowUps() ?? [];
  if (followUps.length === 0) return [];
  return appendUserMessages(run, followUps).then((events) => [
    ...events,
    { type: "steer", messages: followUps },
  ]);
}

/** Step 8: a run that owns pending joinable work waits for it instead of stopping (no promise when it owns none). */
function joinBackground(run: RunState): MaybeAsync<boolean> {
  const background = run.background;
  if (!background?.owned) return false;
  if (background.tasks.pendingJoinable() === 0 && !background.tasks.hasCompleted()) return false;
  return background.tasks.waitNextJoinable(run.signal).then(() => true);
}

async function appendUserMessages(run: RunState, messages: Message[]): Promise<AgentEvent[]> {
  run.ctx.messages.push(...messages);
  await run.log.append(...messages.map((message) => ({ type: "user" as const, message })));
  return run.sink.drain();
}

/** No ContextEngine: the model sees the conversation as it is. */
const NO_CONTEXT: { view: PreparedView | undefined; events: AgentEvent[] } = { view: undefined, events: [] };

/** The ContextEngine's view for this turn, reported when it acted. */
async function prepareContext(
  run: RunState,
  engine: ContextEngine,
): Promise<{ view: PreparedView | undefined; events: AgentEvent[] }> {
  const from = run.ctx.messages;
  const prepared = await engine.prepare(from, { system: run.config.system, tools: run.specs });
  const events: AgentEvent[] =
    prepared.status.level > 0 ? [{ type: "context_status", ...prepared.status }] : [];
  return { view: { from, messages: prepared.messages, edits: prepared.edits }, events };
}

/** Step 10: cancel owned background work, run `afterAgent`; returns the last events, `done` included. */
function finish(run: RunState, reason: StopReason): MaybeAsync<AgentEvent[]> {
  const stopped = run.background?.owned ? stopBackground(run.background.tasks, run.config) : undefined;
  const hooked = andThen(stopped, () =>
    forEachMaybeAsync(run.config.use, (layer) => layer.afterAgent?.(run.ctx, { reason })),
  );
  const flushed = andThen(hooked, () => run.log.flush());
  return andThen(flushed, () => lastEvents(run, reason));
}

/** The run's result (kept on the run) and its last events: what the sink still holds, then `done`. */
function lastEvents(run: RunState, reason: StopReason): AgentEvent[] {
  const result: RunResult = {
    messages: run.ctx.messages,
    text: lastAssistantText(run.ctx.messages),
    usage: run.usage,
    stopReason: reason,
  };
  run.result = result;
  return [...run.sink.drain(), { type: "done", reason, result }];
}

/** Cancels the run's joinable tasks and waits for what the config says to wait for (by default nothing). */
function stopBackground(tasks: BackgroundTasks, config: RunState["config"]): MaybeAsync<void> {
  tasks.cancelAll();
  if (tasks.pendingJoinable() === 0 || !tasks.joinableStopped || !config.awaitBackgroundStop) return;
  return config.awaitBackgroundStop(tasks.joinableStopped());
}

function lastAssistantText(messages: Message[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === "assistant") return messageText(message);
  }
  return "";
}
