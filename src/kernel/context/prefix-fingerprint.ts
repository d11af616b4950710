import type { ToolSpec } from "../vocabulary/tools.js";
import { stableStringify } from "../hash/stable-stringify.js";
import { sha256 } from "../hash/sha256.js";

/** The parts of a request that should stay byte-stable between calls (the prompt-cache prefix). */
export interface StaticPrefix {
  system?: string;
  tools?: ToolSpec[];
  /** The codec's name, or any value identifying how messages are encoded. */
  codec?: string;
}

/** The sha256 hex of canonical JSON over `{system, tools, codec}`; a change means the cached prefix is lost. */
export function prefixFingerprint(prefix: StaticPrefix): string {
  return sha256(stableStringify({ system: prefix.system, tools: prefix.tools, codec: prefix.codec }));
}
