import type { ContextArchive } from "./types.js";
import { sha256 } from "../hash/sha256.js";

/**
 * An in-memory archive. Refs are `ctx_` plus the first 16 hex digits of the content's sha256, so the same
 * content always gets the same ref: putting twice stores once, and a replayed workflow sees the same refs.
 */
export function memoryContextArchive(): ContextArchive {
  const entries = new Map<string, string>();
  return {
    put(content: string): string {
      const ref = `ctx_${sha256(content).slice(0, 16)}`;
      entries.set(ref, content);
      return ref;
    },
    get(ref: string): string | undefined {
      return entries.get(ref);
    },
  };
}
