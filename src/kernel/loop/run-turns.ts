import { isAbortError } from "../vocabulary/errors.js";
import type { RunResult } from "../vocabulary/events.js";
import { isPromiseLike, whenSettled } from "../coroutine/later.js";
import type { MaybeAsync } from "../coroutine/maybe-async.js";
import { RunClosedError } from "../coroutine/pull-events.js";
import type { RunSnapshot, SuspendPort } from "../vocabulary/run-snapshot.js";
import type { RunState } from "./run-state.js";
import { initialTurnState, nextStep } from "./next-step.js";
import { performStep } from "./perform-step.js";
import { Threw, type Outcome, type TurnState } from "./turn-step.js";

/** What the interpreter needs besides the run: where it resumes, and how its driver moves it. */
export interface TurnOptions {
  resume?: RunSnapshot;
  suspend?: SuspendPort;
}

/**
 * Runs the turn loop of an opening run to its result: takes each step `nextStep` gives and performs it, going on at
 * once after synchronous work and waiting only on a real promise, with one `then` on it (in a workflow the SDK
 * captures a stack trace for every promise: docs/decisions/0014). Rejects only when the loop cannot end by itself.
 */
export function runTurns(opening: MaybeAsync<RunState>, options: TurnOptions): Promise<RunResult> {
  return new Promise<RunResult>((resolve, reject) => {
    const start = (run: RunState): void => {
      const state = initialTurnState(options.resume, run.config.maxTurns, run.engine !== undefined);
      new Interpreter(run, options.suspend, state, resolve, reject).advance(undefined);
    };
    if (isPromiseLike(opening)) whenSettled(opening, start, reject);
    else start(opening);
  });
}

/** The loop in motion: one pair of callbacks for the whole run, not one a wait. */
class Interpreter {
  private readonly onValue = (value: Outcome): void => this.advance(value);
  private readonly onError = (error: unknown): void => this.advance(this.threw(error));

  constructor(
    private readonly run: RunState,
    private readonly suspend: SuspendPort | undefined,
    private state: TurnState,
    private readonly resolve: (result: RunResult) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  /** Takes steps until one waits on a promise (its settling comes back here) or the loop ends. */
  advance(outcome: Outcome): void {
    for (;;) {
      const step = nextStep(this.state, outcome);
      if (step.kind === "end") return this.resolve(step.moved ? movedResult(this.run) : this.run.result!);
      if (step.kind === "fail") return this.reject(step.error);
      this.state = step.state;
      let performed: MaybeAsync<Outcome>;
      try {
        performed = performStep(this.run, step, this.suspend);
      } catch (error) {
        outcome = this.threw(error);
        continue;
      }
      if (isPromiseLike(performed)) return whenSettled(performed, this.onValue, this.onError);
      outcome = performed;
    }
  }

  /** A step threw: a tool phase that threw left its live delivery on. */
  private threw(error: unknown): Threw {
    this.run.sink.endLive();
    const aborted = this.run.signal.aborted || isAbortError(error);
    return new Threw(error, aborted, error instanceof RunClosedError);
  }
}

/** A moved run's result here: the conversation so far, without `done` (the run goes on elsewhere). */
function movedResult(run: RunState): RunResult {
  return { messages: run.ctx.messages, text: "", usage: run.usage, stopReason: "stop" };
}
