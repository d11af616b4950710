import { InvalidArgumentError, Option, type Command } from "commander";

/** The output formats of `-o, --output`, as Temporal's CLI names them; `table` is the human one. */
export const OUTPUT_FORMATS = ["table", "json", "jsonl"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The options {@link addOutputOption} adds, as a command's options object holds them. */
export interface OutputFlags {
  output: OutputFormat;
}

/** How a command's `-o` reads, beyond the formats: its default, and a hint for a value that is no format. */
export interface OutputOptionSettings {
  fallback?: OutputFormat;
  hint?: (value: string) => string | undefined;
}

/**
 * Adds `-o, --output <format>` (one of {@link OUTPUT_FORMATS}, default `table`) and `--json`, which means
 * `-o json`. `what` says, for the help, what `json` and `jsonl` print.
 */
export function addOutputOption(
  command: Command,
  what: string,
  { fallback = "table", hint }: OutputOptionSettings = {},
): Command {
  const parse = (value: string): OutputFormat => {
    if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
    const more = hint?.(value);
    throw new InvalidArgumentError(
      `Allowed choices are ${OUTPUT_FORMATS.join(", ")}.${more ? ` ${more}` : ""}`,
    );
  };
  return command
    .addOption(
      new Option("-o, --output <format>", `table (for people), json or jsonl: ${what}`)
        .choices(OUTPUT_FORMATS)
        .argParser(parse)
        .default(fallback),
    )
    .addOption(new Option("--json", "the same as -o json").implies({ output: "json" }));
}
