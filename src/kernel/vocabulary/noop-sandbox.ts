import type { Sandbox } from "./tools.js";

/** The sandbox that isolates nothing: commands run as given. The default `ctx.sandbox` of both drivers. */
export function noopSandbox(): Sandbox {
  return { id: "noop", wrap: (command) => command };
}
