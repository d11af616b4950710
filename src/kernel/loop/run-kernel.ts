import { forkOutlet, type EventOutlet } from "../coroutine/event-outlet.js";
import type { AgentEvent, RunResult } from "../vocabulary/events.js";
import { forkConfig, forkSeed } from "./fork.js";
import type { ForkRequest, ForkRunner } from "./kernel-config.js";
import type { ForkOptions } from "../vocabulary/tools.js";
import type { KernelConfig, RunInput, RunOptions } from "./kernel-config.js";
import { openRun } from "./open-run.js";
import { runTurns } from "./run-turns.js";
import { addUsage } from "../vocabulary/model.js";
import { pullEvents } from "../coroutine/pull-events.js";
import type { RunState } from "./run-state.js";

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
  return runTurns(openRun(config, input, options, out, forker), options);
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
