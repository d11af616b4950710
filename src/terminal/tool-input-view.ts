/** How much of a tool's input an approval prompt shows before `?` shows the rest. */
export const SHOWN_INPUT_CHARS = 4_000;

/**
 * A tool call's input as a person reads it before approving: one `key: value` line per field, a string with line
 * breaks as its own indented lines (a file's content as the file), anything else as JSON.
 */
export function toolInputView(input: unknown): string {
  if (input === null || typeof input !== "object" || Array.isArray(input))
    return JSON.stringify(input, null, 2) ?? String(input);
  return Object.entries(input)
    .map(([key, value]) => {
      if (typeof value === "string" && value.includes("\n"))
        return `  ${key}:\n${value.replace(/\n$/, "").replace(/^/gm, "    │ ")}`;
      if (typeof value === "string") return `  ${key}: ${value}`;
      return `  ${key}: ${JSON.stringify(value)}`;
    })
    .join("\n");
}

/** {@link toolInputView}, cut at `max` characters with a line saying how to see the rest. */
export function shownToolInput(input: unknown, max = SHOWN_INPUT_CHARS): string {
  const view = toolInputView(input);
  if (view.length <= max) return view;
  return `${view.slice(0, max)}\n  … ${view.length - max} more characters: type ? to see all of it`;
}
