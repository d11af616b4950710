/** Ctrl-C handling for the demo. */
export interface Interrupts {
  /** Aborted on the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** Resolves on the first interrupt. */
  readonly interrupted: Promise<void>;
  /** Removes the handlers. */
  dispose(): void;
}

/** Options of {@link handleInterrupts}; the defaults are the real process's. */
export interface InterruptOptions {
  exit?: (code: number) => void;
  now?: () => number;
  /** Repeats closer than this to the first signal are echoes of it (default 1000 ms). */
  echoWindowMs?: number;
}

/**
 * Turns the first Ctrl-C (or SIGTERM) into a clean shutdown (cancel the run, stop worker and server) and a later one
 * into an immediate exit. Repeats within `echoWindowMs` of the first count as its echo: the terminal signals the
 * whole process group, and `npm` and `tsx` relay the signal to their child too.
 */
export function handleInterrupts(log: (line: string) => void, options: InterruptOptions = {}): Interrupts {
  const { exit = process.exit, now = Date.now, echoWindowMs = 1_000 } = options;
  const controller = new AbortController();
  let resolve: () => void = () => undefined;
  const interrupted = new Promise<void>((done) => (resolve = done));
  let firstAt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (!controller.signal.aborted) {
      firstAt = now();
      log(`${signal}: shutting down cleanly (press Ctrl-C again to quit at once)…`);
      controller.abort();
      resolve();
    } else if (now() - firstAt >= echoWindowMs) {
      log(`${signal} again: quitting now.`);
      exit(130);
    }
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: controller.signal,
    interrupted,
    dispose() {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}
