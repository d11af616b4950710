import type { Readable, Writable } from "node:stream";

/** Where the CLI reads and writes: the real process, or a test's buffers. */
export interface CliIo {
  /** Results: rendered events, tables, JSON. */
  stdout(text: string): void;
  /** Messages about what happens: errors, notes, prompts. */
  stderr(text: string): void;
  /** Answers to inline prompts come from here. */
  stdin: Readable;
  /** Where inline prompts are written (stderr, so `--json` output stays clean). */
  promptOutput: Writable;
  /** True when a person can answer prompts (stdin is a terminal). */
  interactive: boolean;
  /** Whether stdout takes ANSI colours. */
  color: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}
