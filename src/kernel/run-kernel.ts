import { createBackgroundTasks } from "./background/background-tasks.js";
import { backgroundCompletionMessage } from "./background/completion-message.js";
import { withDetached } from "./background/with-detached.js";
import { budgetOverrun } from "./budget.js";
import { createContextEngine } from "./context/context-engine.js";
import { EventSink } from "./event-sink.js";
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
import { resolveConfig, type RunState } from "./run-state.js";
import { SessionLog } from "./session-log.js";
import { sortedToolSpecs } from "./sorted-tool-specs.js";
import { announceToolCalls, runToolCalls } from "./tool-phase.js";
import { inputMessages } from "./input-messages.js";
import { isPromiseLike, type MaybeAsync } from "./maybe-async.js";
import type { ContextEngine } from "./context/types.js";
import { forkConfig, forkSeed } from "./fork.js";
import { withSourceTools } from "./tool-source.js";

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
  const events = runLoop(config, input, options);
  return options.forkId === undefined ? events : stampForkId(events, options.forkId);
}

/** Marks every event of a fork with its id. */
async function* stampForkId(
  events: AsyncGenerator<AgentEvent, RunResult>,
  forkId: string,
): AsyncGenerator<AgentEvent, RunResult> {
  for (;;) {
    const next = await events.next();
    if (next.done) return next.value;
    yield next.value.forkId === undefined ? { ...next.value, forkId } : next.value;
  }
}

async function* runLoop(
  config: KernelConfig,
  input: RunInput,
  options: RunOptions & { sessionId: string; forkId?: string },
): AsyncGenerator<AgentEvent, RunResult> {
  const run = await openRun(config, input, options);
  for (const event of run.sink.drain()) yield event;
  const { resume, suspend } = options;
  let reason: StopReason;
  try {
    // A resumed run already ran its beforeAgent hooks where it started.
    if (!resume) await runLifecycle(run.config.use, "beforeAgent", run.ctx);
    for (const event of run.sink.drain()) yield event;
    reason = "stop";
    const firstTurn = resume?.turn ?? 0;
    let turn = firstTurn;
    // Background joins do not consume the budget; turn numbers still stay unique (docs/decisions/0002).
    let budgetUsed = resume?.budgetUsed ?? 0;
    // Steps 5–9, turn after turn, inline here: every generator level would cost every event promises.
    turns: for (;;) {
      if (run.signal.aborted) {
        reason = "aborted";
        break turns;
      }
      if (turn > firstTurn && suspend?.requested()) {
        const contextState = run.engine?.state?.();
        suspend.suspend({
          messages: run.ctx.messages,
          turn,
          budgetUsed,
          usage: run.usage,
          ...(contextState ? { contextState } : {}),
        });
        return { messages: run.ctx.messages, text: "", usage: run.usage, stopReason: "stop" };
      }
      if (budgetUsed >= run.config.maxTurns) {
        reason = "max_turns";
        break turns;
      }
      const overrun = run.config.budget && budgetOverrun(run.config.budget, run.usage);
      if (overrun) {
        yield { type: "budget_exceeded", ...overrun };
        reason = "budget";
        break turns;
      }
      turn++;
      budgetUsed++;
      run.ctx.turn = turn;
      yield { type: "turn_start", turn };
      // Helpers that yield a few events return them: each generator level costs every event promises.
      // Each await below happens only when there is something to wait for (docs/decisions/0014).
      const injected = injectAtTurnStart(run);
      for (const event of isPromiseLike(injected) ? await injected : injected) yield event;
      const beforeModel = runLifecycle(run.config.use, "beforeModel", run.ctx);
      if (beforeModel) await beforeModel;
      for (const event of run.sink.drain()) yield event;
      const { view, events } = run.engine ? await prepareContext(run, run.engine) : NO_CONTEXT;
      for (const event of events) yield event;
      const model = yield* modelPhase(run, turn, view);
      if (model.kind === "aborted") {
        reason = "aborted";
        break turns;
      }
      if (model.kind === "interrupted") {
        // Re-plan at once: the next turn starts with whatever was steered in.
        yield { type: "turn_end", turn, stopReason: "interrupted" };
        continue;
      }
      if (model.kind === "error") {
        yield { type: "error", error: model.error, fatal: true };
        reason = "error";
        break turns;
      }
      if (model.decoded.calls.length > 0) {
        for (const event of announceToolCalls(model.decoded.calls)) yield event;
        const phase = runToolCalls(run, turn, model.decoded.calls);
        for await (const event of phase.live) yield event;
        const tools = await phase.done;
        const afterTurn = runLifecycle(run.config.use, "afterTurn", run.ctx);
        if (afterTurn) await afterTurn;
        for (const event of run.sink.drain()) yield event;
        yield { type: "turn_end", turn, stopReason: "tool_use" };
        if (tools.aborted) {
          reason = "aborted";
          break turns;
        }
        continue;
      }
      // An answer cut off at the output limit says so (the seed's `max_tokens`); the run still stops here.
      yield { type: "turn_end", turn, stopReason: model.stopReason === "max_tokens" ? "max_tokens" : "stop" };
      const pendingFollowUps = resumeWithFollowUps(run);
      const followUps = isPromiseLike(pendingFollowUps) ? await pendingFollowUps : pendingFollowUps;
      for (const event of followUps) yield event;
      if (followUps.length > 0) continue;
      if (await joinBackground(run)) {
        budgetUsed--;
        continue;
      }
      break turns;
    }
  } catch (error) {
    // A throwing hook or registry ends the run like a provider failure: an error event, then done.
    if (run.signal.aborted || isAbortError(error)) reason = "aborted";
    else {
      for (const event of run.sink.drain()) yield event;
      yield { type: "error", error: toAgentError(error), fatal: true };
      reason = "error";
    }
  }
  for (const event of await finish(run, reason)) yield event;
  return run.result!;
}

/** Steps 1–3: load the session, recover interrupted tools, append the input. */
async function openRun(
  config: KernelConfig,
  input: RunInput,
  options: RunOptions & { sessionId: string; forkId?: string },
): Promise<RunState> {
  const configured = resolveConfig(config);
  const { sessionId, forkId } = options;
  const signal = options.signal ?? NEVER_ABORTED;
  const sink = new EventSink();
  // Listed once per run, so every request of the run offers the same tools.
  const resolved = config.toolSources?.length
    ? {
        ...configured,
        tools: await withSourceTools(configured.tools, config.toolSources, {
          sessionId,
          signal,
          emit: sink.emit,
        }),
      }
    : configured;
  const opened = await SessionLog.open(sessionId, resolved.checkpointer, resolved.crashRecovery === "safe");
  for (const tool of opened.recovered) sink.emit({ type: "tool_recovered", ...tool });
  // A resumed run's input is already part of its snapshot.
  const fresh = options.resume ? [] : inputMessages(input, options.images);
  const prior = options.resume?.messages ?? options.history ?? [];
  const history = prior.filter((message) => message.role !== "system");
  const messages: Message[] = [...history, ...opened.messages, ...fresh];
  await opened.log.append(...fresh.map((message) => ({ type: "user" as const, message })));
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
            void opened.log.append(event).catch(() => undefined),
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

/** Runs forks to completion, forwarding every event (stamped with the fork id) into the parent's stream. */
function forker(config: KernelConfig, parent: RunState): RunState["fork"] {
  let forks = 0;
  return async (input, options = {}) => {
    const forkId = options.forkId ?? `task-${++forks}`;
    const history = forkSeed(parent.ctx.messages);
    const sessionId = `${parent.sessionId}/${forkId}`;
    const fork = runKernel(forkConfig(config, options.tools), input, {
      sessionId,
      forkId,
      signal: parent.signal,
      history,
    });
    for (;;) {
      const next = await fork.next();
      if (next.done) {
        parent.usage = addUsage(parent.usage, next.value.usage);
        return next.value;
      }
      parent.sink.emit(next.value);
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
  return { tasks: config.detachedTasks ? withDetached(tasks, config.detachedTasks) : tasks, owned: true };
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

/** Step 8: a run that owns pending joinable work waits for it instead of stopping. */
async function joinBackground(run: RunState): Promise<boolean> {
  const background = run.background;
  if (!background?.owned) return false;
  if (background.tasks.pendingJoinable() === 0 && !background.tasks.hasCompleted()) return false;
  await background.tasks.waitNextJoinable(run.signal);
  return true;
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
async function finish(run: RunState, reason: StopReason): Promise<AgentEvent[]> {
  if (run.background?.owned) run.background.tasks.cancelAll();
  for (const layer of run.config.use) await layer.afterAgent?.(run.ctx, { reason });
  await run.log.flush();
  const result: RunResult = {
    messages: run.ctx.messages,
    text: lastAssistantText(run.ctx.messages),
    usage: run.usage,
    stopReason: reason,
  };
  run.result = result;
  return [...run.sink.drain(), { type: "done", reason, result }];
}

function lastAssistantText(messages: Message[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === "assistant") return messageText(message);
  }
  return "";
}
