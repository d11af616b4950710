import { jsonCodec } from "./json-codec.js";
import { nativeCodec } from "./native-codec.js";
import { reactCodec } from "./react-codec.js";
import type { ToolCallCodec } from "./types.js";

/** The wire name of a codec, as agent plans carry it. */
export type CodecName = "native" | "json" | "react";

/** The codec a plan names. */
export function codecFor(name: CodecName): ToolCallCodec {
  if (name === "json") return jsonCodec();
  if (name === "react") return reactCodec();
  return nativeCodec();
}
