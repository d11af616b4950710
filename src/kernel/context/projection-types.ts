import type { ToolSpec } from "../vocabulary/tool-calls.js";

/** A fact of the seed's context projection: a goal or constraint, or an artifact checked by a command. */
export type Fact =
  | { id: string; kind: "goal" | "constraint"; text: string; evidenceRefs: readonly string[] }
  | {
      id: string;
      kind: "artifact";
      text: string;
      path: string;
      revision?: string;
      verification: { command: string; result: string };
      evidenceRefs: readonly string[];
    };

/** A key's latest value in the projected state, with the events it came from. */
export interface StateEntry {
  key: string;
  value: string;
  evidenceRefs: readonly string[];
}

/** What the static prefix (system prompt, tools, codec) is fingerprinted from. */
export interface StaticPrefixInput {
  system?: string;
  tools?: readonly ToolSpec[];
  codec?: unknown;
}

/** Options of the seed's `projectContext`. */
export interface ProjectContextOptions {
  staticPrefix?: StaticPrefixInput;
  /** Whole recent segments are kept up to about this many messages. */
  maxMessages?: number;
}
