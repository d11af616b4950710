import { createInterface } from "node:readline/promises";
import type { Readable, Writable } from "node:stream";

/** Options of {@link InlinePrompter}. */
export interface InlinePrompterOptions {
  input: Readable;
  output: Writable;
  /** Ctrl-C while a prompt has the terminal (readline takes it from the process). */
  onInterrupt(): void;
}

/**
 * Asks questions on the terminal one at a time, while the run's events keep arriving. A question can be
 * dismissed (someone else answered it, the run ended): it then resolves to undefined.
 */
export class InlinePrompter {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: InlinePrompterOptions) {}

  /**
   * Asks `query` until `parse` accepts the reply (it returns undefined to ask again, after `hint`, or what `hint`
   * says to that reply). Resolves to undefined when `signal` aborts or the input ends.
   */
  ask<T>(
    query: string,
    parse: (reply: string) => T | undefined,
    hint: string | ((reply: string) => string),
    signal: AbortSignal,
  ): Promise<T | undefined> {
    const asked = this.queue.then(() => this.askNow(query, parse, hint, signal));
    this.queue = asked.catch(() => undefined);
    return asked;
  }

  private async askNow<T>(
    query: string,
    parse: (reply: string) => T | undefined,
    hint: string | ((reply: string) => string),
    signal: AbortSignal,
  ): Promise<T | undefined> {
    if (signal.aborted) return undefined;
    const { input, output, onInterrupt } = this.options;
    const readline = createInterface({
      input,
      output,
      terminal: (input as { isTTY?: boolean }).isTTY === true,
    });
    readline.on("SIGINT", onInterrupt);
    const closed = new Promise<undefined>((resolve) => readline.once("close", () => resolve(undefined)));
    try {
      for (;;) {
        const reply = await Promise.race([readline.question(query, { signal }), closed]);
        if (reply === undefined) return undefined;
        const parsed = parse(reply);
        if (parsed !== undefined) return parsed;
        output.write(`${typeof hint === "string" ? hint : hint(reply)}\n`);
      }
    } catch (error) {
      if (signal.aborted) return undefined;
      throw error;
    } finally {
      readline.close();
    }
  }
}
