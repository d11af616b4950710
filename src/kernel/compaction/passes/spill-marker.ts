/** How every spilled tool result's in-context marker begins; passes use it to recognise spilled bodies. */
export const SPILL_PREFIX = "[spilled:";

/**
 * The marker left in place of a spilled tool result: `[spilled:<ref>] N bytes moved off-context — call
 * read_spilled({ ref: "<ref>" }) to read it`. That tool (also registered as `context`) reads the body back by `ref`.
 */
export function spillMarker(ref: string, bytes: number): string {
  return `${SPILL_PREFIX}${ref}] ${bytes} bytes moved off-context — call read_spilled({ ref: "${ref}" }) to read it`;
}

/** True when a tool-result body is a spill marker. */
export function isSpilled(content: string): boolean {
  return content.startsWith(SPILL_PREFIX);
}

/** The ref of a spill marker, or undefined when `content` is not one. */
export function spillRef(content: string): string | undefined {
  if (!isSpilled(content)) return undefined;
  const end = content.indexOf("]", SPILL_PREFIX.length);
  return end < 0 ? undefined : content.slice(SPILL_PREFIX.length, end);
}
