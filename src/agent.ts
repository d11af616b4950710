import { Channel } from "./kernel/vocabulary/channel.js";
import { AbortError, type AgentError } from "./kernel/vocabulary/errors.js";
import type { AgentEvent, RunResult } from "./kernel/vocabulary/events.js";
import type { ForkOptions } from "./kernel/vocabulary/tools.js";
import type { KernelConfig, RunInput, RunOptions } from "./kernel/loop/kernel-config.js";
import type { Message } from "./kernel/vocabulary/messages.js";
import type { KernelPorts } from "./kernel/vocabulary/ports.js";
import { directOutlet, type EventOutlet } from "./kernel/coroutine/event-outlet.js";
import { runKernel, runKernelInto } from "./kernel/loop/run-kernel.js";
import { nodePorts } from "./node-ports.js";
import { listCheckpoints, requireCheckpointer, type Checkpoint } from "./checkpoint/list-checkpoints.js";
import {
  restoreCheckpoint,
  type RestoreOptions,
  type RestoreResult,
} from "./checkpoint/restore-checkpoint.js";

/** The configuration of `createAgent`: the kernel's, with the in-process ports by default. */
export type CreateAgentConfig = Omit<KernelConfig, "ports"> & { ports?: KernelPorts };

/** A running agent, driven from outside (the Go seed's RunAsync handle). */
export interface RunHandle {
  /** Every event of the run; ends when the run ends. */
  readonly events: AsyncIterable<AgentEvent>;
  /** Stops the run; it ends with `done(aborted)`. Idempotent. */
  cancel(): void;
  /** Resolves with the run's result (rejects only on a bug in the kernel or a hook). */
  wait(): Promise<RunResult>;
}

/** An agent that runs in this process. */
export interface Agent {
  /**
   * Runs the agent, yielding every event; returns the RunResult. A fatal error (`ProviderError`, `CodecError` after
   * its repairs, a throwing hook…) is yielded as the `error` event, then thrown, with no `done` (as the seed's).
   */
  run(input: RunInput, options?: RunOptions): AsyncGenerator<AgentEvent, RunResult>;
  /** Runs the agent to the end and returns the RunResult; rejects with a fatal error, as `run` throws it. */
  send(input: RunInput, options?: RunOptions): Promise<RunResult>;
  /** Starts the agent in the background and returns a handle. */
  runAsync(input: RunInput, options?: RunOptions): RunHandle;
  /** Runs a fork: a clone of the agent seeded with `seed`, whose events all carry the fork id. */
  fork(
    seed: Message[],
    input: string,
    options?: ForkOptions & RunOptions,
  ): AsyncGenerator<AgentEvent, RunResult>;
  /** The prompts of a session, each a point to restore to (needs a checkpointer). */
  listCheckpoints(sessionId: string): Promise<Checkpoint[]>;
  /**
   * Restores a session to just after event `toSeq` (needs a checkpointer): files the tools changed later are put back
   * from their snapshots, then the log is truncated, so the next run with this session id goes on from there. Pass a
   * checkpoint's `seq - 1` to undo its prompt and everything after it.
   */
  restore(sessionId: string, toSeq: number, options?: RestoreOptions): Promise<RestoreResult>;
  /** The configuration the agent was made with. */
  readonly config: KernelConfig;
  /**
   * Releases what the agent's tool sources hold: its MCP connections, and the server processes it started. Call it
   * when done with the agent (a later run connects again). Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Assembles an agent that runs in this process; `agent.run(input, { signal })` yields its events.
 * @example for await (const ev of createAgent({ model, codec: nativeCodec() }).run("hello")) console.log(ev.type);
 */
export function createAgent(config: CreateAgentConfig): Agent {
  const kernelConfig: KernelConfig = { ...config, ports: config.ports ?? nodePorts };
  const withSession = (options: RunOptions = {}) => ({
    ...options,
    sessionId: options.sessionId ?? kernelConfig.ports.newId(),
  });
  const events = (input: RunInput, options?: RunOptions) =>
    runKernel(kernelConfig, input, withSession(options));
  const run = (input: RunInput, options?: RunOptions) => throwingFatal(events(input, options));
  return {
    config: kernelConfig,
    run,
    // Nobody reads the events: the loop delivers them nowhere and never pauses for a consumer.
    send: async (input, options) => {
      const fatal: { error?: AgentError } = {};
      const result = await runKernelInto(fatalOnly(fatal), kernelConfig, input, withSession(options));
      if (result.stopReason === "error" && fatal.error) throw fatal.error;
      return result;
    },
    // The handle's events end with `done`, whatever the run's end: `wait()` resolves with the result.
    runAsync: (input, options) => startHandle(events, input, options),
    fork: (seed, input, options = {}) => {
      const { forkId = "fork-1", tools, ...runOptions } = options;
      const sessionId = runOptions.sessionId ?? kernelConfig.ports.newId();
      // Tools given for the fork replace the agent's, listed ones (tool sources) included.
      const forked = tools
        ? { ...kernelConfig, tools, toolSources: undefined, checkpointer: undefined }
        : { ...kernelConfig, checkpointer: undefined };
      return runKernel(forked, input, { ...runOptions, sessionId, forkId, history: seed });
    },
    close: async () => {
      await Promise.all((kernelConfig.toolSources ?? []).map((source) => source.close?.()));
    },
    listCheckpoints: async (sessionId) =>
      listCheckpoints(requireCheckpointer(kernelConfig.checkpointer, "listCheckpoints"), sessionId),
    restore: async (sessionId, toSeq, options) =>
      restoreCheckpoint(requireCheckpointer(kernelConfig.checkpointer, "restore"), sessionId, toSeq, options),
  };
}

/** Where `send` delivers its run's events: only the fatal error is kept, to throw. */
function fatalOnly(fatal: { error?: AgentError }): EventOutlet {
  return directOutlet((event) => {
    if (event.type === "error" && event.fatal) fatal.error = event.error;
  });
}

/**
 * The run's events up to its fatal `error`, which it then throws instead of yielding `done(error)`. A consumer that
 * stops early closes the run, as it would the kernel's generator.
 */
async function* throwingFatal(
  events: AsyncGenerator<AgentEvent, RunResult>,
): AsyncGenerator<AgentEvent, RunResult> {
  let fatal: AgentError | undefined;
  let ended = false;
  try {
    for (;;) {
      const next = await events.next();
      if (next.done) {
        ended = true;
        return next.value;
      }
      const event = next.value;
      if (event.type === "error" && event.fatal) fatal = event.error;
      if (event.type === "done" && event.reason === "error" && fatal) {
        ended = true;
        await events.return(event.result);
        throw fatal;
      }
      yield event;
    }
  } finally {
    if (!ended) await events.return(undefined as never);
  }
}

function startHandle(run: Agent["run"], input: RunInput, options: RunOptions = {}): RunHandle {
  const controller = new AbortController();
  const outer = options.signal;
  if (outer?.aborted) controller.abort(outer.reason);
  outer?.addEventListener("abort", () => controller.abort(outer.reason), { once: true });
  const channel = new Channel<AgentEvent>();
  const result = (async () => {
    const events = run(input, { ...options, signal: controller.signal });
    try {
      for (;;) {
        const next = await events.next();
        if (next.done) return next.value;
        channel.push(next.value);
      }
    } finally {
      channel.close();
    }
  })();
  result.catch(() => undefined);
  return {
    events: channel,
    cancel: () => controller.abort(new AbortError("cancelled")),
    wait: () => result,
  };
}
